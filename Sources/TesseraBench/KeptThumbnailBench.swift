import ArgumentParser
import Foundation
import TesseraCore
import TesseraImageProcessing
import TesseraTestSupport

/// A browser's thumbnail (JPEG or WebP, hashed) of sources already no larger than a thumbnail: kept as they are
/// against rendered, the reference, in the same run (docs/thumbnails.md, "Sources kept as they are").
struct KeptThumbnailBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kept-thumbnails",
        abstract: "Thumbnails of sources that are thumbnails already: kept as they are against rendered.")

    @Option(help: "Thumbnails timed per row and round.")
    var count = 200

    @Option(help: "Rounds; each row keeps its best median.")
    var rounds = 3

    @Option(help: "A folder of JPEG/PNG photos to make the services' thumbnails from (default: Samples/ when present).")
    var samples: String?

    func run() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-kept-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let maker = ImageProcessor(concurrency: 2, keepsReadySources: false)
        // Photos of 1 to 12 MP, shrunk as a service shrinks them for its own thumbnails and pages.
        let photos = try BenchInputs.make(count: 12, into: root, from: BenchInputs.photos(in: samples ?? "Samples"))
        func shrunk(_ side: Int) async throws -> [Data] {
            var made: [Data] = []
            for photo in photos {
                made.append(try await maker.thumbnail(fileAt: photo.path, maxSide: side, allowWebP: false).data)
            }
            return made
        }
        let inputs: [(String, [Data])] = [
            ("64×64 PNG (the stand-ins')", (0..<count).map { Data(StandInImage.distinct(for: "/bench/\($0).png")) }),
            ("≤ 400 px JPEG (a service's thumbnail)", try await shrunk(400)),
            ("≤ 640 px JPEG (larger than the box)", try await shrunk(640)),
        ]
        let contenders = [
            ("rendered (reference)", ImageProcessor(concurrency: 1, keepsReadySources: false)),
            ("kept when ready", ImageProcessor(concurrency: 1)),
        ]
        say(
            "\(count) thumbnails a row, one at a time, 400 px box, JPEG or WebP (a browser's), hashed as the proxy does"
        )
        let table = TextTable([.left(40), .left(22), .right(8), .right(8), .right(12), .right(6)])
        let header = table.row(["source", "thumbnail", "p50 ms", "p99 ms", "CPU ms each", "kept"])
        say(header)
        say(String(repeating: "-", count: header.count))
        for (name, sources) in inputs {
            for (label, processor) in contenders {
                var best: Measured?
                for _ in 0..<rounds {
                    let measured = try await measure(processor, sources)
                    if best.map({ measured.p50 < $0.p50 }) ?? true { best = measured }
                }
                guard let best else { continue }
                say(
                    table.row([
                        name, label, String(format: "%.2f", best.p50), String(format: "%.2f", best.p99),
                        String(format: "%.2f", best.cpu), "\(best.kept)",
                    ]))
            }
        }
    }

    private struct Measured {
        var p50: Double
        var p99: Double
        var cpu: Double
        var kept: Int
    }

    /// `count` thumbnails of `sources` in turn (the same bytes again when there are fewer): the median and
    /// 99th percentile of their times, the process's CPU per thumbnail, and how many were the source itself.
    private func measure(_ processor: ImageProcessor, _ sources: [Data]) async throws -> Measured {
        var times: [Duration] = []
        var kept = 0
        let cpuBefore = clock()
        for index in 0..<count {
            let source = sources[index % sources.count]
            let started = ContinuousClock.now
            let thumbnail = try await processor.thumbnail(
                of: source, maxSide: 400, allowWebP: true, hashing: PerceptualHashing.chosen)
            times.append(ContinuousClock.now - started)
            if thumbnail.data.count <= source.count, thumbnail.data.suffix(64) == source.suffix(64) { kept += 1 }
        }
        let cpu = Double(clock() - cpuBefore) / Double(CLOCKS_PER_SEC) * 1000 / Double(count)
        return Measured(
            p50: percentile(times, 0.5).milliseconds, p99: percentile(times, 0.99).milliseconds, cpu: cpu, kept: kept)
    }
}
