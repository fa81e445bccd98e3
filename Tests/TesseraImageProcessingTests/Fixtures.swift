import CVips
import Foundation
import TesseraCore
import Testing

@testable import TesseraImageProcessing

/// Images made with libvips at test time, and byte-level builders for what libvips cannot write
/// (EXIF blobs, IPTC records, a PNG that only claims to be huge).
final class TestImage {
    let pointer: VipsImagePointer

    init(_ pointer: VipsImagePointer?) {
        guard let pointer else { fatalError("libvips could not make a fixture: \(Vips.takeError())") }
        self.pointer = pointer
    }

    deinit { g_object_unref(pointer) }

    /// A gradient with noise, compressing like a photo.
    static func photo(width: Int, height: Int) throws -> TestImage {
        try Vips.ensureStarted()
        return TestImage(tessera_fixture_photo(Int32(width), Int32(height)))
    }

    /// One flat colour: `bands` bands of `value`.
    static func flat(
        width: Int, height: Int, bands: Int, value: Double, format: VipsBandFormat = VIPS_FORMAT_UCHAR,
        interpretation: VipsInterpretation = VIPS_INTERPRETATION_sRGB
    ) throws -> TestImage {
        try Vips.ensureStarted()
        return TestImage(
            tessera_fixture_flat(Int32(width), Int32(height), Int32(bands), value, format, interpretation))
    }

    /// One colour, 8-bit sRGB.
    static func solid(width: Int = 120, height: Int = 80, _ red: Double, _ green: Double, _ blue: Double) throws
        -> TestImage
    {
        try Vips.ensureStarted()
        return TestImage(tessera_fixture_solid(Int32(width), Int32(height), red, green, blue))
    }

    /// With an alpha band: opaque on the left `opaque` fraction of the width, transparent on the rest.
    func cutout(opaque: Double) -> TestImage {
        derived { tessera_fixture_cutout($0, opaque) }
    }

    /// Sets metadata fields the savers write out: `orientation`, `exif-data`, `iptc-data`, `xmp-data`.
    func with(orientation: Int? = nil, exif: [UInt8]? = nil, iptc: [UInt8]? = nil, xmp: String? = nil) -> TestImage {
        if let orientation { vips_image_set_int(pointer, "orientation", Int32(orientation)) }
        for (name, bytes) in [("exif-data", exif), ("iptc-data", iptc), ("xmp-data", xmp.map { Array($0.utf8) })] {
            guard let bytes else { continue }
            bytes.withUnsafeBytes { vips_image_set_blob_copy(pointer, name, $0.baseAddress, $0.count) }
        }
        return self
    }

    /// The bytes of one of libvips' built-in ICC profiles: `"srgb"`, `"p3"`, `"cmyk"`.
    static func profile(_ name: String) throws -> [UInt8] {
        let exported = try photo(width: 8, height: 8).derived { tessera_fixture_with_profile($0, name) }
        return try #require(withExtendedLifetime(exported) { Vips.blob("icc-profile-data", of: exported.pointer) })
    }

    /// A new image made from this one by a libvips call; this one stays alive until the call returns.
    func derived(_ make: (VipsImagePointer) -> VipsImagePointer?) -> TestImage {
        withExtendedLifetime(self) { TestImage(make(pointer)) }
    }

    /// Tags the pixels with an ICC profile without changing them.
    func with(profile: [UInt8]) -> TestImage {
        profile.withUnsafeBytes { vips_image_set_blob_copy(pointer, "icc-profile-data", $0.baseAddress, $0.count) }
        return self
    }

    func jpeg() -> Data { save { tessera_fixture_jpegsave(pointer, $0, $1) } }
    func png() -> Data { save { tessera_fixture_pngsave(pointer, $0, $1) } }
    func gif() -> Data { save { tessera_fixture_gifsave(pointer, $0, $1) } }
    func webp(lossless: Bool = false) -> Data {
        save { tessera_fixture_webpsave(pointer, $0, $1, lossless ? 1 : 0) }
    }
    func avif() -> Data { save { tessera_fixture_heifsave(pointer, $0, $1, VIPS_FOREIGN_HEIF_COMPRESSION_AV1) } }
    func heic() -> Data { save { tessera_fixture_heifsave(pointer, $0, $1, VIPS_FOREIGN_HEIF_COMPRESSION_HEVC) } }

    /// The image saved in `format`.
    func encoded(as format: ImageFormat) -> Data {
        switch format {
        case .jpeg: jpeg()
        case .png: png()
        case .gif: gif()
        case .webp: webp()
        case .avif: avif()
        case .heic: heic()
        }
    }

    private func save(
        _ saver: (UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32
    ) -> Data {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let status = saver(&buffer, &length)
        precondition(status == 0, Vips.takeError())
        return Vips.takeBuffer(buffer!, count: length)
    }
}

/// What libvips reads back from encoded bytes.
struct Decoded {
    var loader: String
    var width: Int
    var height: Int
    var bands: Int
    var format: VipsBandFormat
    var interpretation: VipsInterpretation
    var fields: Set<String>
    var average: Double

    init(_ data: Data) throws {
        try Vips.ensureStarted()
        let result = try withBytes(of: data) { bytes throws(ImagingError) -> Decoded in
            guard let image = tessera_image_new_from_buffer(bytes.baseAddress, bytes.count, -1) else {
                throw .unreadable(Vips.takeError())
            }
            defer { g_object_unref(image) }
            var loader: UnsafePointer<CChar>?
            _ = vips_image_get_string(image, "vips-loader", &loader)
            var names = Set<String>()
            if let list = vips_image_get_fields(image) {
                var index = 0
                while let name = list[index] {
                    names.insert(String(cString: name))
                    index += 1
                }
                g_strfreev(list)
            }
            var average = 0.0
            guard tessera_fixture_avg(image, &average) == 0 else { throw .unreadable(Vips.takeError()) }
            return Decoded(
                loader: loader.map { String(cString: $0) } ?? "", width: Int(vips_image_get_width(image)),
                height: Int(vips_image_get_height(image)), bands: Int(vips_image_get_bands(image)),
                format: vips_image_get_format(image), interpretation: vips_image_get_interpretation(image),
                fields: names, average: average)
        }
        self = result
    }

    private init(
        loader: String, width: Int, height: Int, bands: Int, format: VipsBandFormat,
        interpretation: VipsInterpretation, fields: Set<String>, average: Double
    ) {
        self.loader = loader
        self.width = width
        self.height = height
        self.bands = bands
        self.format = format
        self.interpretation = interpretation
        self.fields = fields
        self.average = average
    }
}

/// A temporary folder removed when the test is done with it.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-imaging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func write(_ data: Data, as name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try data.write(to: file)
        return file.path
    }
}
