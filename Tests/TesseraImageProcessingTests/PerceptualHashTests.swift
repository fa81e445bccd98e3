import CVips
import Foundation
import TesseraCore
import Testing

@testable import TesseraImageProcessing

@Suite("Perceptual hashes made with libvips")
struct PerceptualHashTests {
    @Test func dHashSetsABitWhereTheRightNeighbourIsBrighter() {
        let rising = (0..<8).flatMap { _ in (0..<9).map { UInt8($0 * 20) } }
        #expect(PerceptualHashing.dHash(rising) == .max)
        #expect(PerceptualHashing.dHash(rising.reversed()) == 0)
        var oneStep = [UInt8](repeating: 100, count: 72)
        oneStep[2 * 9 + 4] = 200  // row 2: brighter after column 3, darker after column 4
        #expect(PerceptualHashing.dHash(oneStep) == 1 << (2 * 8 + 3))
    }

    @Test func pHashReadsTheLowestFrequencies() {
        // A flat image has only its mean (DC): that one coefficient is above the median of the 64.
        #expect(PerceptualHashing.pHash([UInt8](repeating: 128, count: 1024)) == 1)
        // Bright on the left: the first horizontal frequency is strongly positive, so set; the mirror clears it.
        let left = (0..<32).flatMap { _ in (0..<32).map { $0 < 16 ? UInt8(230) : UInt8(20) } }
        let right = (0..<32).flatMap { _ in (0..<32).map { $0 < 16 ? UInt8(20) : UInt8(230) } }
        #expect(PerceptualHashing.pHash(left) & 0b10 != 0)
        #expect(PerceptualHashing.pHash(right) & 0b10 == 0)
    }

    @Test func oneImageInEveryFormatHashesAlikeAndItsMirrorDoesNot() throws {
        let photo = try TestImage.photo(width: 640, height: 480)
        let original = try PerceptualHashing.hash(of: photo.jpeg())
        for format in [ImageFormat.png, .webp, .gif] {
            let copy = try PerceptualHashing.hash(of: photo.encoded(as: format))
            #expect(copy.distance(to: original) <= PictureGrouping.threshold, "\(format)")
        }
        let mirrored = try PerceptualHashing.hash(of: photo.derived { tessera_fixture_mirror($0) }.jpeg())
        #expect(mirrored.distance(to: original) > PictureGrouping.threshold)
        #expect(try PerceptualHashing.hash(of: photo.jpeg()) == original, "the same bytes, the same hash")
    }

    @Test func transparencyIsFlattenedOntoWhite() throws {
        let clear = try TestImage.flat(width: 64, height: 64, bands: 3, value: 0).derived {
            tessera_fixture_with_alpha($0, 0)
        }
        let white = try TestImage.flat(width: 64, height: 64, bands: 3, value: 255)
        let (a, b) = (try PerceptualHashing.hash(of: clear.png()), try PerceptualHashing.hash(of: white.png()))
        #expect(a == b, "a transparent image looks like the white page it sits on")
    }

    @Test func theProcessorRefusesJunkAndBombsBeforeHashing() async throws {
        let processor = ImageProcessor(concurrency: 1)
        await #expect(throws: ImagingError.notAnImage) { try await processor.perceptualHash(of: Data("hello".utf8)) }
        let bomb = Data(PNGBytes.claiming(width: 30000, height: 30000))
        await #expect(throws: ImagingError.tooManyPixels(width: 30000, height: 30000, limit: 50_000_000)) {
            try await processor.perceptualHash(of: bomb)
        }
        let truncated = try TestImage.photo(width: 300, height: 200).jpeg().prefix(400)
        await #expect(throws: ImagingError.self) { try await processor.perceptualHash(of: Data(truncated)) }
        let photo = try TestImage.photo(width: 300, height: 200).jpeg()
        #expect(try await processor.perceptualHash(of: photo) == PerceptualHashing.hash(of: photo))
    }

    @Test func aThumbnailHashedInItsRenderCarriesTheHashOfItsBytes() async throws {
        // Given a photo's thumbnail made with and without its hash, as JPEG and as JPEG or WebP
        let processor = ImageProcessor(concurrency: 1)
        let photo = try TestImage.photo(width: 1200, height: 800).jpeg()
        let plain = try await processor.thumbnail(of: photo, maxSide: 400, allowWebP: false)
        #expect(plain.perceptualHash == nil, "no hash unless asked for")
        for allowWebP in [false, true] {
            let hashed = try await processor.thumbnail(
                of: photo, maxSide: 400, allowWebP: allowWebP, hashing: .pHash)
            // Then the hash comes with it, one picture with the hash of the thumbnail's bytes (which went through
            // the encoder's loss: this noisy fixture moves more bits than the sample photos, 6 at most)
            let hash = try #require(hashed.perceptualHash)
            let fromBytes = try PerceptualHashing.hash(of: hashed.data)
            #expect(
                hash.distance(to: fromBytes) <= PictureGrouping.threshold,
                "render \(hash), bytes \(fromBytes), WebP \(allowWebP)")
            #expect(hashed.data.count > 0 && hashed.width == plain.width && hashed.height == plain.height)
        }
        // And a cut-out's transparency is flattened onto white in the render as from its bytes
        let cutout = try TestImage.photo(width: 600, height: 400).derived { tessera_fixture_cutout($0, 0.5) }.png()
        let rendered = try await processor.thumbnail(of: cutout, maxSide: 400, allowWebP: true, hashing: .pHash)
        let fromBytes = try PerceptualHashing.hash(of: rendered.data)
        #expect(try #require(rendered.perceptualHash).distance(to: fromBytes) <= PictureGrouping.threshold)
        let mirrored = try TestImage.photo(width: 1200, height: 800).derived { tessera_fixture_mirror($0) }.jpeg()
        let other = try await processor.thumbnail(of: mirrored, maxSide: 400, allowWebP: false, hashing: .pHash)
        let first = try await processor.thumbnail(of: photo, maxSide: 400, allowWebP: false, hashing: .pHash)
        #expect(
            try #require(other.perceptualHash).distance(to: try #require(first.perceptualHash))
                > PictureGrouping.threshold)
    }

    @Test func aThumbnailFromAFileIsHashedInItsRenderToo() async throws {
        let processor = ImageProcessor(concurrency: 1)
        let photo = try TestImage.photo(width: 1200, height: 800).jpeg()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hash-\(UUID()).jpg")
        try photo.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromFile = try await processor.thumbnail(fileAt: file.path, maxSide: 400, allowWebP: true, hashing: .pHash)
        let fromData = try await processor.thumbnail(of: photo, maxSide: 400, allowWebP: true, hashing: .pHash)
        #expect(fromFile.perceptualHash != nil && fromFile.perceptualHash == fromData.perceptualHash)
    }
}
