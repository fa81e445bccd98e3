import Synchronization

/// Runs a search over one section or fans out over every enabled source at once.
///
/// Each section runs in its own child task with its own time limit, so a slow or failing source
/// costs only its own section. Results keep the fixed section order however they arrive.
public struct SearchService: Sendable {
    private let sources: [SourceID: any MediaSource]
    private let timeout: Duration
    private let seen: SeenItems
    private let recentItems: RecentItems
    private let observer: any SourceCallObserving
    private let latencies = SourceLatencies()

    /// - Parameter observer: told of every call to a source and how it ended (metrics).
    public init(
        sources: [any MediaSource], timeout: Duration = .seconds(8),
        observer: any SourceCallObserving = NoSourceCallObserver()
    ) {
        self.sources = Dictionary(sources.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.timeout = timeout
        self.observer = observer
        self.seen = SeenItems()
        self.recentItems = RecentItems()
    }

    /// Every registered source, in display order.
    public var descriptors: [SourceDescriptor] {
        sources.values.sorted { $0.id < $1.id }.map(SourceDescriptor.init)
    }

    /// The sections a request covers, in display order.
    public func sections(for scope: Scope) -> [SectionID] {
        switch scope {
        case .section(let section):
            return [section]
        case .all:
            return SectionID.allCases.filter { sources[$0.source]?.availability.isEnabled == true }
        }
    }

    /// The whole answer at once, sections in display order. In `all`, empty sections are left out.
    public func search(_ request: SearchRequest) async -> SearchResponse {
        var results: [SectionResult] = []
        await sections(request) { results.append($0) }
        results.sort { $0.id < $1.id }
        return SearchResponse(
            query: request.query, scope: request.scope.rawValue, page: request.page, sections: results)
    }

    /// Each section as soon as its source answers (or fails); the stream ends when all have.
    /// In `all`, sections with no items and no error are not sent.
    public func stream(_ request: SearchRequest) -> AsyncStream<SectionResult> {
        AsyncStream { continuation in
            let task = Task {
                await self.sections(request) { continuation.yield($0) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// `stream`'s sections handed to `body` in the caller's own task, one at a time, as each source ends: no
    /// stream between them, whose hop the slowest section would wait for (`/api/search`).
    ///
    /// Each section runs in a task of its own. The sections share one time limit and one timer: at the limit,
    /// or when the caller is cancelled, every section still running is a timeout at once and its task is
    /// cancelled without being waited for (some work, a TCP connect stuck in the kernel inside an HTTP client,
    /// only notices at its own, later timeout; a task group would wait for it).
    public func sections(_ request: SearchRequest, _ body: (SectionResult) async -> Void) async {
        let sections = sections(for: request.scope)
        let dropsEmpty = request.scope == .all
        let inbox = SectionInbox(count: sections.count)
        let started = ContinuousClock.now
        // The slowest sources' requests go out first: eight tasks start on two cores, and the last one's
        // request left ~0.1 ms after the first's, on the answer's path when it was the slowest source's.
        var spawned: [Task<Void, Never>?] = Array(repeating: nil, count: sections.count)
        for index in latencies.slowestFirst(sections.map(\.source)) {
            spawned[index] = Task { await self.run(request, in: sections[index], into: inbox, at: index) }
        }
        let tasks = spawned.compactMap { $0 }
        let expire = { @Sendable in
            for index in inbox.settleRest({ self.timedOut(request, in: sections[$0]) }) {
                tasks[index].cancel()
                let failure = SourceError.timeout(sections[index].source, seconds: self.timeout.seconds)
                self.observer.sourceCall(sections[index].source, took: ContinuousClock.now - started, failure: failure)
            }
        }
        // One timer per search: on Linux a sleeping task's timer stays armed in Dispatch until its time comes,
        // even once cancelled, and a timer per section took a busy server's CPU (see `withDeadline`).
        let timer = Task {
            try? await Task.sleep(until: started + timeout, clock: .continuous)
            if !Task.isCancelled { expire() }
        }
        defer { timer.cancel() }
        await withTaskCancellationHandler {
            while let result = await inbox.next() {
                if dropsEmpty && result.items.isEmpty && result.error == nil { continue }
                await body(result)
            }
        } onCancel: {
            expire()
        }
    }

    /// One item: from the recent results when it was just shown, else from its source.
    public func item(_ id: ItemID) async throws(SourceError) -> Item {
        if let item = recentItems.get(id) { return item }
        guard let source = sources[id.source] else {
            throw .disabled(id.source, reason: "this source is not available in this build")
        }
        if case .disabled(let reason) = source.availability { throw .disabled(id.source, reason: reason) }
        let started = ContinuousClock.now
        let item: Item
        do {
            item = try await withTimeout(source.id) { try await source.item(nativeID: id.nativeID) }
        } catch {
            observer.sourceCall(source.id, took: ContinuousClock.now - started, failure: error)
            throw error
        }
        observer.sourceCall(source.id, took: ContinuousClock.now - started, failure: nil)
        recentItems.put([item])
        return item
    }

    /// Runs one section and settles it as `index` in `inbox`. Once the search's time limit has settled it, a
    /// late answer is dropped: its items are not remembered as seen, its call is not reported twice.
    private func run(_ request: SearchRequest, in section: SectionID, into inbox: SectionInbox, at index: Int) async {
        let settle = { inbox.settle(index, $0) }
        guard let source = sources[section.source] else {
            _ = settle(
                .failed(section, .disabled(section.source, reason: "this source is not available in this build")))
            return
        }
        if case .disabled(let reason) = source.availability {
            _ = settle(.failed(section, .disabled(source.id, reason: reason)))
            return
        }
        let report = request.filters.isEmpty ? nil : FilterReport(request.filters, source: source, section: section)
        if let report, !report.unsupported.isEmpty {
            var result = SectionResult(
                id: section, items: [], total: nil, hasMore: false, error: report.unsupportedError(section))
            result.filters = report
            _ = settle(result)
            return
        }
        let recorder = SourceTiming.Recorder()
        let started = ContinuousClock.now
        do {
            let page = try await SourceTiming.$recorder.withValue(recorder) {
                guard let report else { return try await source.search(request.query, in: section, page: request.page) }
                return try await self.filteredPage(source, request, in: section, report: report)
            }
            let took = ContinuousClock.now - started
            latencies.record(source.id, took)
            guard !inbox.isSettled(index) else { return }
            // A filtered search pages differently: its items are remembered apart from the unfiltered ones.
            let key = ([request.query] + request.filters.queryItems.map { "\($0.name)=\($0.value)" })
                .joined(separator: "\u{1}")
            let items = seen.filter(page.items, section: section, query: key, page: request.page)
            var result = SectionResult(id: section, items: items, total: page.total, hasMore: page.hasMore)
            result.filters = report
            result.sourceTime = recorder.elapsed
            guard settle(result) else { return }
            // Behind the answer: opening an item not put yet only asks its source again.
            recentItems.put(items)
            observer.sourceCall(source.id, took: took, failure: nil)
        } catch {
            let failure = Self.sourceError(error, source.id, timeout: timeout)
            var result = SectionResult.failed(section, failure)
            result.filters = report
            result.sourceTime = recorder.elapsed
            if settle(result) { observer.sourceCall(source.id, took: ContinuousClock.now - started, failure: failure) }
        }
    }

    /// A section the search's time limit (or its cancellation) ended before its source did.
    private func timedOut(_ request: SearchRequest, in section: SectionID) -> SectionResult {
        var result = SectionResult.failed(section, .timeout(section.source, seconds: timeout.seconds))
        if !request.filters.isEmpty, let source = sources[section.source] {
            result.filters = FilterReport(request.filters, source: source, section: section)
        }
        return result
    }

    /// What a source's call threw, as the section's (or the item's) error: sources throw `SourceError`; a
    /// cancelled call is a timeout (the time limit cancels it).
    private static func sourceError(_ error: any Error, _ source: SourceID, timeout: Duration) -> SourceError {
        if let error = error as? SourceError { return error }
        if error is CancellationError { return .timeout(source, seconds: timeout.seconds) }
        return .badResponse(source, detail: String(describing: error))
    }

    /// Runs `operation`, giving up with `.timeout` once this service's limit has passed.
    private func withTimeout<T: Sendable>(
        _ source: SourceID, _ operation: @escaping @Sendable () async throws -> T
    ) async throws(SourceError) -> T {
        let limit = timeout
        let timedOut = { @Sendable in SourceError.timeout(source, seconds: limit.seconds) as any Error }
        do {
            return try await withDeadline(.now + limit, timedOut: timedOut, operation)
        } catch {
            throw Self.sourceError(error, source, timeout: limit)
        }
    }
}

/// Items from recent searches, so opening one does not ask its source again. Bounded, oldest out first. A
/// lock rather than an actor, as `SeenItems`: every section puts its items on the answer's path.
final class RecentItems: Sendable {
    private struct State {
        var items: [ItemID: Item] = [:]
        /// Oldest first from `oldest`; the ones before it are gone, dropped from the array in batches.
        var order: [ItemID] = []
        var oldest = 0
    }

    private let state = Mutex(State())
    private let capacity: Int

    init(capacity: Int = 5_000) {
        self.capacity = capacity
    }

    func get(_ id: ItemID) -> Item? { state.withLock { $0.items[id] } }

    func put(_ newItems: [Item]) {
        state.withLock { state in
            for item in newItems {
                if state.items.updateValue(item, forKey: item.id) == nil { state.order.append(item.id) }
            }
            while state.order.count - state.oldest > capacity {
                state.items[state.order[state.oldest]] = nil
                state.oldest += 1
            }
            if state.oldest >= capacity {
                state.order.removeFirst(state.oldest)
                state.oldest = 0
            }
        }
    }
}

/// How long each source's searches have taken lately (a moving average), to start the slowest first.
final class SourceLatencies: Sendable {
    private let averages = Mutex<[SourceID: Duration]>([:])

    func record(_ source: SourceID, _ took: Duration) {
        averages.withLock { averages in
            averages[source] = averages[source].map { ($0 * 7 + took) / 8 } ?? took
        }
    }

    /// The positions of `sources`, the slowest lately first; sources not timed yet keep their order, last.
    func slowestFirst(_ sources: [SourceID]) -> [Int] {
        let averages = averages.withLock { $0 }
        return sources.indices.sorted { a, b in
            let (first, second) = (averages[sources[a]] ?? .zero, averages[sources[b]] ?? .zero)
            return first != second ? first > second : a < b
        }
    }
}
