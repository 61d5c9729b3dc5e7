import Glibc

/// logind's `LockedHint` for the session the lock runs in, as GNOME and KDE set it, so that
/// `loginctl show-session -p LockedHint`, power managers and the like know the screen is
/// locked: true once it is, false once it no longer is. `dbus-send` says it, in a shell of
/// its own: the guard links no D-Bus, and waits for no answer. The session is
/// `$XDG_SESSION_ID`'s, else the guard's own (logind's GetSessionByPID). Without logind, a
/// system bus or dbus-send, nothing is said and nothing fails.
package final class LockedHint {
    private var last: ChildProcess?

    package init() {}

    /// SIGCHLD: the call that ended is reaped (no zombie among the guard's children).
    package func reap() {
        if last?.poll() != nil { last = nil }
    }

    /// Says `locked`. The call before it ends first (or has had a second): false must not
    /// overtake true.
    package func set(_ locked: Bool) {
        if let last {
            let end = boottimeNow() + 1
            while last.poll() == nil && boottimeNow() < end { usleep(2_000) }
        }
        last = try? ChildProcess(shell: Self.script, arguments: [locked ? "true" : "false"])
    }

    private static let script = """
        exec >/dev/null 2>&1
        call() { dbus-send --system --print-reply=literal --reply-timeout=3000 --dest=org.freedesktop.login1 "$@"; }
        if [ -n "$XDG_SESSION_ID" ]; then
          session=$(call /org/freedesktop/login1 org.freedesktop.login1.Manager.GetSession "string:$XDG_SESSION_ID") || exit 0
        else
          session=$(call /org/freedesktop/login1 org.freedesktop.login1.Manager.GetSessionByPID "uint32:$PPID") || exit 0
        fi
        exec dbus-send --system --print-reply --reply-timeout=3000 --dest=org.freedesktop.login1 $session \\
          org.freedesktop.login1.Session.SetLockedHint "boolean:$1"
        """
}
