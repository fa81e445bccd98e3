import Foundation
import TesseraCore
import Testing

@testable import TesseraImageProcessing

/// The measurement behind `PictureGrouping.threshold` (docs/duplicates.md, "Measured: the threshold"): every
/// version of every sample photo (`PictureCopies`) goes through the proxy's thumbnail and is hashed, as in
/// the server (from the thumbnail's pixels as it is rendered, and from its bytes as for one read back from
/// disk); then each pair is judged at each threshold. Prints the table for both methods and holds the chosen
/// method and threshold to the precision and recall written in the docs, both ways.
@Suite(.serialized) struct PerceptualHashMeasurementTests {
    /// The bars the chosen threshold must keep (the levels measured, docs/duplicates.md).
    static let precisionBar = 1.0
    static let recallBar = 0.97

    struct Hashed {
        var version: PictureCopies.Version
        /// By each method, from the thumbnail's pixels in the render.
        var hashes: [PerceptualHashing.Method: PerceptualHash]
        /// By the chosen method, from the thumbnail's encoded bytes.
        var fromBytes: PerceptualHash
        var id: ItemID { ItemID(source: .local, nativeID: "\(version.sample)/\(version.name)") }
    }

    /// Same picture: two copies of one sample. A mirror or another crop is a picture of its own.
    static func samePicture(_ a: Hashed, _ b: Hashed) -> Bool {
        a.version.sample == b.version.sample && a.version.copy && b.version.copy
    }

    static func hashedVersions() async throws -> [Hashed] {
        let processor = ImageProcessor(concurrency: 2)
        var hashed: [Hashed] = []
        for photo in try PictureCopies.samplePhotos() {
            for version in try PictureCopies.versions(of: photo) {
                var hashes: [PerceptualHashing.Method: PerceptualHash] = [:]
                var bytes: Data?
                for method in PerceptualHashing.Method.allCases {
                    let thumbnail = try await processor.thumbnail(
                        of: version.data, maxSide: ImageVariant.thumb.maxDimension!, allowWebP: false,
                        hashing: method)
                    hashes[method] = try #require(thumbnail.perceptualHash)
                    bytes = thumbnail.data
                }
                let fromBytes = try PerceptualHashing.hash(of: try #require(bytes))
                hashed.append(Hashed(version: version, hashes: hashes, fromBytes: fromBytes))
            }
        }
        return hashed
    }

    struct Scores {
        var precision: Double
        var recall: Double
        var falsePairs: Int
        var missedPairs: Int
    }

    /// Pairwise precision and recall when `together` says which pairs were put together.
    static func scores(_ versions: [Hashed], together: (Int, Int) -> Bool) -> Scores {
        var (truePairs, falsePairs, missedPairs) = (0, 0, 0)
        for a in versions.indices {
            for b in versions.indices where b > a {
                let joined = together(a, b)
                let same = samePicture(versions[a], versions[b])
                if joined && same { truePairs += 1 }
                if joined && !same { falsePairs += 1 }
                if !joined && same { missedPairs += 1 }
            }
        }
        let precision = truePairs + falsePairs == 0 ? 1 : Double(truePairs) / Double(truePairs + falsePairs)
        let recall = truePairs + missedPairs == 0 ? 1 : Double(truePairs) / Double(truePairs + missedPairs)
        return Scores(precision: precision, recall: recall, falsePairs: falsePairs, missedPairs: missedPairs)
    }

    /// Pairs joined directly (distance within the threshold).
    static func pairScores(_ versions: [Hashed], _ method: PerceptualHashing.Method, threshold: Int) -> Scores {
        scores(versions) { a, b in
            versions[a].hashes[method]!.distance(to: versions[b].hashes[method]!) <= threshold
        }
    }

    /// Pairs put in one group by `PictureGrouping` (joining is transitive).
    static func groupScores(_ versions: [Hashed], _ method: PerceptualHashing.Method, threshold: Int) -> Scores {
        let items = versions.map { Item(id: $0.id, kind: .image, title: $0.version.name) }
        let hashes = Dictionary(uniqueKeysWithValues: versions.map { ($0.id, $0.hashes[method]!) })
        var group: [ItemID: Int] = [:]
        for (number, found) in PictureGrouping.groups(of: items, hashes: hashes, threshold: threshold).enumerated() {
            for member in found.members { group[member] = number }
        }
        return scores(versions) { a, b in
            group[versions[a].id].map { $0 == group[versions[b].id] } ?? false
        }
    }

    @Test func theChosenThresholdKeepsPrecisionAndRecall() async throws {
        let versions = try await Self.hashedVersions()
        let samples = Set(versions.map(\.version.sample)).count
        #expect(samples >= 5, "the sample photos are missing from \(PictureCopies.samples.path)")
        var sameCount = 0
        for a in versions.indices {
            for b in versions.indices where b > a && Self.samePicture(versions[a], versions[b]) { sameCount += 1 }
        }
        print(
            "\(versions.count) versions of \(samples) photos: \(versions.count * (versions.count - 1) / 2) pairs, "
                + "\(sameCount) of them the same picture")
        for method in PerceptualHashing.Method.allCases {
            print("\n\(method.rawValue): threshold | pairs precision | pairs recall | groups precision | groups recall")
            for threshold in 0...24 {
                let pairs = Self.pairScores(versions, method, threshold: threshold)
                let groups = Self.groupScores(versions, method, threshold: threshold)
                print(
                    "| \(threshold) | \(Self.percent(pairs.precision)) | \(Self.percent(pairs.recall)) | "
                        + "\(Self.percent(groups.precision)) | \(Self.percent(groups.recall)) |")
            }
            Self.printExtremes(versions, method)
        }
        let method = PerceptualHashing.chosen
        let threshold = PictureGrouping.threshold
        let pairs = Self.pairScores(versions, method, threshold: threshold)
        let groups = Self.groupScores(versions, method, threshold: threshold)
        var missed: [String: Int] = [:]
        for a in versions.indices {
            for b in versions.indices where b > a && Self.samePicture(versions[a], versions[b]) {
                guard versions[a].hashes[method]!.distance(to: versions[b].hashes[method]!) > threshold else {
                    continue
                }
                missed["\(versions[a].version.sample): \(versions[a].version.name) ~ \(versions[b].version.name)"] = 1
            }
        }
        print("\ncopies missed at \(threshold) (\(method)): " + missed.keys.sorted().joined(separator: "; "))
        #expect(pairs.precision >= Self.precisionBar, "\(method) at \(threshold): \(pairs.falsePairs) wrong pairs")
        #expect(pairs.recall >= Self.recallBar, "\(method) at \(threshold): \(pairs.missedPairs) copies missed")
        #expect(groups.precision >= Self.precisionBar, "\(method) at \(threshold): groups join different pictures")
        #expect(groups.recall >= Self.recallBar, "\(method) at \(threshold): groups miss copies")

        // From the bytes (a thumbnail read back from disk without its hash), and across the two ways.
        let fromBytes = versions.map {
            var copy = $0; copy.hashes[method] = $0.fromBytes; return copy
        }
        let bytePairs = Self.pairScores(fromBytes, method, threshold: threshold)
        let byteGroups = Self.groupScores(fromBytes, method, threshold: threshold)
        let shifts = versions.map { $0.hashes[method]!.distance(to: $0.fromBytes) }
        print(
            "\nfrom bytes at \(threshold): pairs \(Self.percent(bytePairs.precision)) / "
                + "\(Self.percent(bytePairs.recall)), groups \(Self.percent(byteGroups.precision)) / "
                + "\(Self.percent(byteGroups.recall)); render vs bytes: \(shifts.max() ?? 0) bits at most, "
                + "\(shifts.filter { $0 == 0 }.count) of \(shifts.count) the same")
        #expect(bytePairs.precision >= Self.precisionBar, "from bytes: \(bytePairs.falsePairs) wrong pairs")
        #expect(bytePairs.recall >= Self.recallBar, "from bytes: \(bytePairs.missedPairs) copies missed")
        #expect(byteGroups.precision >= Self.precisionBar && byteGroups.recall >= Self.recallBar)
    }

    /// The farthest copies and the closest different pictures: where the threshold has room.
    static func printExtremes(_ versions: [Hashed], _ method: PerceptualHashing.Method) {
        var copies: [(Int, String)] = []
        var different: [(Int, String)] = []
        for a in versions.indices {
            for b in versions.indices where b > a {
                let (x, y) = (versions[a], versions[b])
                let distance = x.hashes[method]!.distance(to: y.hashes[method]!)
                let label = "\(x.version.sample)/\(x.version.name) ~ \(y.version.sample)/\(y.version.name)"
                if samePicture(x, y) { copies.append((distance, label)) } else { different.append((distance, label)) }
            }
        }
        let crossSample = different.filter { label in
            let parts = label.1.components(separatedBy: " ~ ").map { $0.split(separator: "/").first }
            return parts[0] != parts[1]
        }
        for (title, list) in [
            ("farthest copies", copies.sorted { $0.0 > $1.0 }), ("closest different", different.sorted { $0.0 < $1.0 }),
            ("closest different photos", crossSample.sorted { $0.0 < $1.0 }),
        ] {
            print("\(title): " + list.prefix(5).map { "\($0.0) \($0.1)" }.joined(separator: "; "))
        }
    }

    static func percent(_ value: Double) -> String {
        String(format: "%.1f %%", value * 100)
    }
}
