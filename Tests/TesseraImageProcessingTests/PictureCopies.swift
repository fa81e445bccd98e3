import CVips
import Foundation
import TesseraCore
import Testing

@testable import TesseraImageProcessing

/// The perceptual-hash test set, made with libvips at test time from the sample photos in `Samples/`: the
/// copies a photo gets on the web (must be one picture with it) and pictures made from it that are not it
/// (must not). Nothing here is committed as a binary.
enum PictureCopies {
    /// One version of a sample: `family` is the sample; `copy` says whether it is the same picture.
    struct Version {
        var sample: String
        var name: String
        var copy: Bool
        var data: Data
    }

    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")

    /// Every JPEG under `Samples/`, sorted.
    static func samplePhotos() throws -> [URL] {
        let walker = try #require(FileManager.default.enumerator(atPath: samples.path))
        return walker.compactMap { $0 as? String }.filter { $0.lowercased().hasSuffix(".jpg") }.sorted()
            .map { samples.appendingPathComponent($0) }
    }

    /// The original bytes, then its copies, then the pictures that are not it.
    static func versions(of photo: URL) throws -> [Version] {
        let original = try Data(contentsOf: photo)
        let image = try decoded(original)
        let (width, height) = (Int(vips_image_get_width(image.pointer)), Int(vips_image_get_height(image.pointer)))
        func crop(_ left: Double, _ top: Double, _ right: Double, _ bottom: Double) -> TestImage {
            let x = Int(Double(width) * left)
            let y = Int(Double(height) * top)
            let w = Int(Double(width) * (1 - right)) - x
            let h = Int(Double(height) * (1 - bottom)) - y
            return image.derived { tessera_fixture_crop($0, Int32(x), Int32(y), Int32(w), Int32(h)) }
        }
        let name = photo.deletingPathExtension().lastPathComponent
        var versions = [Version(sample: name, name: "original", copy: true, data: original)]
        let copies: [(String, () -> Data)] = [
            ("half size", { image.derived { tessera_fixture_resize($0, 0.5) }.jpeg(quality: 90) }),
            ("a quarter size", { image.derived { tessera_fixture_resize($0, 0.25) }.jpeg(quality: 90) }),
            ("JPEG quality 15", { image.jpeg(quality: 15) }),
            ("cropped 5 % at top left", { crop(0.05, 0.05, 0, 0).jpeg(quality: 90) }),
            ("cropped 2.5 % each side", { crop(0.025, 0.025, 0.025, 0.025).jpeg(quality: 90) }),
            ("PNG", { image.png() }),
            ("WebP quality 60", { image.webp(quality: 60) }),
            ("brighter (+25)", { image.derived { tessera_fixture_levels($0, 1, 25) }.jpeg(quality: 90) }),
            ("darker (×0.85)", { image.derived { tessera_fixture_levels($0, 0.85, 0) }.jpeg(quality: 90) }),
            ("more contrast", { image.derived { tessera_fixture_levels($0, 1.15, -19) }.jpeg(quality: 90) }),
            ("saturation ×1.3", { saturated(image, 1.3).jpeg(quality: 90) }),
            ("saturation ×0.7", { saturated(image, 0.7).jpeg(quality: 90) }),
        ]
        let others: [(String, () -> Data)] = [
            ("mirrored", { image.derived { tessera_fixture_mirror($0) }.jpeg(quality: 90) }),
            ("left two thirds", { crop(0, 0, 1.0 / 3, 0).jpeg(quality: 90) }),
            ("centre half", { crop(0.25, 0.25, 0.25, 0.25).jpeg(quality: 90) }),
        ]
        versions += copies.map { Version(sample: name, name: $0.0, copy: true, data: $0.1()) }
        versions += others.map { Version(sample: name, name: $0.0, copy: false, data: $0.1()) }
        return versions
    }

    /// Saturation only means something in colour: a grey photo stays as it is.
    private static func saturated(_ image: TestImage, _ factor: Double) -> TestImage {
        guard vips_image_get_bands(image.pointer) >= 3 else { return image }
        return image.derived { tessera_fixture_saturate($0, factor) }
    }

    /// The photo decoded into memory, so the bytes need not outlive it.
    static func decoded(_ data: Data) throws -> TestImage {
        try Vips.ensureStarted()
        return try withBytes(of: data) { bytes throws(ImagingError) -> TestImage in
            guard let lazy = tessera_image_new_from_buffer(bytes.baseAddress, bytes.count, -1) else {
                throw .unreadable(Vips.takeError())
            }
            defer { g_object_unref(lazy) }
            return TestImage(vips_image_copy_memory(lazy))
        }
    }
}

extension TestImage {
    func jpeg(quality: Int) -> Data {
        encoded { tessera_fixture_jpegsave_quality(pointer, $0, $1, Int32(quality)) }
    }

    func webp(quality: Int) -> Data {
        encoded { tessera_fixture_webpsave_quality(pointer, $0, $1, Int32(quality)) }
    }

    private func encoded(
        _ saver: (UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32
    ) -> Data {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        precondition(saver(&buffer, &length) == 0, Vips.takeError())
        return Vips.takeBuffer(buffer!, count: length)
    }
}
