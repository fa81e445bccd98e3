import CVips
import TesseraCore

extension BlockingPool {
    /// A pool whose threads may run libvips, which blocks the thread it runs on: each thread frees libvips'
    /// per-thread buffers as it ends.
    public static func imaging(size: Int, name: String) -> BlockingPool {
        BlockingPool(size: size, name: name, onThreadExit: { vips_thread_shutdown() })
    }

    /// Runs libvips work on the pool; `.failed` when the task was cancelled before a thread took it.
    func runImaging<T: Sendable>(
        _ body: @escaping @Sendable () throws(ImagingError) -> T
    ) async throws(ImagingError) -> T {
        guard let result = try await run(body) else { throw .failed("cancelled before it started") }
        return result
    }
}
