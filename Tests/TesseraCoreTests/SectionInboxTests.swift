import Testing

@testable import TesseraCore

/// A search's sections are each settled once, by their source or by the time limit, whichever is first, and
/// taken in the order they settled.
@Suite("Section inbox")
struct SectionInboxTests {
    private func result(_ section: SectionID, _ title: String) -> SectionResult {
        SectionResult(
            id: section, items: [Item(id: ItemID(source: section.source, nativeID: title), kind: .image, title: title)],
            total: 1, hasMore: false)
    }

    @Test func eachSectionIsSettledOnceAndTakenInTheOrderItSettled() async {
        let inbox = SectionInbox(count: 3)
        #expect(inbox.settle(2, result(.openverse, "first")))
        #expect(inbox.settle(0, result(.pixabay, "second")))
        #expect(!inbox.settle(2, result(.openverse, "again")), "a section settles once")
        #expect(inbox.isSettled(0) && inbox.isSettled(2) && !inbox.isSettled(1))
        #expect(await inbox.next()?.items.first?.title == "first")
        #expect(await inbox.next()?.items.first?.title == "second")
        // The time limit: every section still running gets its stand-in, and a late answer is refused.
        let expired = inbox.settleRest { _ in .failed(.flickr, .timeout(.flickr, seconds: 8)) }
        #expect(expired == [1])
        #expect(!inbox.settle(1, result(.flickr, "late")))
        #expect(await inbox.next()?.error?.code == "timeout")
        #expect(await inbox.next() == nil, "every section taken")
    }

    @Test(.timeLimit(.minutes(1))) func aWaitingCallerIsWokenByASettlingSectionOrByTheLimit() async {
        let inbox = SectionInbox(count: 2)
        async let first = inbox.next()
        try? await Task.sleep(for: .milliseconds(50))
        #expect(inbox.settle(1, result(.flickr, "answer")))
        #expect(await first?.items.first?.title == "answer")
        async let second = inbox.next()
        try? await Task.sleep(for: .milliseconds(50))
        #expect(inbox.settleRest { _ in .failed(.pixabay, .timeout(.pixabay, seconds: 8)) } == [0])
        #expect(await second?.id == .pixabay)
        #expect(await inbox.next() == nil)
    }
}
