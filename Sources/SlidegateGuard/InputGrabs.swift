import CX11
import CXShim
import Glibc
import SlidegateCore
import SlidegateSystem
import SlidegateXlib

/// Every way input could reach another client, shut while the screen is locked: the core
/// keyboard and pointer grabbed on the root window; every other master device (MPX: `xinput
/// create-master`) grabbed through XInput 2, also those added later; and, when the slide
/// alone opens the lock, XKB's MouseKeys turned off, so the keypad cannot move the pointer
/// and slide the thumb. Owns all of it; releasing it gives everything back, MouseKeys
/// included. When a password, PIN, finger or key decides, MouseKeys, StickyKeys, SlowKeys
/// and BounceKeys stay as the user set them: the keypad may slide, the secret still decides.
final class InputGrabs {
    private let display: XDisplay
    /// XInput 2's major opcode, or nil when the server has no XInput 2.
    private let inputOpcode: Int32?
    /// XKB's event code, or nil without XKB.
    private let xkbEventType: Int32?
    private var grabbedMasters: Set<Int32> = []
    private var mouseKeysWasOn = false
    /// `release()` has run.
    private var released = false
    /// MouseKeys was turned on (Shift+NumLock with `keypad:pointerkeys`, or another client)
    /// and the server has not yet confirmed it off again: pointer input in between may come
    /// from the keypad, and does not count.
    private(set) var mouseKeysOn = false
    /// XKB said the keyboard changed (its group or locked modifiers, its map or names: a
    /// layout switched or loaded by another client) since `takeKeyboardChange`.
    private var keyboardChange = false
    /// The keymap keys are read with, fetched whole again when XKB says it changed.
    let keymap: WholeKeymap
    private(set) var keyboardHeld = false
    private(set) var pointerHeld = false
    /// When a lost grab was last reported, to say it once a second.
    private var lastLossReport = -Double.infinity
    /// Whether a master device other than the core pair could not be grabbed (another client
    /// held it at that moment): the guard keeps trying, as for the core grabs.
    private(set) var mastersMissing = false
    private var lastMastersReport = -Double.infinity

    /// How long to keep trying when another client holds a grab.
    static let grabPatience = 1.0
    /// After this long without the grabs, a small "locking…" notice shows that something
    /// is happening (it covers nothing and does not look locked).
    static let noticeDelay = 0.25
    /// Whether pointer motion comes as hints: after one motion event the server sends none
    /// until the guard asks where the pointer is, once a frame. For a fast pointer that is
    /// cheaper than every motion event (the server writes 1000 a second at 1000 Hz, which the
    /// guard reads once a frame and mostly drops); for a slow one the question's round trip
    /// costs more than the few events. The guard decides; the active grab follows.
    var motionHints = false {
        didSet {
            guard motionHints != oldValue, pointerHeld else { return }
            XChangeActivePointerGrab(display.pointer, UInt32(clamping: pointerEvents), 0, UInt(CurrentTime))
        }
    }
    private var pointerEvents: Int {
        ButtonPressMask | ButtonReleaseMask | PointerMotionMask | (motionHints ? PointerMotionHintMask : 0)
    }

    /// What to do when the core grabs have failed for `grabPatience` seconds.
    enum Persistence {
        /// Give up: throw, naming the grab another client keeps (a lock started by hand).
        case giveUp
        /// Keep trying until they succeed (a lock taken for sleep, which must not end in an
        /// unlocked suspend): `tooLong` runs once, when the patience is over, and `meanwhile`
        /// after every try; either may throw to end the wait.
        case keepTrying(tooLong: () throws(UserError) -> Void, meanwhile: () throws(UserError) -> Void)
    }

    /// Takes the core grabs (retrying for `grabPatience` seconds, then as `persistence`
    /// says), then the other masters and, unless `keepMouseKeys`, MouseKeys.
    init(display: XDisplay, keepMouseKeys: Bool, persistence: Persistence = .giveUp) throws(UserError) {
        self.display = display
        let dpy = display.pointer
        var opcode: Int32 = 0
        var event: Int32 = 0
        var error: Int32 = 0
        var major: Int32 = 2
        var minor: Int32 = 2
        if XQueryExtension(dpy, "XInputExtension", &opcode, &event, &error) != 0, XIQueryVersion(dpy, &major, &minor) == Success {
            inputOpcode = opcode
        } else {
            inputOpcode = nil
        }
        var xkbMajor = Int32(XkbMajorVersion)
        var xkbMinor = Int32(XkbMinorVersion)
        xkbEventType = XkbQueryExtension(dpy, &opcode, &event, &error, &xkbMajor, &xkbMinor) != 0 ? event : nil
        keymap = WholeKeymap(display: display)
        try grabCore(persistence)
        keyboardHeld = true
        pointerHeld = true
        if inputOpcode != nil {
            var bits = [UInt8](repeating: 0, count: 4)
            bits[Int(XI_HierarchyChanged) >> 3] |= UInt8(clamping: 1 << (Int(XI_HierarchyChanged) & 7))
            bits.withUnsafeMutableBufferPointer { buffer in
                var mask = XIEventMask(deviceid: XIAllDevices, mask_len: Int32(clamping: buffer.count), mask: buffer.baseAddress)
                if XISelectEvents(dpy, display.root, &mask, 1) != Success {
                    report("critical: cannot watch for input devices added while locked; a new one may reach other clients")
                }
            }
            grabOtherMasters()
        }
        if !keepMouseKeys { turnMouseKeysOff() }
        followKeyboard()
    }

    /// Asks XKB for word of a layout switched or loaded by another client (setxkbmap, a
    /// desktop's layout switcher), so that the layout beside the password field follows it
    /// without waiting for a key; not of every modifier a key press changes.
    private func followKeyboard() {
        guard xkbEventType != nil else { return }
        let dpy = display.pointer
        let changes = UInt32(clamping: XkbNewKeyboardNotifyMask | XkbMapNotifyMask | XkbNamesNotifyMask)
        let state = UInt(clamping: XkbGroupLockMask | XkbModifierLockMask)
        guard XkbSelectEvents(dpy, UInt32(XkbUseCoreKbd), changes, changes) != 0,
            XkbSelectEventDetails(dpy, UInt32(XkbUseCoreKbd), UInt32(XkbStateNotify), state, state) != 0
        else {
            report("cannot follow keyboard layout changes; the layout shown changes at the next key")
            return
        }
    }

    /// Whether XKB said the keyboard changed since the last call.
    func takeKeyboardChange() -> Bool {
        defer { keyboardChange = false }
        return keyboardChange
    }

    /// Lets go of every grab now (once the lock is open and its cover gone: the person's
    /// desktop takes the keys at once, while the guard still winds down).
    func release() {
        guard !released else { return }
        released = true
        let dpy = display.pointer
        for id in grabbedMasters { XIUngrabDevice(dpy, id, UInt(CurrentTime)) }
        XUngrabPointer(dpy, UInt(CurrentTime))
        XUngrabKeyboard(dpy, UInt(CurrentTime))
        if mouseKeysWasOn, xkbEventType != nil {
            XkbSelectEvents(dpy, UInt32(XkbUseCoreKbd), UInt32(XkbControlsNotifyMask), 0)
            XkbChangeEnabledControls(dpy, UInt32(XkbUseCoreKbd), UInt32(XkbMouseKeysMask), UInt32(XkbMouseKeysMask))
        }
        XSync(dpy, 0)
    }

    deinit {
        release()
    }

    private func grabKeyboard() -> Int32 {
        XGrabKeyboard(display.pointer, display.root, 1, GrabModeAsync, GrabModeAsync, UInt(CurrentTime))
    }

    private func grabPointer() -> Int32 {
        XGrabPointer(
            display.pointer, display.root, 0, UInt32(clamping: pointerEvents), GrabModeAsync, GrabModeAsync, 0, 0, UInt(CurrentTime))
    }

    /// Grabs the keyboard and pointer on the root window, retrying for `grabPatience`
    /// seconds, then as `persistence` says; between tries input focus moves to a window of
    /// ours so that menus holding a grab close.
    private func grabCore(_ persistence: Persistence) throws(UserError) {
        let dpy = display.pointer
        let start = boottimeNow()
        var keyboard: Int32 = GrabNotViewable
        var pointer: Int32 = GrabNotViewable
        var focusWindow: Window = 0
        var notice: LockingNotice?
        var saidTooLong = false
        defer {
            if focusWindow != 0 { XDestroyWindow(dpy, focusWindow) }
        }
        while true {
            if keyboard != GrabSuccess { keyboard = grabKeyboard() }
            if pointer != GrabSuccess { pointer = grabPointer() }
            if keyboard == GrabSuccess && pointer == GrabSuccess { return }
            let elapsed = boottimeNow() - start
            if elapsed >= Self.grabPatience {
                guard case .keepTrying(let tooLong, let meanwhile) = persistence else { break }
                if !saidTooLong {
                    saidTooLong = true
                    report("\(Self.failure(keyboard: keyboard, pointer: pointer)); covering the screen and trying until it succeeds")
                    try tooLong()
                }
                try meanwhile()
            }
            if focusWindow == 0 {
                var attributes = XSetWindowAttributes()
                attributes.override_redirect = 1
                focusWindow = XCreateWindow(
                    dpy, display.root, -1, -1, 1, 1, 0, 0, UInt32(InputOnly), nil, UInt(CWOverrideRedirect), &attributes)
                XMapRaised(dpy, focusWindow)
            }
            XSetInputFocus(dpy, focusWindow, RevertToParent, UInt(CurrentTime))
            if notice == nil && elapsed >= Self.noticeDelay { notice = LockingNotice(display) }
            XSync(dpy, 0)
            _ = sg_take_x_error()
            usleep(2_000)
        }
        if keyboard == GrabSuccess { XUngrabKeyboard(dpy, UInt(CurrentTime)) }
        if pointer == GrabSuccess { XUngrabPointer(dpy, UInt(CurrentTime)) }
        XSync(dpy, 0)
        throw UserError("cannot lock: \(Self.failure(keyboard: keyboard, pointer: pointer))", status: .noDisplayOrLock)
    }

    /// Which grab failed, and why, for messages.
    private static func failure(keyboard: Int32, pointer: Int32) -> String {
        let (what, result) = keyboard != GrabSuccess ? ("keyboard", keyboard) : ("pointer", pointer)
        return "the \(what) grab failed (\(grabResultName(result))) for \(grabPatience) s; another client holds it"
    }

    /// Grabs, through XInput 2, each master pointer and keyboard other than the core pair
    /// (which the core grabs hold) that is not grabbed yet. What they send goes to the
    /// guard, which ignores it.
    private func grabOtherMasters() {
        let dpy = display.pointer
        var corePointer: Int32 = 0
        var count: Int32 = 0
        guard XIGetClientPointer(dpy, 0, &corePointer) != 0, let devices = XIQueryDevice(dpy, XIAllMasterDevices, &count) else {
            mastersMissing = true
            let now = boottimeNow()
            if now - lastMastersReport >= 1 {
                lastMastersReport = now
                report("critical: cannot list the input devices to grab them; another master device may reach other clients; retrying")
            }
            return
        }
        defer { XIFreeDeviceInfo(devices) }
        var present: Set<Int32> = []
        var missed: [String] = []
        for i in 0..<Int(clamping: count) {
            let device = devices[i]
            present.insert(device.deviceid)
            let isCore = device.deviceid == corePointer || device.attachment == corePointer
            guard !isCore, !grabbedMasters.contains(device.deviceid) else { continue }
            let events: [Int32] =
                device.use == XIMasterKeyboard
                ? [XI_KeyPress, XI_KeyRelease] : [XI_ButtonPress, XI_ButtonRelease, XI_Motion]
            var bits = [UInt8](repeating: 0, count: 4)
            for e in events { bits[Int(clamping: e) >> 3] |= UInt8(clamping: 1 << (Int(clamping: e) & 7)) }
            let result = bits.withUnsafeMutableBufferPointer { buffer in
                var mask = XIEventMask(deviceid: device.deviceid, mask_len: Int32(clamping: buffer.count), mask: buffer.baseAddress)
                return XIGrabDevice(
                    dpy, device.deviceid, display.root, UInt(CurrentTime), 0, XIGrabModeAsync, XIGrabModeAsync, 0, &mask)
            }
            if result == GrabSuccess {
                grabbedMasters.insert(device.deviceid)
            } else {
                missed.append("device \(device.deviceid) (\(Self.grabResultName(result)))")
            }
        }
        grabbedMasters.formIntersection(present)
        mastersMissing = !missed.isEmpty
        let now = boottimeNow()
        guard mastersMissing, now - lastMastersReport >= 1 else { return }
        lastMastersReport = now
        report("critical: cannot grab input \(missed.joined(separator: ", ")); it may reach other clients; retrying")
    }

    private func turnMouseKeysOff() {
        guard xkbEventType != nil, let xkb = XkbAllocKeyboard() else { return }
        defer { XkbFreeKeyboard(xkb, 0, 1) }
        let dpy = display.pointer
        if XkbGetControls(dpy, UInt(XkbAllControlsMask), xkb) == Success, let controls = xkb.pointee.ctrls {
            mouseKeysWasOn = controls.pointee.enabled_ctrls & UInt32(XkbMouseKeysMask) != 0
        }
        guard XkbSelectEvents(dpy, UInt32(XkbUseCoreKbd), UInt32(XkbControlsNotifyMask), UInt32(XkbControlsNotifyMask)) != 0,
            XkbChangeEnabledControls(dpy, UInt32(XkbUseCoreKbd), UInt32(XkbMouseKeysMask), 0) != 0
        else {
            report("critical: cannot turn MouseKeys off; the keypad may move the pointer")
            return
        }
    }

    /// Reacts to an event about input: a device added (grab it), MouseKeys turned on (off
    /// again), a grab broken (take it again). Returns true when the event was one.
    func handle(_ event: inout XEvent) -> Bool {
        let dpy = display.pointer
        if let xkbEventType, event.type == xkbEventType {
            let controls = withUnsafePointer(to: &event) {
                $0.withMemoryRebound(to: XkbControlsNotifyEvent.self, capacity: 1) { $0.pointee }
            }
            if controls.xkb_type == XkbControlsNotify {
                mouseKeysOn = controls.enabled_ctrls & UInt32(XkbMouseKeysMask) != 0
                if mouseKeysOn { XkbChangeEnabledControls(dpy, UInt32(XkbUseCoreKbd), UInt32(XkbMouseKeysMask), 0) }
            } else {
                keyboardChange = true
                // A group or a lock switched changes no key's symbols.
                if controls.xkb_type != XkbStateNotify { keymap.changed() }
            }
            return true
        }
        if let inputOpcode, event.type == GenericEvent, event.xcookie.extension == inputOpcode {
            if event.xcookie.evtype == XI_HierarchyChanged { grabOtherMasters() }
            return true
        }
        switch event.type {
        case FocusOut where event.xfocus.mode == NotifyUngrab, FocusIn where event.xfocus.mode == NotifyUngrab:
            keyboardHeld = false
            pointerHeld = false
            regrab(at: boottimeNow())
            return true
        default:
            return false
        }
    }

    /// Whether both core grabs are held.
    var held: Bool { keyboardHeld && pointerHeld }

    /// Whether every grab is held: the core pair and every other master device.
    var complete: Bool { held && !mastersMissing }

    /// Takes the grabs again after another client or the server broke one, or kept a new
    /// master device from the guard. While one is missing the guard calls this on every
    /// pass; it says so loudly, once a second.
    func regrab(at now: Double) {
        if mastersMissing { grabOtherMasters() }
        guard !held else { return }
        keyboardHeld = grabKeyboard() == GrabSuccess
        pointerHeld = grabPointer() == GrabSuccess
        guard !held, now - lastLossReport >= 1 else { return }
        lastLossReport = now
        let lost = [keyboardHeld ? nil : "keyboard", pointerHeld ? nil : "pointer"].compactMap { $0 }.joined(separator: " and ")
        report("critical: the \(lost) grab is lost; retrying")
    }

    private static func grabResultName(_ result: Int32) -> String {
        switch result {
        case AlreadyGrabbed: "AlreadyGrabbed"
        case GrabFrozen: "GrabFrozen"
        case GrabInvalidTime: "GrabInvalidTime"
        case GrabNotViewable: "GrabNotViewable"
        default: "error \(result)"
        }
    }
}

/// A small box at the top of the screen saying "locking..." while the grabs are being
/// fought for. Core X font and drawing only. Owns its window.
private final class LockingNotice {
    private let display: XDisplay
    private let window: Window

    init(_ display: XDisplay) {
        self.display = display
        let dpy = display.pointer
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.background_pixel = XBlackPixel(dpy, display.screen)
        window = XCreateWindow(
            dpy, display.root, Int32(clamping: display.rootSize().width / 2 - 60), 8, 120, 28, 0, XDefaultDepth(dpy, display.screen),
            UInt32(InputOutput), XDefaultVisual(dpy, display.screen), UInt(clamping: CWOverrideRedirect | CWBackPixel), &attributes)
        XMapRaised(dpy, window)
        let gc = XCreateGC(dpy, window, 0, nil)
        XSetForeground(dpy, gc, XWhitePixel(dpy, display.screen))
        XDrawString(dpy, window, gc, 30, 18, "locking...", 10)
        XFreeGC(dpy, gc)
    }

    deinit {
        XDestroyWindow(display.pointer, window)
    }
}
