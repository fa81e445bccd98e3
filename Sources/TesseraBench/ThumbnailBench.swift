import ArgumentParser
import CVips
import Foundation
import TesseraCore
import TesseraImageProcessing

/// 400 px thumbnails of a folder of JPEGs: Tessera against `vipsthumbnail` and ImageMagick, same run.
struct ThumbnailBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnails",
        abstract: "Thumbnails of 1–12 MP JPEGs: ImageProcessor against vipsthumbnail and ImageMagick.")

    @Option(help: "How many JPEGs to make and shrink.")
    var count = 200

    @Option(help: "The thumbnail box's side, in pixels.")
    var size = 400

    @Option(help: "A folder of JPEG/PNG photos to build the inputs from (default: Samples/ when present).")
    var samples: String?

    @Option(help: "Rounds; each contender's best time is reported.")
    var rounds = 3

    @Option(help: "A folder of JPEGs to shrink as they are, instead of making inputs (e.g. one kept by --keep).")
    var inputs: String?

    @Flag(help: "Keep the temporary folder of inputs and outputs.")
    var keep = false

    func run() async throws {
        let processor = ImageProcessor()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-thumbnails-\(UUID())")
        defer { if !keep { try? FileManager.default.removeItem(at: root) } }
        let paths: [String]
        if let inputs {
            paths = BenchInputs.photos(in: inputs).filter { $0.lowercased().hasSuffix(".jpg") }
            say("\(paths.count) JPEGs from \(inputs)")
        } else {
            let input = root.appendingPathComponent("in")
            try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
            let sources = BenchInputs.photos(in: samples ?? "Samples")
            let started = ContinuousClock.now
            let files = try BenchInputs.make(count: count, into: input, from: sources)
            let pixels = files.map(\.pixels).reduce(0, +)
            say(
                "\(count) JPEGs, \(String(format: "%.1f", Double(pixels) / 1e6 / Double(count))) MP on average "
                    + "(1–12 MP, 7 aspect ratios), made from "
                    + (sources.isEmpty ? "synthetic gradients with noise" : "\(sources.count) photos")
                    + " in \(seconds(ContinuousClock.now - started)) s: \(input.path)")
            paths = files.map(\.path)
        }
        guard !paths.isEmpty else { throw ValidationError("no JPEGs to shrink") }

        // Warm up: libvips' start, the loaders, the page cache.
        for path in paths.prefix(3) { _ = try await processor.thumbnail(fileAt: path, maxSide: size, allowWebP: false) }

        // Each contender runs once per round, in a rotated order, and keeps its best time: on a shared
        // machine, load from elsewhere only ever slows a run down.
        let contenders: [(name: String, run: (URL) async throws -> Void)] = [
            (
                "Tessera, one at a time",
                { out in
                    for path in paths { try await write(processor, path, to: out) }
                }
            ),
            (
                "Tessera, \(processor.concurrency) at a time (default concurrency)",
                { out in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for path in paths { group.addTask { try await write(processor, path, to: out) } }
                        try await group.waitForAll()
                    }
                }
            ),
            // Same quality and options as ours, so both do the same work.
            (
                "vipsthumbnail -s \(size) (reference)",
                { out in
                    try await launch(
                        "/usr/bin/vipsthumbnail",
                        ["-s", "\(size)", "-o", "\(out.path)/%s.jpg[Q=\(processor.jpegQuality),optimize_coding,strip]"]
                            + paths)
                }
            ),
            // One process for the whole folder, so ImageMagick pays no start-up per image.
            (
                "ImageMagick mogrify -thumbnail \(size)x\(size)",
                { out in
                    try await launch("/usr/bin/mogrify", ["-path", out.path, "-thumbnail", "\(size)x\(size)"] + paths)
                }
            ),
        ]
        var best = [Duration](repeating: .seconds(1_000_000), count: contenders.count)
        for round in 0..<rounds {
            for step in 0..<contenders.count {
                let index = (round + step) % contenders.count
                let elapsed = try await timed(
                    root, "round\(round)-\(index)", expecting: paths.count, contenders[index].run)
                best[index] = min(best[index], elapsed)
            }
            say("round \(round + 1) of \(rounds) done")
        }
        let rows = zip(contenders.map(\.name), best).map { ($0, $1) }
        let (sequential, vips, magick) = (best[0], best[2], best[3])

        say("")
        let table = TextTable([.left(52), .right(8), .right(9), .right(7)])
        say(table.row(["what", "total s", "ms/image", "× vips"]))
        say(String(repeating: "-", count: 82))
        for (name, elapsed) in rows {
            say(
                table.row([
                    name, seconds(elapsed), String(format: "%.1f", elapsed.milliseconds / Double(paths.count)),
                    String(format: "%.2f", elapsed.milliseconds / vips.milliseconds),
                ]))
        }
        let oursRatio = sequential.milliseconds / vips.milliseconds
        let magickRatio = magick.milliseconds / sequential.milliseconds
        say("")
        say(
            "goal: ours (one at a time) ≤ 1.2× vipsthumbnail → \(oursRatio <= 1.2 ? "met" : "NOT met") "
                + "(\(String(format: "%.2f", oursRatio))×)")
        say(
            "goal: ImageMagick ≥ 4× our time → \(magickRatio >= 4 ? "met" : "NOT met") "
                + "(\(String(format: "%.1f", magickRatio))×)")
        if keep { say("kept \(root.path)") }
    }

    private func write(_ processor: ImageProcessor, _ path: String, to folder: URL) async throws {
        let thumbnail = try await processor.thumbnail(fileAt: path, maxSide: size, allowWebP: false)
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent + ".jpg"
        try thumbnail.data.write(to: folder.appendingPathComponent(name))
    }

    /// Runs `body` with a new output folder, checks it holds one thumbnail per input, and returns the time.
    private func timed(
        _ root: URL, _ name: String, expecting count: Int, _ body: (URL) async throws -> Void
    ) async throws -> Duration {
        let out = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let started = ContinuousClock.now
        try await body(out)
        let elapsed = ContinuousClock.now - started
        let made = try FileManager.default.contentsOfDirectory(atPath: out.path).count
        guard made == count else { throw ValidationError("\(name) made \(made) thumbnails of \(count)") }
        return elapsed
    }

    /// Runs a program and waits for it; its output is discarded, a failure is an error.
    private func launch(_ program: String, _ arguments: [String]) async throws {
        let status = try await runProgram(program, arguments)
        guard status == 0 else { throw ValidationError("\(program) exited with status \(status)") }
    }
}

/// The benchmark's input folder: JPEGs of 1 to 12 megapixels in several aspect ratios.
enum BenchInputs {
    struct File: Sendable {
        var path: String
        var pixels: Int
    }

    private static let aspects: [Double] = [1.5, 4.0 / 3, 1, 0.75, 2.0 / 3, 16.0 / 9, 9.0 / 16]

    /// JPEG and PNG files under `folder`, sorted; none when it does not exist.
    static func photos(in folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        return walker.compactMap { $0 as? String }
            .filter { ["jpg", "jpeg", "png"].contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }
            .sorted()
            .map { URL(fileURLWithPath: folder).appendingPathComponent($0).path }
    }

    /// Made in parallel; each from a photo (scaled and cropped to its size) or, without photos, synthetic.
    static func make(count: Int, into folder: URL, from photos: [String]) throws -> [File] {
        let files = (0..<count).map { index -> (file: File, width: Int, height: Int) in
            let pixels: Double = Double(1 + index * 7 % 12) * 1e6
            let width = Int((pixels * aspects[index % aspects.count]).squareRoot())
            let height = Int(pixels) / width
            let path = folder.appendingPathComponent(String(format: "photo-%04d.jpg", index)).path
            return (File(path: path, pixels: width * height), width, height)
        }
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let (file, width, height) = files[index]
            let source = photos.isEmpty ? nil : photos[index % photos.count]
            if let reason = write(file.path, width: width, height: height, from: source) {
                failures.add("\(file.path): \(reason)")
            }
        }
        if let failure = failures.first { throw ValidationError("could not make the inputs: \(failure)") }
        return files.map(\.file)
    }

    /// Writes one input; the reason when it could not.
    static func write(_ path: String, width: Int, height: Int, from photo: String?) -> String? {
        let image: UnsafeMutablePointer<VipsImage>?
        if let photo {
            guard let source = vips_source_new_from_file(photo) else { return error() }
            defer { g_object_unref(source) }
            guard let original = tessera_image_new_from_source(source) else { return error() }
            defer { g_object_unref(original) }
            var filled: UnsafeMutablePointer<VipsImage>?
            guard tessera_fixture_fill(original, &filled, Int32(width), Int32(height)) == 0 else { return error() }
            image = filled
        } else {
            image = tessera_fixture_photo(Int32(width), Int32(height))
        }
        guard let image else { return error() }
        defer { g_object_unref(image) }
        return tessera_fixture_jpegsave_file(image, path) == 0 ? nil : error()
    }

    private static func error() -> String {
        guard let text = vips_error_buffer_copy() else { return "unknown libvips error" }
        defer { g_free(text) }
        return String(cString: text)
    }

    private final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func add(_ failure: String) { lock.withLock { list.append(failure) } }
        var first: String? { lock.withLock { list.first } }
    }
}

/// Writes a line to standard output (the C `stdout` global is not concurrency-safe in Swift 6).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

private func seconds(_ duration: Duration) -> String {
    String(format: "%.2f", duration.seconds)
}
