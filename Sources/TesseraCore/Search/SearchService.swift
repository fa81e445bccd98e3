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
    public func sections(_ request: SearchRequest, _ body: (SectionResult) async -> Void) async {
        let sections = sections(for: request.scope)
        let dropsEmpty = request.scope == .all
        // The sections share one time limit and one timer (see `SharedDeadline`).
        let deadline = SharedDeadline(.now + timeout)
        defer { deadline.finish() }
        await withTaskGroup(of: SectionResult.self) { group in
            for section in sections {
                group.addTask { await self.run(request, in: section, deadline: deadline) }
            }
            for await result in group {
                if dropsEmpty && result.items.isEmpty && result.error == nil { continue }
                await body(result)
            }
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

    private func run(_ request: SearchRequest, in section: SectionID, deadline: SharedDeadline) async -> SectionResult {
        guard let source = sources[section.source] else {
            return .failed(section, .disabled(section.source, reason: "this source is not available in this build"))
        }
        if case .disabled(let reason) = source.availability {
            return .failed(section, .disabled(source.id, reason: reason))
        }
        let report = request.filters.isEmpty ? nil : FilterReport(request.filters, source: source, section: section)
        if let report, !report.unsupported.isEmpty {
            var result = SectionResult(
                id: section, items: [], total: nil, hasMore: false, error: report.unsupportedError(section))
            result.filters = report
            return result
        }
        let recorder = SourceTiming.Recorder()
        let started = ContinuousClock.now
        do {
            let page = try await SourceTiming.$recorder.withValue(recorder) {
                try await withTimeout(source.id, deadline: deadline) {
                    guard let report else {
                        return try await source.search(request.query, in: section, page: request.page)
                    }
                    return try await self.filteredPage(source, request, in: section, report: report)
                }
            }
            observer.sourceCall(source.id, took: ContinuousClock.now - started, failure: nil)
            // A filtered search pages differently: its items are remembered apart from the unfiltered ones.
            let key = ([request.query] + request.filters.queryItems.map { "\($0.name)=\($0.value)" })
                .joined(separator: "\u{1}")
            let items = seen.filter(page.items, section: section, query: key, page: request.page)
            recentItems.put(items)
            var result = SectionResult(id: section, items: items, total: page.total, hasMore: page.hasMore)
            result.filters = report
            result.sourceTime = recorder.elapsed
            return result
        } catch {
            // `withValue` forgets the typed throw; `withTimeout` only ever throws `SourceError`.
            let failure = error as? SourceError ?? .badResponse(source.id, detail: String(describing: error))
            observer.sourceCall(source.id, took: ContinuousClock.now - started, failure: failure)
            var result = SectionResult.failed(section, failure)
            result.filters = report
            result.sourceTime = recorder.elapsed
            return result
        }
    }

    /// Runs `operation`, giving up with `.timeout` once this service's limit (or `deadline`) has passed.
    private func withTimeout<T: Sendable>(
        _ source: SourceID, deadline: SharedDeadline? = nil, _ operation: @escaping @Sendable () async throws -> T
    ) async throws(SourceError) -> T {
        let limit = timeout
        let timedOut = { @Sendable in SourceError.timeout(source, seconds: limit.seconds) as any Error }
        do {
            if let deadline { return try await deadline.run(timedOut: timedOut, operation) }
            return try await withDeadline(.now + limit, timedOut: timedOut, operation)
        } catch let error as SourceError {
            throw error
        } catch is CancellationError {
            throw .timeout(source, seconds: limit.seconds)
        } catch {
            throw .badResponse(source, detail: String(describing: error))
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
