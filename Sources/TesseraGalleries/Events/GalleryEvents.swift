import Foundation
import Metrics
import Synchronization

/// What a gallery's event stream receives: a change made by this server, or word that the gallery's
/// revision moved on without one (another process, the CLI, changed it), a keep-alive tick, or word that
/// who may read it changed (a member removed, an account handed over). `GalleryEventStream` turns these into
/// the events a client sees, and re-checks the watcher's access on the last two.
enum GalleryStreamMessage: Sendable {
    case change(GalleryChange)
    case changedElsewhere(revision: Int)
    case heartbeat
    case accessChanged
}

/// Fans every gallery change out to the event streams watching that gallery.
///
/// `publish` is called on the database writer's queue right after each commit, or by a `GalleryEventFeed`
/// (several servers on one database), so streams see changes in commit order. While anyone watches, a poller
/// compares the watched galleries' revisions with the last one published twice a second, so changes made by
/// another process reach the streams too (within a second: a revision must stay unannounced over two polls to
/// count as made elsewhere).
///
/// It also keeps the last `recentLimit` to twice that many changes of every gallery, so a client that
/// reconnects with `Last-Event-ID` (a stream dropped for not reading, a network blip) is sent what it
/// missed, one event each, rather than a snapshot of the whole gallery.
final class GalleryEvents: Sendable {
    private struct State {
        var subscribers: [GalleryID: [UUID: AsyncStream<GalleryStreamMessage>.Continuation]] = [:]
        /// The latest changes of all galleries, oldest first.
        var recent: [(GalleryID, GalleryChange)] = []
        var lastRevision: [GalleryID: Int] = [:]
        /// Revisions a poll read that no event had announced yet, checked again at the next poll.
        var unpublished: [GalleryID: Int] = [:]
        var poller: Task<Void, Never>?
    }

    private let state = Mutex(State())
    private let revisions: @Sendable ([GalleryID]) async -> [GalleryID: Int]
    private let interval: Duration
    private let heartbeatEvery: Int
    private let recentLimit: Int
    /// Event streams open now, for metrics.
    private let subscribers: Meter

    /// - Parameter revisions: reads the current revisions of galleries (`GalleryStoring.revisions(of:)`).
    /// - Parameter heartbeatEvery: polls between two heartbeats, sent to every stream whatever else happened
    ///   (streams re-check access on each, so this bounds how long a lost access goes unnoticed).
    /// - Parameter recentLimit: changes kept for clients that reconnect; each is small (an added item's
    ///   JSON at most), so the default holds a few megabytes at worst. 0 with a `GalleryEventFeed`, which
    ///   keeps them in the database instead.
    init(
        interval: Duration = .milliseconds(500), heartbeatEvery: Int = 30, recentLimit: Int = 2048,
        subscribers: Meter = Meter(label: "gallery_event_subscribers", factory: NOOPMetricsHandler.instance),
        revisions: @escaping @Sendable ([GalleryID]) async -> [GalleryID: Int]
    ) {
        self.subscribers = subscribers
        self.revisions = revisions
        self.interval = interval
        self.heartbeatEvery = heartbeatEvery
        self.recentLimit = recentLimit
    }

    /// A stream of what happens to gallery `id` from now on, which ends when the caller stops iterating;
    /// and the gallery's changes after revision `since` that were published before it, oldest first (the
    /// two never overlap nor leave a change out: both are taken under the lock `publish` takes).
    func subscribe(_ id: GalleryID, knownRevision: Int, since: Int? = nil)
        -> (messages: AsyncStream<GalleryStreamMessage>, missed: [GalleryChange])
    {
        let key = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: GalleryStreamMessage.self)
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id, key) }
        let (startPoller, missed) = state.withLock { state in
            state.subscribers[id, default: [:]][key] = continuation
            state.lastRevision[id] = max(state.lastRevision[id] ?? 0, knownRevision)
            let missed = since.map { since in
                state.recent.compactMap { gallery, change in
                    gallery == id && (change.revision ?? 0) > since ? change : nil
                }
            }
            return (state.poller == nil, missed ?? [])
        }
        subscribers.increment()
        if startPoller { startPolling() }
        return (stream, missed)
    }

    func publish(_ id: GalleryID, _ change: GalleryChange) {
        let continuations = state.withLock { state in
            if let revision = change.revision {
                state.lastRevision[id] = max(state.lastRevision[id] ?? 0, revision)
                if let seen = state.unpublished[id], seen <= revision { state.unpublished[id] = nil }
                // None kept when a feed remembers them (`recentLimit` 0). Trimmed by half at a time, so a
                // publish costs no copy of the whole list.
                if recentLimit > 0 { state.recent.append((id, change)) }
                if recentLimit > 0 && state.recent.count >= 2 * recentLimit { state.recent.removeFirst(recentLimit) }
            }
            return Array(state.subscribers[id, default: [:]].values)
        }
        for continuation in continuations {
            continuation.yield(.change(change))
            if case .gone = change { continuation.finish() }
        }
    }

    /// Tells the streams watching gallery `id` (every stream, for `nil`) that who may read it changed, after
    /// any change published before: each re-checks its watcher's access before telling anything more.
    func accessChanged(of id: GalleryID?) {
        let continuations = state.withLock { state in
            id.map { Array(state.subscribers[$0, default: [:]].values) }
                ?? state.subscribers.values.flatMap(\.values)
        }
        for continuation in continuations { continuation.yield(.accessChanged) }
    }

    private func unsubscribe(_ id: GalleryID, _ key: UUID) {
        subscribers.decrement()
        state.withLock { state in
            state.subscribers[id]?[key] = nil
            if state.subscribers[id]?.isEmpty == true {
                state.subscribers[id] = nil
                state.lastRevision[id] = nil
                state.unpublished[id] = nil
            }
            if state.subscribers.isEmpty {
                state.poller?.cancel()
                state.poller = nil
            }
        }
    }

    private func startPolling() {
        let task = Task { [weak self, interval, heartbeatEvery] in
            var tick = 0
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self, !Task.isCancelled else { return }
                tick += 1
                await self.poll(heartbeat: tick % heartbeatEvery == 0)
            }
        }
        state.withLock { state in
            if state.poller == nil && !state.subscribers.isEmpty {
                state.poller = task
            } else {
                task.cancel()
            }
        }
    }

    private func poll(heartbeat: Bool) async {
        let watched = state.withLock { Array($0.subscribers.keys) }
        guard !watched.isEmpty else { return }
        let current = await revisions(watched)
        let messages = state.withLock { state in
            var messages: [(AsyncStream<GalleryStreamMessage>.Continuation, GalleryStreamMessage)] = []
            for id in watched {
                let subscribers = state.subscribers[id, default: [:]].values
                if let revision = current[id], revision > state.lastRevision[id] ?? 0 {
                    // A commit of this server is readable a moment before its event is published: only a
                    // revision still unpublished at the next poll was made elsewhere.
                    if let seen = state.unpublished[id], seen <= revision {
                        state.lastRevision[id] = revision
                        state.unpublished[id] = nil
                        messages += subscribers.map { ($0, .changedElsewhere(revision: revision)) }
                    } else {
                        state.unpublished[id] = revision
                    }
                } else if current[id] == nil {
                    messages += subscribers.map { ($0, .change(.gone)) }
                    continue
                }
                // Even while the gallery changes: each heartbeat is an access check (`GalleryEventStream`).
                if heartbeat { messages += subscribers.map { ($0, .heartbeat) } }
            }
            return messages
        }
        for (continuation, message) in messages {
            continuation.yield(message)
            if case .change(.gone) = message { continuation.finish() }
        }
    }
}
