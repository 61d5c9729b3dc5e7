import CSystem
import Glibc

/// Seconds on CLOCK_BOOTTIME: the time a person lives through, suspend included. Every
/// deadline of the gate and of both programs' loops is on it (the guard and the UI share
/// its moments over the protocol), so a `--grace`, a held match or a `--timeout` that a
/// sleep interrupts has run on through the sleep when the machine wakes; CLOCK_MONOTONIC
/// stops while the machine sleeps.
package func boottimeNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_BOOTTIME, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// One malloc arena for the process: threads that libraries start (Pango starts one for
/// fontconfig) allocate from the main one, so nothing stays behind in an arena of theirs.
package func useOneMallocArena() {
    sg_single_malloc_arena()
}

/// Gives back the memory only start-up needed: freed heap, and the pages of code and data
/// that are still the files' own (they stay in the page cache and return without I/O if
/// needed again). The guard calls it once the lock is up and again once the UI has drawn;
/// the UI after its first frame and again at its first long wait.
package func shedStartupPages() {
    _ = sg_shed_startup_pages()
}
