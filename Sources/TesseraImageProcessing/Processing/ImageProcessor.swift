import CVips
import Foundation
import TesseraCore

/// Reads and converts images with libvips: headers, thumbnails and embedded metadata.
///
/// Every pixel operation runs on the processor's own threads, at most `concurrency` at once, so image work
/// never blocks an event loop or Swift's cooperative pool, and memory stays bounded under load.
public final class ImageProcessor: Sendable {
    /// Images with more pixels than this are refused before any pixel is decoded.
    public let maxPixels: Int
    /// How many images are decoded at once.
    public let concurrency: Int
    public let jpegQuality: Int
    public let webpQuality: Int
    /// The zone of camera times that do not name one (EXIF before 2.31 has no offset).
    public let timeZone: TimeZone
    /// Whether a source that is already what its thumbnail would be is served as it is (`thumbnail(of:)`).
    public let keepsReadySources: Bool
    let pool: BlockingPool

    /// - Parameters:
    ///   - maxPixels: the most pixels (width × height) an image may declare; the default is 50 megapixels.
    ///   - concurrency: how many images are decoded at once; the default is one per core.
    ///   - jpegQuality: quality (1–100) of JPEG thumbnails.
    ///   - webpQuality: quality (1–100) of WebP thumbnails.
    ///   - timeZone: the zone camera times without one are read in, for `info(fileAt:)`.
    ///   - keepsReadySources: off, every thumbnail is rendered (for `tessera-bench kept-thumbnails`' reference).
    public init(
        maxPixels: Int = 50_000_000, concurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
        jpegQuality: Int = 82, webpQuality: Int = 80, timeZone: TimeZone = .current, keepsReadySources: Bool = true
    ) {
        self.maxPixels = maxPixels
        self.concurrency = max(1, concurrency)
        self.jpegQuality = min(100, max(1, jpegQuality))
        self.webpQuality = min(100, max(1, webpQuality))
        self.timeZone = timeZone
        self.keepsReadySources = keepsReadySources
        self.pool = .imaging(size: self.concurrency, name: "imaging")
        // Start libvips now rather than in the first request; a failure is reported by every call.
        try? Vips.ensureStarted()
    }

    /// Whether libvips runs its vector (orc) code, which is faster (about 40% for thumbnails): on once libvips
    /// started with orc's frees under orc's lock (Sources/COrcLock), off where that lock could not be put in.
    public static var vectorCode: Bool {
        (try? Vips.ensureStarted()) != nil && vips_vector_isenabled() != 0
    }

    // MARK: - Header

    /// Format and displayed size of an image, read without decoding its pixels.
    ///
    /// Magic numbers first (`notAnImage`), then libvips reads the header only, then the pixel cap
    /// (`tooManyPixels`).
    public func header(of data: Data) throws(ImagingError) -> ImageHeader {
        let format = try supportedFormat(of: data.prefix(ImageSniffer.prefixLength))
        return try withBytes(of: data) { bytes throws(ImagingError) in
            try inspect(format, profile: false) {
                tessera_image_new_from_buffer(bytes.baseAddress, bytes.count, Vips.loader(format))
            }.header
        }
    }

    /// The format the prefix announces, when this libvips can read it.
    func supportedFormat(of prefix: Data) throws(ImagingError) -> ImageFormat {
        guard let format = ImageSniffer.format(of: prefix) else { throw .notAnImage }
        try Vips.ensureStarted()
        guard Vips.canRead(format) else {
            throw .failed("this server's libvips was built without \(format.rawValue.uppercased()) support")
        }
        return format
    }

    /// Opens an image's header with `open`: its size, refused over `maxPixels`, and (with `profile`) whether
    /// its thumbnail must be converted to sRGB through its embedded profile.
    func inspect(
        _ format: ImageFormat, profile: Bool = true, open: () -> VipsImagePointer?
    ) throws(ImagingError) -> (header: ImageHeader, toSRGB: Bool, plain: Bool) {
        guard let image = open() else { throw .unreadable(Vips.takeError()) }
        defer { g_object_unref(image) }
        let header = try checkedHeader(of: image, format: format)
        guard profile else { return (header, false, false) }
        let toSRGB = Vips.blob("icc-profile-data", of: image).map { !ICCProfile.isSRGB($0) } ?? false
        return (header, toSRGB, !toSRGB && tessera_is_plain(image) != 0)
    }

    /// The header of an opened image, refused when it has more pixels than `maxPixels`.
    private func checkedHeader(of image: VipsImagePointer, format: ImageFormat) throws(ImagingError) -> ImageHeader {
        let (width, height) = Vips.displayedSize(of: image)
        guard width > 0, height > 0 else { throw .unreadable("the image has no pixels") }
        // Both sides come from 32-bit fields: the product cannot overflow.
        guard width * height <= maxPixels else {
            throw .tooManyPixels(width: width, height: height, limit: maxPixels)
        }
        return ImageHeader(format: format, width: width, height: height)
    }
}
