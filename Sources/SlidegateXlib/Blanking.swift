import CX11
import CXScreenSaver

/// Whether the screen is blanked, so animating would be wasted: the X screen saver is on
/// (MIT-SCREEN-SAVER notifies), or DPMS has turned the monitors off (no notification
/// exists; checked between shimmer sweeps, and cleared by the next input, which is what
/// wakes DPMS).
package final class Blanking {
    private let display: XDisplay
    private var screenSaverEvent: Int32?
    private var screenSaverOn = false
    private var monitorsOff = false
    private var following = false

    /// Not blank until `follow` has asked: a lock's first frame need not wait for its
    /// round trips.
    package init(_ display: XDisplay) {
        self.display = display
    }

    /// Follows the X screen saver from now on (its notifications, and whether it is on
    /// now). A second call does nothing.
    package func follow() {
        guard !following else { return }
        following = true
        var event: Int32 = 0
        var error: Int32 = 0
        guard XScreenSaverQueryExtension(display.pointer, &event, &error) != 0 else { return }
        screenSaverEvent = event + Int32(ScreenSaverNotify)
        XScreenSaverSelectInput(display.pointer, display.root, UInt(ScreenSaverNotifyMask))
        var info = XScreenSaverInfo()
        if XScreenSaverQueryInfo(display.pointer, display.root, &info) != 0 {
            screenSaverOn = info.state == ScreenSaverOn
        }
    }

    package var isBlank: Bool { screenSaverOn || monitorsOff }

    /// Takes a screen-saver notification; returns true if the event was one.
    package func handle(_ event: inout XEvent) -> Bool {
        guard let screenSaverEvent, event.type == screenSaverEvent else { return false }
        let notify = withUnsafePointer(to: &event) {
            $0.withMemoryRebound(to: XScreenSaverNotifyEvent.self, capacity: 1) { $0.pointee }
        }
        screenSaverOn = notify.state == ScreenSaverOn
        return true
    }

    /// Asks DPMS whether the monitors are off.
    package func checkMonitors() {
        guard let dpms = display.dpms else { return }
        monitorsOff = dpms.enabled && !dpms.monitorsOn
    }

    /// Input arrived: whatever DPMS said, the monitors are on again.
    package func inputArrived() {
        monitorsOff = false
    }
}

extension XDisplay {
    /// DPMS as the server has it: nil without it (no extension, or no monitor it can power
    /// down), else whether it is enabled and whether the monitors are on.
    package var dpms: (enabled: Bool, monitorsOn: Bool)? {
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        var level: UInt16 = 0
        var enabled: UInt8 = 0
        guard DPMSQueryExtension(pointer, &eventBase, &errorBase) != 0, DPMSCapable(pointer) != 0,
            DPMSInfo(pointer, &level, &enabled) != 0
        else { return nil }
        return (enabled != 0, level == UInt16(DPMSModeOn))
    }
}
