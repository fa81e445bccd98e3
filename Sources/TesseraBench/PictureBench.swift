import ArgumentParser
import Foundation
import TesseraCore
import TesseraImageProcessing

/// Hashing a 400 px thumbnail (goal: under 1 ms), in the render and from bytes, next to making a thumbnail of the
/// same bytes.
struct HashBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "phash",
        abstract: "Perceptual hash of 400 px thumbnails against libvips making a thumbnail of the same bytes.")

    @Option(help: "Hashes to time per row (after 20 warm-up calls).")
    var count = 600

    @Option(help: "A folder of JPEG photos to make the thumbnails from (default: Samples/).")
    var samples = "Samples"

    func run() async throws {
        let processor = ImageProcessor(concurrency: 1)
        var thumbnails: [Data] = []
        for path in jpegPaths(in: samples) {
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            for webP in [false, true] {
                thumbnails.append(try await processor.thumbnail(of: original, maxSide: 400, allowWebP: webP).data)
            }
        }
        guard !thumbnails.isEmpty else { throw ValidationError("no JPEGs in \(samples)") }
        let kilobytes = thumbnails.map(\.count).reduce(0, +) / thumbnails.count / 1024
        print("\(thumbnails.count) thumbnails (≤ 400 px, JPEG and WebP, ~\(kilobytes) KB) of the photos in \(samples)")

        func timed(_ body: (Data) async throws -> Void) async throws -> [Duration] {
            var times: [Duration] = []
            for index in 0..<(count + 20) {
                let data = thumbnails[index % thumbnails.count]
                let started = ContinuousClock.now
                try await body(data)
                if index >= 20 { times.append(ContinuousClock.now - started) }
            }
            return times
        }
        let jpegs = thumbnails.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let webPs = thumbnails.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        // The fast route and the one before it, alternated call by call so both see the same load.
        func routes(_ images: [Data]) throws -> [PerceptualHashing.Route: [Duration]] {
            var times: [PerceptualHashing.Route: [Duration]] = [:]
            for index in 0..<(2 * (count + 20)) {
                let route: PerceptualHashing.Route = index % 2 == 0 ? .fast : .thumbnail
                let data = images[(index / 2) % images.count]
                let started = ContinuousClock.now
                _ = try PerceptualHashing.hash(of: data, method: .pHash, route: route)
                if index >= 40 { times[route, default: []].append(ContinuousClock.now - started) }
            }
            return times
        }
        let both = try routes(thumbnails)
        let (jpeg, webP) = (try routes(jpegs), try routes(webPs))
        let pHash = both[.fast]!
        // A large original, as a gallery's stored copy can be: ImageProcessor.perceptualHash's other input.
        let large = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-phash-\(UUID()).jpg")
        defer { try? FileManager.default.removeItem(at: large) }
        if let failure = BenchInputs.write(large.path, width: 4000, height: 2667, from: jpegPaths(in: samples).first) {
            throw ValidationError("could not make the large JPEG: \(failure)")
        }
        let original = try Data(contentsOf: large)
        var originals: [PerceptualHashing.Route: [Duration]] = [:]
        for index in 0..<(2 * (count / 10 + 4)) {
            let route: PerceptualHashing.Route = index % 2 == 0 ? .fast : .thumbnail
            let started = ContinuousClock.now
            _ = try PerceptualHashing.hash(of: original, method: .pHash, route: route)
            if index >= 8 { originals[route, default: []].append(ContinuousClock.now - started) }
        }
        let dHash = try await timed { _ = try PerceptualHashing.hash(of: $0, method: .dHash) }
        let pooled = try await timed { _ = try await processor.perceptualHash(of: $0) }
        let reference = try await timed { _ = try await processor.thumbnail(of: $0, maxSide: 400, allowWebP: false) }
        let small = try await timed { _ = try await processor.thumbnail(of: $0, maxSide: 32, allowWebP: false) }
        // The proxy's way: the hash read from the thumbnail's pixels as it is rendered. Its marginal cost is
        // the same render with and without it, alternated call by call so both see the same load.
        var rendered: [Bool: [Bool: [Duration]]] = [:]
        for webP in [false, true] {
            for index in 0..<(2 * (count + 20)) {
                let hashed = index % 2 == 1
                let data = thumbnails[(index / 2) % thumbnails.count]
                let started = ContinuousClock.now
                _ = try await processor.thumbnail(
                    of: data, maxSide: 400, allowWebP: webP, hashing: hashed ? PerceptualHashing.chosen : nil)
                if index >= 40 {
                    rendered[webP, default: [:]][hashed, default: []].append(ContinuousClock.now - started)
                }
            }
        }
        // The render's hash alone, from a thumbnail already decoded in memory (as the render holds it).
        var inRender: [Duration] = []
        for (index, data) in thumbnails.enumerated() {
            let times = try PerceptualHashing.timesOfHashInRender(of: data, times: count / thumbnails.count + 2)
            inRender += index == 0 ? Array(times.dropFirst(2)) : times
        }
        printTable(
            title: "perceptual hash of one thumbnail, \(count) calls each, one at a time",
            rows: [
                ("pHash (chosen), fast route: JPEG and WebP", pHash),
                ("pHash, vips_thumbnail route (ref.): both", both[.thumbnail]!),
                ("pHash, fast route: JPEG", jpeg[.fast]!),
                ("pHash, vips_thumbnail route (ref.): JPEG", jpeg[.thumbnail]!),
                ("pHash, fast route: WebP", webP[.fast]!),
                ("pHash in the render, of its decoded pixels", inRender),
                ("pHash, vips_thumbnail route (ref.): WebP", webP[.thumbnail]!),
                ("dHash from bytes (fast route)", dHash),
                ("pHash of a 4000×2667 JPEG (\(original.count / 1024) KB), fast", originals[.fast]!),
                ("pHash of the 4000×2667 JPEG, vips_thumbnail (ref.)", originals[.thumbnail]!),
                ("ImageProcessor.perceptualHash (pool, header)", pooled),
                ("thumbnail of the same bytes, 400 px (ref.)", reference),
                ("thumbnail of the same bytes, 32 px (ref.)", small),
                ("thumbnail 400 px JPEG, no hash (ref.)", rendered[false]![false]!),
                ("thumbnail 400 px JPEG, hashed in render", rendered[false]![true]!),
                ("thumbnail 400 px JPEG|WebP, no hash (ref.)", rendered[true]![false]!),
                ("thumbnail 400 px JPEG|WebP, hashed in render", rendered[true]![true]!),
            ])
        print("\nthe hash in the render, marginal: hashed minus not (p50 − p50, p95 − p95)")
        for (webP, name) in [(false, "JPEG"), (true, "JPEG|WebP (the proxy's, for browsers)")] {
            let (with, without) = (rendered[webP]![true]!, rendered[webP]![false]!)
            print(
                "  \(name): \(ms(percentile(with, 0.5) - percentile(without, 0.5))) ms at p50, "
                    + "\(ms(percentile(with, 0.95) - percentile(without, 0.95))) ms at p95")
        }
        let marginal = percentile(rendered[true]![true]!, 0.5) - percentile(rendered[true]![false]!, 0.5)
        let shifts = try (thumbnails + [original]).map { data in
            try PerceptualHashing.hash(of: data, route: .fast).distance(
                to: PerceptualHashing.hash(of: data, route: .thumbnail))
        }
        print(
            "fast route against the vips_thumbnail route: \(shifts.filter { $0 == 0 }.count) of \(shifts.count) "
                + "hashes the same, \(shifts.max() ?? 0) bits apart at most (\(shifts.map(String.init).joined(separator: " ")))"
        )
        let fast = percentile(pHash, 0.5)
        print(
            "goal: hashing a thumbnail < 1 ms → \(fast < .milliseconds(1) ? "met" : "NOT met") from bytes "
                + "(p50 \(ms(fast)) ms; JPEG \(ms(percentile(jpeg[.fast]!, 0.5))) ms, WebP "
                + "\(ms(percentile(webP[.fast]!, 0.5))) ms; vips_thumbnail route "
                + "\(ms(percentile(both[.thumbnail]!, 0.5))) ms); in the render (the proxy's way): "
                + "\(ms(percentile(inRender, 0.5))) ms p50 from its decoded pixels "
                + "(\(percentile(inRender, 0.5) < .milliseconds(1) ? "met" : "NOT met")), \(ms(marginal)) ms more "
                + "than the same thumbnail without")
    }

    private func jpegPaths(in folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.lowercased().hasSuffix(".jpg") }.sorted()
            .map { URL(fileURLWithPath: folder).appendingPathComponent($0).path }
    }
}

/// Grouping a page of 1,000 items (goal: under 5 ms), next to sorting them.
struct GroupingBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grouping",
        abstract: "PictureGrouping over 1,000 items (identity and look) against sorting the same items.")

    @Option(help: "Items on the page.")
    var items = 1_000

    @Option(help: "Runs to time per row (after 10 warm-up runs).")
    var runs = 200

    func run() async throws {
        let (page, hashes) = Self.page(count: items)
        func timed(_ body: () -> Int) -> ([Duration], Int) {
            var times: [Duration] = []
            var result = 0
            for index in 0..<(runs + 10) {
                let started = ContinuousClock.now
                result = body()
                if index >= 10 { times.append(ContinuousClock.now - started) }
            }
            return (times, result)
        }
        let (grouping, groups) = timed { PictureGrouping.groups(of: page, hashes: hashes).count }
        let (identity, identityGroups) = timed { PictureGrouping.groups(of: page, hashes: [:]).count }
        let (sortingByTitle, _) = timed { page.sorted { $0.title < $1.title }.count }
        let (sortingByLicence, _) = timed {
            page.sorted { PictureGrouping.permissiveness($0.license) > PictureGrouping.permissiveness($1.license) }
                .count
        }
        print(
            "\(items) items (Flickr, Openverse copies of some, Pixabay, Commons), \(hashes.count) with hashes: "
                + "\(groups) groups (\(identityGroups) by identity alone)")
        printTable(
            title: "grouping \(items) items, \(runs) runs each",
            rows: [
                ("PictureGrouping: identity and look", grouping),
                ("PictureGrouping: identity only (no hashes)", identity),
                ("sorting the items by title (reference)", sortingByTitle),
                ("sorting the items by licence (reference)", sortingByLicence),
            ])
        let p50 = percentile(grouping, 0.5)
        print(
            "goal: grouping \(items) items < 5 ms → \(p50 < .milliseconds(5) ? "met" : "NOT met") (p50 \(ms(p50)) ms)")
    }

    /// A page as several sections give it: a quarter Flickr, a quarter Openverse (half of them copies of
    /// those Flickr photos), the rest Pixabay and Commons; one in ten a near copy of an earlier picture.
    static func page(count: Int) -> ([Item], [ItemID: PerceptualHash]) {
        var random = SplitMix64(seed: 13)
        var items: [Item] = []
        var hashes: [ItemID: PerceptualHash] = [:]
        let licences: [LicenseID] = ["cc0", "cc-by-2.0", "cc-by-nc-4.0", "pixabay", "cc-by-sa-4.0"]
        for index in 0..<count {
            let source: SourceID = [.flickr, .openverse, .pixabay, .wikimedia][index % 4]
            let native = source == .openverse ? "4bc43a04-ef46-4544-a0c1-\(String(index, radix: 16))" : "\(index)"
            let page: String? =
                switch source {
                case .flickr: "https://www.flickr.com/photos/owner/\(index)"
                case .openverse:
                    "https://www.flickr.com/photos/owner/\(random.below(2) == 0 ? index - 1 : 1_000_000 + index)"
                case .wikimedia: "https://commons.wikimedia.org/wiki/File:Photo_\(index).jpg"
                default: "https://pixabay.com/photos/photo-\(index)/"
                }
            let item = Item(
                id: ItemID(source: source, nativeID: native), kind: .image, title: "photo \(random.next() % 100_000)",
                license: Licenses.fromID(licences[random.below(licences.count)]), pageURL: page)
            var bits = random.next()
            if index >= 10, random.below(10) == 0, let earlier = hashes[items[random.below(items.count)].id] {
                bits = earlier.bits ^ (1 << UInt64(random.below(64))) ^ (1 << UInt64(random.below(64)))
            }
            // Thumbnails not yet hashed: about one in twenty.
            if random.below(20) != 0 { hashes[item.id] = PerceptualHash(bits: bits) }
            items.append(item)
        }
        return (items, hashes)
    }
}
