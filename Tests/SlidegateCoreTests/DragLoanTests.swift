import SlidegateCore
import Testing

@Suite struct DragLoanTests {
    /// What the guard draws with stands in as a number.
    typealias Loan = DragLoan<Int>

    static func scene(thumb: Double = 0.3, alpha: Double = 0.5, busy: Bool = false, field: Bool = false, label: String = "slide") -> Scene {
        Scene(
            thumbValue: thumb, label: Scene.Label(text: label, placement: .afterThumb, emphasis: .solid, alpha: alpha), busy: busy,
            field: field ? Scene.Field(prompt: "Password:", count: 0) : nil)
    }

    /// Ask, lend, draw, end: the UI gets the newest motion the guard drew, then the slider.
    @Test func aLoanBeginsAsksDrawsAndEnds() throws {
        var loan = Loan()
        let answer1 = loan.begin(Self.scene())
        #expect(answer1)
        let answer2 = loan.begin(Self.scene())
        #expect(!answer2, "one ask a drag")
        let answer3 = loan.answered(lent: true, dragging: true, scene: Self.scene(thumb: 0.5, alpha: 0.2))
        #expect(answer3 == .use(look: Loan.look(Self.scene())))
        loan.drawing(7, look: Loan.look(Self.scene()), check: nil)
        #expect(loan.slider == 7)
        loan.drew(.motion(x: 100, y: 40), at: 3)
        loan.drew(.motion(x: 120, y: 40), at: 3.1)
        let ended = loan.end()
        let ending = try #require(ended)
        #expect(ending.slider == 7)
        #expect(ending.motion?.input == .motion(x: 120, y: 40) && ending.motion?.time == 3.1)
        #expect(!loan.isDrawing)
        let answer4 = loan.end()
        #expect(answer4 == nil, "ended once")
    }

    @Test func partsThatComeAfterTheDragEndedGoBack() {
        var loan = Loan()
        _ = loan.begin(Self.scene())
        let answer5 = loan.end()
        #expect(answer5 == nil, "the release ends an asked loan: nothing to finish")
        let answer6 = loan.answered(lent: true, dragging: false, scene: Self.scene())
        #expect(answer6 == .giveBack)
        let answer7 = loan.begin(Self.scene())
        #expect(answer7, "the next drag may ask again")
    }

    @Test func partsForATrackThatChangedMeanwhileGoBack() {
        var loan = Loan()
        _ = loan.begin(Self.scene())
        let answer8 = loan.answered(lent: true, dragging: true, scene: Self.scene(label: "unlock failed"))
        #expect(answer8 == .giveBack)
    }

    @Test func aUIThatCannotLendIsNotAskedAgainThisDrag() {
        var loan = Loan()
        _ = loan.begin(Self.scene())
        let answer9 = loan.answered(lent: false, dragging: true, scene: Self.scene())
        #expect(answer9 == .ignore)
        let answer10 = loan.begin(Self.scene())
        #expect(!answer10, "declined: not again this drag")
        let answer11 = loan.end()
        #expect(answer11 == nil)
        let answer12 = loan.begin(Self.scene())
        #expect(answer12, "the next drag asks again")
        _ = loan.answered(lent: true, dragging: true, scene: Self.scene())
        loan.couldNotUse()
        let answer13 = loan.begin(Self.scene())
        #expect(!answer13, "parts the server could not use count as declined")
    }

    @Test func aTrackWithAFieldOrABusyThumbIsNotLent() {
        var loan = Loan()
        let answer14 = loan.begin(Self.scene(field: true))
        #expect(!answer14)
        let answer15 = loan.begin(Self.scene(busy: true))
        #expect(!answer15)
    }

    @Test func anAnswerNobodyAskedForWhileDrawingIsIgnored() {
        var loan = Loan()
        _ = loan.begin(Self.scene())
        loan.drawing(1, look: Loan.look(Self.scene()), check: nil)
        let answer16 = loan.answered(lent: true, dragging: true, scene: Self.scene())
        #expect(answer16 == .ignore)
        #expect(loan.slider == 1)
    }

    /// While the guard draws, the track's own changes are looked at when they may come: a
    /// countdown that ticks on to the same look keeps the loan, a different look ends it.
    @Test func theTracksOwnChangesAreCheckedWhenDue() {
        var loan = Loan()
        let look = Loan.look(Self.scene())
        _ = loan.begin(Self.scene())
        loan.drawing(1, look: look, check: 5)
        let answer17 = loan.check(at: 4, scene: Self.scene(), next: { 6 })
        #expect(answer17 == .wait(until: 5))
        let answer18 = loan.check(at: 5, scene: Self.scene(thumb: 0.9), next: { 6 })
        #expect(answer18 == .wait(until: 6), "the same look a moment on")
        let answer19 = loan.check(at: 6, scene: Self.scene(label: "3 s"), next: { 7 })
        #expect(answer19 == .giveBack)
        let answer20 = loan.giveBack()
        #expect(answer20?.slider == 1)
        let answer21 = loan.giveBack()
        #expect(answer21 == nil)
    }

    @Test func aLoanDroppedWithItsUIEndsWithNothingToTell() {
        var loan = Loan()
        _ = loan.begin(Self.scene())
        loan.drawing(1, look: Loan.look(Self.scene()), check: nil)
        loan.drop()
        let answer22 = loan.end()
        #expect(answer22 == nil && loan.slider == nil)
    }
}
