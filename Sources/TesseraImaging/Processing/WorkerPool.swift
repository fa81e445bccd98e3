import CVips
import Foundation

/// A fixed set of threads that run blocking work, at most `size` jobs at once, in arrival order.
///
/// libvips blocks the thread it runs on, so it must not run on Swift's cooperative pool (a few threads shared
/// by every task) or on an event loop. Callers `await`; a job still waiting when its task is cancelled is
/// dropped without running.
final class WorkerPool: @unchecked Sendable {
    let size: Int
    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var queue: [Ticket] = []
    private var head = 0
    private var running = 0
    private var stopping = false
    /// The most jobs that ever ran at once, for tests that check the bound.
    var peakRunning: Int { condition.withLock { _peakRunning } }
    private var _peakRunning = 0
    /// The pool's own threads, for tests that check where work ran.
    var threads: Set<pthread_t> { condition.withLock { _threads } }
    private var _threads = Set<pthread_t>()

    /// - Parameter name: the threads' name prefix; with the index, at most 15 bytes (Linux's limit).
    init(size: Int, name: String) {
        precondition(size > 0, "a pool needs at least one thread")
        self.size = size
        for index in 0..<size {
            let thread = Thread { [self] in
                condition.withLock { _ = _threads.insert(pthread_self()) }
                // Named from inside: on Linux a thread starts with its creator's name, whatever was set before.
                Thread.current.name = "\(name)-\(index)"
                work()
            }
            // libvips recurses through its pipeline: give it the 8 MB a main thread has.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Lets the threads finish the queued jobs, then end.
    func shutdown() {
        condition.withLock {
            stopping = true
            condition.broadcast()
        }
    }

    /// Runs `body` on one of the pool's threads and returns its result; `.failed` when the task was
    /// cancelled before a thread took the job.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws(ImagingError) -> T) async throws(ImagingError) -> T {
        let ticket = Ticket()
        let result: Result<T, ImagingError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                ticket.job = { cancelled in
                    if cancelled {
                        continuation.resume(returning: .failure(.failed("cancelled before it started")))
                    } else {
                        continuation.resume(returning: Result { () throws(ImagingError) in try body() })
                    }
                }
                enqueue(ticket)
            }
        } onCancel: {
            cancel(ticket)
        }
        return try result.get()
    }

    // MARK: - Queue

    /// One job's place in the queue. Its fields are guarded by the pool's `condition`.
    private final class Ticket: @unchecked Sendable {
        enum Phase { case new, queued, taken, cancelled }
        var phase = Phase.new
        /// Runs the job (`false`) or reports it cancelled (`true`); called exactly once, outside the lock.
        var job: (@Sendable (_ cancelled: Bool) -> Void)?
    }

    private func enqueue(_ ticket: Ticket) {
        let cancelledAlready = condition.withLock {
            if ticket.phase == .cancelled { return true }
            ticket.phase = .queued
            queue.append(ticket)
            condition.signal()
            return false
        }
        if cancelledAlready { ticket.job?(true) }
    }

    private func cancel(_ ticket: Ticket) {
        let dropped = condition.withLock {
            switch ticket.phase {
            case .new:
                // `enqueue` has not run yet: it will see this and report the cancellation.
                ticket.phase = .cancelled
                return false
            case .queued:
                ticket.phase = .cancelled
                if let index = queue[head...].firstIndex(where: { $0 === ticket }) { queue.remove(at: index) }
                return true
            case .taken, .cancelled:
                return false
            }
        }
        if dropped { ticket.job?(true) }
    }

    private func work() {
        while let ticket = next() {
            ticket.job?(false)
            condition.withLock { running -= 1 }
        }
        // libvips keeps per-thread buffers: free them before the thread ends.
        vips_thread_shutdown()
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
