import Testing

@testable import SlidegateCore

/// `--speak`'s words, from what the lock shows: the view holds how much was typed, never what.
struct AnnouncementTests {
    func said(_ views: [SpokenView]) -> [String] {
        var announcer = Announcer(strings: Strings())
        return views.flatMap { announcer.changes(to: $0).map(\.text) }
    }

    @Test func aLockIsAnnouncedThenItsFieldItsCountAndItsEnd() {
        var view = SpokenView(label: "slide to unlock")
        var views = [view]
        view.fieldOpen = true
        view.typed = 1
        views.append(view)
        view.prompt = "Password:"
        views.append(view)
        view.typed = 2
        views.append(view)
        view.checking = true
        view.typed = 0
        views.append(view)
        view.granted = true
        views.append(view)
        #expect(said(views) == ["screen locked. slide to unlock", "characters typed: 1", "Password:", "characters typed: 2", "unlocked"])
    }

    @Test func theCountReplacesItselfAndTheRestQueues() {
        var announcer = Announcer(strings: Strings())
        var view = SpokenView(label: "")
        #expect(announcer.changes(to: view) == [Utterance("screen locked")])
        view.fieldOpen = true
        view.typed = 3
        view.capsLock = true
        #expect(announcer.changes(to: view) == [Utterance("characters typed: 3", .text), Utterance("Caps Lock is on")])
    }

    @Test func aBannerIsSaidOnceAndTheSecondsEveryTen() {
        var view = SpokenView(label: "slide to cancel")
        view.tensLeft = 3
        var views = [view]
        view.banner = "try again in"
        views.append(view)
        views.append(view)
        for tens in [3, 2, 2, 1, 0] {
            view.tensLeft = tens
            views.append(view)
        }
        view.focused = "suspend"
        views.append(view)
        #expect(said(views) == ["screen locked. slide to cancel", "try again in", "seconds left: 20", "seconds left: 10", "suspend"])
    }

    @Test func closingTheFieldSaysTheLabelAgain() {
        var view = SpokenView(label: "slide to unlock")
        var views = [view]
        view.fieldOpen = true
        views.append(view)
        view.fieldOpen = false
        views.append(view)
        #expect(said(views) == ["screen locked. slide to unlock", "slide to unlock"])
    }

    @Test func aWindowSaysItsLabelAndNotThatItLocked() {
        var announcer = Announcer(strings: Strings(), locks: false)
        var view = SpokenView(label: "slide to cancel")
        #expect(announcer.changes(to: view) == [Utterance("slide to cancel")])
        view.granted = true
        #expect(announcer.changes(to: view).isEmpty)
    }
}
