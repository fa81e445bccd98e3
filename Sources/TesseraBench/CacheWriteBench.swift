import ArgumentParser
import Foundation
import TesseraCore
import TesseraImageProxy

/// What writing one thumbnail into the disk image cache costs (`DiskImageCache.write`: a temporary file renamed,
/// not flushed, its trailer checked on reading), beside the reference `AtomicFile.write` (flushed with `fsync`,
/// then renamed: how the cache wrote before, and how galleries' stored copies are still written). The CPU column
/// is the whole process's, so it counts the kernel's work for each file too (docs/images.md, "The disk cache
/// without fsync").
struct CacheWriteBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache-write", abstract: "Write thumbnails into the disk cache, beside flushed atomic writes.")

    @Option(help: "Files written by each way, alternating in runs of 100.")
    var files = 2_000

    @Option(help: "Bytes per file (a thumbnail is a few KB).")
    var bytes = 3_000

    func run() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-cache-bench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = try await DiskImageCache.open(
            directory: root.appendingPathComponent("cache"), capacityBytes: Int.max / 2)
        let flushed = root.appendingPathComponent("flushed")
        var ours = Sample()
        var reference = Sample()
        var written = 0
        while written < files {
            let run = min(100, files - written)
            for index in written..<(written + run) {
                let data = payload(index)
                await ours.time { await cache.write(data, for: "thumb|w|https://cdn.example/\(index).jpg") }
            }
            for index in written..<(written + run) {
                let data = payload(index)
                // The same sharding as the cache's: 256 folders by the name's first two hex digits.
                let name = String(format: "%02x/%08x", index % 256, index)
                await reference.time { try? AtomicFile.write(data, to: flushed.appendingPathComponent(name)) }
            }
            written += run
        }
        guard cache.count == files else { throw ValidationError("the cache kept \(cache.count) of \(files) files") }
        say("")
        say("A \(bytes)-byte thumbnail written to disk, \(files) files each way, alternating in runs of 100")
        let table = TextTable([.left(58), .right(8), .right(8), .right(14)])
        let header = table.row(["what", "p50 ms", "p99 ms", "CPU ms / file"])
        say(header)
        say(String(repeating: "-", count: header.count))
        for (name, sample) in [
            ("AtomicFile.write, fsync then rename (reference, before)", reference),
            ("DiskImageCache.write, renamed unflushed, with its trailer", ours),
        ] {
            say(
                table.row([
                    name, String(format: "%.3f", percentile(sample.walls, 0.5).milliseconds),
                    String(format: "%.3f", percentile(sample.walls, 0.99).milliseconds),
                    String(format: "%.3f", sample.cpu * 1_000 / Double(sample.walls.count)),
                ]))
        }
    }

    private func payload(_ index: Int) -> Data {
        Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) })
    }

    private struct Sample {
        var walls: [Duration] = []
        /// Process CPU seconds (user and system) spent inside `time`.
        var cpu = 0.0

        mutating func time(_ body: () async -> Void) async {
            let cpuBefore = Self.processCPU()
            let start = ContinuousClock.now
            await body()
            walls.append(ContinuousClock.now - start)
            cpu += Self.processCPU() - cpuBefore
        }

        static func processCPU() -> Double {
            var usage = rusage()
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
            let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
            return seconds(usage.ru_utime) + seconds(usage.ru_stime)
        }
    }
}
