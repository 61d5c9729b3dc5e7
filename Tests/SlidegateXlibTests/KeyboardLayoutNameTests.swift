import SlidegateXlib
import Testing

@Suite struct KeyboardLayoutNameTests {
    func rules(_ layouts: String) -> [UInt8] { Array("evdev\0pc105\0\(layouts)\0\0".utf8) }

    @Test func theGroupNamesItsLayoutWhenThereAreSeveral() {
        #expect(KeyboardLayouts.name(of: 0, in: rules("us,de")) == "us")
        #expect(KeyboardLayouts.name(of: 1, in: rules("us,de")) == "de")
        #expect(KeyboardLayouts.name(of: 2, in: rules("us,de,latam")) == "latam")
    }

    @Test func oneLayoutOrNamesThatAreNotPlainShowNothing() {
        #expect(KeyboardLayouts.name(of: 0, in: rules("us")) == nil)
        #expect(KeyboardLayouts.name(of: 2, in: rules("us,de")) == nil, "a group past the names")
        #expect(KeyboardLayouts.name(of: 0, in: rules("us,\u{1b}[2J")) == nil, "a control sequence")
        #expect(KeyboardLayouts.name(of: 0, in: rules("us,")) == nil)
        #expect(KeyboardLayouts.name(of: 0, in: rules("us," + String(repeating: "x", count: 17))) == nil)
        #expect(KeyboardLayouts.name(of: 0, in: Array("evdev\0pc105".utf8)) == nil)
        #expect(KeyboardLayouts.name(of: 0, in: []) == nil)
    }
}
