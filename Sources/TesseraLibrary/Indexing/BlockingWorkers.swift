import Dispatch

/// Threads of their own for blocking calls (libvips decoding, file reads), one serial queue per slot.
///
/// On Linux Swift's cooperative pool is as wide as the CPU count (two threads here), so a blocking call made
/// from a task holds one of very few threads. Serial dispatch queues get threads outside that pool.
final class BlockingWorkers: Sendable {
    private let queues: [DispatchQueue]

    init(count: Int, label: String) {
        queues = (0..<max(1, count)).map { DispatchQueue(label: "\(label).\($0)") }
    }

    var count: Int { queues.count }

    /// Runs `work` on slot `slot`'s thread and returns its result, without blocking the calling task.
    func run<T: Sendable>(slot: Int, _ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queues[slot % queues.count].async { continuation.resume(returning: work()) }
        }
    }
}
