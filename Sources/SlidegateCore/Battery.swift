/// `--show-battery`: UPower's display device (the battery, or all batteries together), as
/// its properties say.
package struct Battery: Equatable, Sendable {
    /// 0 to 100.
    package var percent: Int
    /// On mains power: charging, fully charged or waiting to charge.
    package var charging: Bool

    package init(percent: Int, charging: Bool) {
        self.percent = percent
        self.charging = charging
    }

    /// The battery `properties` (org.freedesktop.UPower.Device's) describe; nil when there
    /// is none (a desktop, a device that is not a battery) or they make no sense.
    package init?(upower properties: [String: BusValue]) {
        // Type 2 is a battery; the display device is one whenever the machine has one.
        guard properties["Type"]?.number == 2, properties["IsPresent"]?.flag ?? true,
            let percentage = properties["Percentage"]?.number, percentage.isFinite
        else { return nil }
        percent = Int(exactly: min(max(percentage, 0), 100).rounded()) ?? 0
        // State: 1 charging, 4 fully charged, 5 pending charge.
        charging = [1, 4, 5].contains(properties["State"]?.number ?? 0)
    }

    /// What the status strip says.
    package var text: String { "\(percent) %" }
}
