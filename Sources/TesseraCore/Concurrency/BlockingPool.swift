import Foundation

/// Threads of its own for blocking calls, at most `size` jobs at once, in arrival order: the one way Tessera
/// runs blocking work (libvips, file reads and writes, folder walks, `getaddrinfo`).
///
/// Why a pool of our own: on Linux Swift's cooperative pool is as wide as the CPU count (two threads on a
/// small server) and event loops must never block, so a blocking call made from a task holds one of very few
/// threads. Each part that blocks owns a pool sized for its work, built where the part is built and stopped
/// when it goes: the image processor (libvips, one per core), the disk image cache, the image proxy's
/// local files, the fetcher's DNS lookups, an indexing run. So one kind of work (a hung lookup, a slow
/// disk) never starves another, the bound is explicit, nothing is global, and Core needs no NIO (this
/// replaces `NIOThreadPool.singleton`, Dispatch queues and the imaging module's own pool).
///
/// The threads end once the pool is released (or `shutdown()`), after finishing what is queued.
public final class BlockingPool: Sendable {
    public let size: Int
    private let state: State

    /// - Parameters:
    ///   - name: the threads' name prefix; with the index, at most 15 bytes (Linux's limit).
    ///   - stackSize: libvips recurses through its pipeline: the default gives it what a main thread has.
    ///   - niceness: the threads' nice value (Linux sets it per thread); 19 for work nobody waits for, such as
    ///     the disk cache's writes, so it takes only CPU that answering requests leaves.
    ///   - onThreadExit: runs on each thread as it ends (libvips frees its per-thread buffers there).
    public init(
        size: Int, name: String, stackSize: Int = 8 << 20, niceness: Int32 = 0,
        onThreadExit: @escaping @Sendable () -> Void = {}
    ) {
        precondition(size > 0, "a pool needs at least one thread")
        self.size = size
        let state = State()
        self.state = state
        for index in 0..<size {
            // The thread holds the state, never the pool, so releasing the pool stops it.
            let thread = Thread {
                state.started()
                // Named from inside: on Linux a thread starts with its creator's name, whatever was set before.
                Thread.current.name = "\(name)-\(index)"
                // `who` 0 with PRIO_PROCESS is the calling thread on Linux.
                if niceness != 0 { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness) }
                state.work()
                onThreadExit()
            }
            thread.stackSize = stackSize
            thread.start()
        }
    }

    deinit {
        state.stop()
    }

    /// Lets the threads finish the queued jobs, then end. Jobs submitted afterwards are dropped.
    public func shutdown() {
        state.stop()
    }

    /// Runs `body` on one of the pool's threads and returns its result, without blocking the calling task.
    ///
    /// `nil` when the calling task is cancelled before a thread takes the job: it is dropped without running.
    /// With `abandonOnCancel` (for calls that may hang, like a DNS lookup), also `nil` at once when the task
    /// is cancelled while the job runs: the job finishes on its thread and its result is dropped.
    public func run<T: Sendable, E: Error>(
        abandonOnCancel: Bool = false, _ body: @escaping @Sendable () throws(E) -> T
    ) async throws(E) -> T? {
        let ticket = Ticket(abandonOnCancel: abandonOnCancel)
        let state = state
        let outcome: Result<T, E>? = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, E>?, Never>) in
                ticket.job = {
                    let result = Result { () throws(E) -> T in try body() }
                    if state.claim(ticket) { continuation.resume(returning: result) }
                }
                ticket.drop = { continuation.resume(returning: nil) }
                state.enqueue(ticket)
            }
        } onCancel: {
            state.cancel(ticket)
        }
        return try outcome?.get()
    }

    /// The most jobs that ever ran at once, for checking the bound.
    public var peakRunning: Int { state.peakRunning }

    /// The pool's own threads, for tests that check where work ran.
    var threads: Set<pthread_t> { state.threads }
}

// MARK: - Queue

extension BlockingPool {
    /// One job's place in the queue. `phase` and `delivered` are guarded by the pool's lock; `job` and `drop`
    /// are set once, before the ticket is queued.
    fileprivate final class Ticket: @unchecked Sendable {
        enum Phase { case new, queued, taken, cancelled }
        var phase = Phase.new
        /// Whether the caller has had its answer (the result, or `nil`): whoever sets it answers.
        var delivered = false
        let abandonOnCancel: Bool
        /// Runs the job and answers with its result, unless the caller has had its answer already.
        var job: (@Sendable () -> Void)?
        /// Answers `nil`; called at most once, by whoever set `delivered`.
        var drop: (@Sendable () -> Void)?

        init(abandonOnCancel: Bool) {
            self.abandonOnCancel = abandonOnCancel
        }

        /// Lets go of both closures (under the pool's lock) and returns `drop`. A finished ticket can stay in
        /// the queue's consumed front for a while; its closures must not keep what the job captured alive (a
        /// job capturing its own pool would otherwise keep the pool, and its threads, for good).
        func release() -> (@Sendable () -> Void)? {
            let drop = drop
            job = nil
            self.drop = nil
            return drop
        }
    }

    /// The queue and its threads' bookkeeping, behind one lock.
    fileprivate final class State: @unchecked Sendable {
        private let condition = NSCondition()
        private var queue: [Ticket] = []
        private var head = 0
        private var running = 0
        private var stopping = false
        private var _peakRunning = 0
        private var _threads = Set<pthread_t>()

        var peakRunning: Int { condition.withLock { _peakRunning } }
        var threads: Set<pthread_t> { condition.withLock { _threads } }

        func started() {
            condition.withLock { _ = _threads.insert(pthread_self()) }
        }

        func stop() {
            condition.withLock {
                stopping = true
                condition.broadcast()
            }
        }

        func enqueue(_ ticket: Ticket) {
            let drop: (@Sendable () -> Void)? = condition.withLock {
                if ticket.phase == .cancelled || stopping {
                    ticket.delivered = true
                    return ticket.release()
                }
                ticket.phase = .queued
                queue.append(ticket)
                condition.signal()
                return nil
            }
            drop?()
        }

        func cancel(_ ticket: Ticket) {
            let drop: (@Sendable () -> Void)? = condition.withLock {
                switch ticket.phase {
                case .new:
                    // `enqueue` has not run yet: it will see this and answer `nil`.
                    ticket.phase = .cancelled
                    return nil
                case .queued:
                    ticket.phase = .cancelled
                    if let index = queue[head...].firstIndex(where: { $0 === ticket }) { queue.remove(at: index) }
                    ticket.delivered = true
                    return ticket.release()
                case .taken where ticket.abandonOnCancel && !ticket.delivered:
                    ticket.delivered = true
                    // The running job keeps its own reference; only the answer is given here.
                    return ticket.drop
                case .taken, .cancelled:
                    return nil
                }
            }
            drop?()
        }

        /// True once per ticket: the caller of the first to ask answers it.
        func claim(_ ticket: Ticket) -> Bool {
            condition.withLock {
                if ticket.delivered { return false }
                ticket.delivered = true
                return true
            }
        }

        func work() {
            while let ticket = next() {
                ticket.job?()
                condition.withLock {
                    running -= 1
                    _ = ticket.release()
                }
            }
        }

        /// The next job, waiting for one; `nil` once the pool is stopping and the queue is empty.
        private func next() -> Ticket? {
            condition.withLock {
                while head == queue.count {
                    if stopping { return nil }
                    condition.wait()
                }
                let ticket = queue[head]
                head += 1
                // Drop the consumed front once it is half the array, so appends stay amortised O(1).
                if head > 64 && head * 2 > queue.count {
                    queue.removeFirst(head)
                    head = 0
                }
                ticket.phase = .taken
                running += 1
                _peakRunning = max(_peakRunning, running)
                return ticket
            }
        }
    }
}
