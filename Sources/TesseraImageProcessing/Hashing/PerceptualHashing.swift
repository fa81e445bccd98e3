import CVips
import Foundation
import TesseraCore

/// Perceptual hashes made with libvips: the image is decoded straight to a few grey pixels (shrink-on-load),
/// and the hash is read from them. Two methods, both 64 bits; `chosen` is the one Tessera uses, picked by
/// the measurement in docs/duplicates.md ("Measured: the threshold").
public enum PerceptualHashing {
    public enum Method: String, Sendable, CaseIterable {
        /// Difference hash: 9×8 grey pixels, one bit per pair of neighbours in a row (brighter on the right?).
        case dHash
        /// DCT hash: 32×32 grey pixels, their 8×8 lowest frequencies, one bit each (above their median?).
        case pHash
    }

    /// The method Tessera hashes thumbnails with.
    public static let chosen = Method.pHash

    /// How an encoded image is brought to the hash's grey pixels.
    public enum Route: String, Sendable, CaseIterable {
        /// JPEG and WebP: decoded small by the loader's own shrink, read once, resampled and made grey in
        /// Swift (`GreyResampler`); anything else takes `thumbnail`'s way.
        case fast
        /// `vips_thumbnail_buffer` to the hash's size, then libvips' grey: the route before `fast`, kept for
        /// the formats `fast` does not take and as the benchmark's reference.
        case thumbnail
    }

    /// The hash of an encoded image (JPEG, PNG, GIF, WebP, AVIF, HEIC). Blocking: libvips decodes on the
    /// calling thread, so call it from an imaging pool (`ImageProcessor.perceptualHash(of:)` does).
    /// Unlike the processor, this checks no pixel cap: give it thumbnails, not untrusted originals.
    public static func hash(of data: Data, method: Method = chosen, route: Route = .fast) throws(ImagingError)
        -> PerceptualHash
    {
        try Vips.ensureStarted()
        let (width, height) = size(of: method)
        return try withBytes(of: data) { bytes throws(ImagingError) in
            if route == .fast, let grey = try fastGrey(bytes, width: width, height: height) {
                return hash(ofGrey: grey, method)
            }
            return try hash(method) { width, height, pixels in
                tessera_grey_pixels_buffer(bytes.baseAddress, bytes.count, width, height, pixels)
            }
        }
    }

    /// The fast route's grey pixels, or nil when it does not take the image.
    private static func fastGrey(_ bytes: UnsafeRawBufferPointer, width: Int, height: Int) throws(ImagingError)
        -> [UInt8]?
    {
        try fastGrey(width: width, height: height) { pixels, smallWidth, smallHeight, bands in
            tessera_hash_pixels_buffer(
                bytes.baseAddress, bytes.count, Int32(width), Int32(height), pixels, smallWidth, smallHeight, bands)
        }
    }

    /// The small image `small` gives (one of the shim's `tessera_hash_pixels_*`: 1 with pixels, 0 when it does
    /// not take the image, -1 on an error) made into `width`×`height` grey pixels by `GreyResampler`.
    private static func fastGrey(
        width: Int, height: Int,
        _ small: (
            UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>,
            UnsafeMutablePointer<Int32>
        ) -> Int32
    ) throws(ImagingError) -> [UInt8]? {
        var pixels: UnsafeMutableRawPointer?
        var (smallWidth, smallHeight, bands): (Int32, Int32, Int32) = (0, 0, 0)
        let status = small(&pixels, &smallWidth, &smallHeight, &bands)
        guard status != 0 else { return nil }
        guard status == 1, let pixels else { throw .unreadable(Vips.takeError()) }
        defer { g_free(pixels) }
        let count = Int(smallWidth) * Int(smallHeight) * Int(bands)
        return GreyResampler.grey(
            UnsafeRawBufferPointer(start: pixels, count: count), width: Int(smallWidth), height: Int(smallHeight),
            bands: Int(bands), outWidth: width, outHeight: height)
    }

    private static func size(of method: Method) -> (width: Int, height: Int) {
        method == .dHash ? (9, 8) : (32, 32)
    }

    /// The hash of an image already decoded, such as a thumbnail being rendered (`ImageProcessor.render`), with
    /// no second decode. 8-bit sRGB or grey in memory (what the render holds) takes the fast route's second
    /// half: area-averaged as libwebp scales on load, then `GreyResampler` (`tessera_hash_pixels_rendered`);
    /// anything else is shrunk by `vips_thumbnail_image` as the route from bytes does. Blocking, like `hash(of:)`.
    static func hash(ofDecoded image: VipsImagePointer, method: Method = chosen) throws(ImagingError)
        -> PerceptualHash
    {
        let (width, height) = size(of: method)
        let fast = try fastGrey(width: width, height: height) { pixels, smallWidth, smallHeight, bands in
            tessera_hash_pixels_rendered(image, Int32(width), Int32(height), pixels, smallWidth, smallHeight, bands)
        }
        if let grey = fast { return hash(ofGrey: grey, method) }
        return try hash(method) { width, height, pixels in tessera_grey_pixels_image(image, width, height, pixels) }
    }

    /// For `tessera-bench phash`: `data` decoded into memory once as the render holds a thumbnail (8-bit sRGB),
    /// then the time of each of `times` hashes of it by `hash(ofDecoded:)`, the render's share of the hash alone.
    public static func timesOfHashInRender(of data: Data, times: Int) throws(ImagingError) -> [Duration] {
        try Vips.ensureStarted()
        return try withBytes(of: data) { bytes throws(ImagingError) in
            guard let image = tessera_image_new_from_buffer(bytes.baseAddress, bytes.count, -1) else {
                throw .unreadable(Vips.takeError())
            }
            defer { g_object_unref(image) }
            guard let decoded = vips_image_copy_memory(image) else { throw .unreadable(Vips.takeError()) }
            defer { g_object_unref(decoded) }
            var durations: [Duration] = []
            for _ in 0..<times {
                let started = ContinuousClock.now
                _ = try hash(ofDecoded: decoded)
                durations.append(ContinuousClock.now - started)
            }
            return durations
        }
    }

    /// Reads the method's grey pixels with `grey` (one of the shim's `tessera_grey_pixels_*`) and hashes them.
    private static func hash(
        _ method: Method, grey: (Int32, Int32, UnsafeMutablePointer<UInt8>?) -> Int32
    ) throws(ImagingError) -> PerceptualHash {
        let (width, height) = size(of: method)
        var pixels = [UInt8](repeating: 0, count: width * height)
        let status = pixels.withUnsafeMutableBufferPointer { grey(Int32(width), Int32(height), $0.baseAddress) }
        guard status == 0 else { throw .unreadable(Vips.takeError()) }
        return hash(ofGrey: pixels, method)
    }

    /// The method's hash of its grey pixels, whichever route made them.
    private static func hash(ofGrey pixels: [UInt8], _ method: Method) -> PerceptualHash {
        PerceptualHash(bits: method == .dHash ? dHash(pixels) : pHash(pixels))
    }

    // MARK: - From grey pixels

    /// 9×8 pixels, row by row: bit `8 × row + column` says the pixel right of it is brighter.
    static func dHash(_ pixels: [UInt8]) -> UInt64 {
        precondition(pixels.count == 72)
        var bits: UInt64 = 0
        for row in 0..<8 {
            for column in 0..<8 where pixels[row * 9 + column + 1] > pixels[row * 9 + column] {
                bits |= 1 << UInt64(row * 8 + column)
            }
        }
        return bits
    }

    /// 32×32 pixels, row by row: the 2-D DCT-II's 8×8 lowest frequencies, bit `8 × v + u` set when that
    /// coefficient is above the 64's median (as the usual pHash does, DC included).
    static func pHash(_ pixels: [UInt8]) -> UInt64 {
        precondition(pixels.count == 1024)
        // Rows first: 32 rows × 8 frequencies; then the 8 columns of that, 8 frequencies each.
        var rows = [Double](repeating: 0, count: 32 * 8)
        for y in 0..<32 {
            for u in 0..<8 {
                var sum = 0.0
                for x in 0..<32 { sum += Double(pixels[y * 32 + x]) * cosines[u * 32 + x] }
                rows[y * 8 + u] = sum
            }
        }
        var low = [Double](repeating: 0, count: 64)
        for v in 0..<8 {
            for u in 0..<8 {
                var sum = 0.0
                for y in 0..<32 { sum += rows[y * 8 + u] * cosines[v * 32 + y] }
                // Rounded, so the float noise of a coefficient that is really zero (a flat image) sets no bit.
                low[v * 8 + u] = (sum * 1_000).rounded()
            }
        }
        let sorted = low.sorted()
        let median = (sorted[31] + sorted[32]) / 2
        var bits: UInt64 = 0
        for index in 0..<64 where low[index] > median { bits |= 1 << UInt64(index) }
        return bits
    }

    /// cos((2x + 1)uπ / 64) for the 8 lowest frequencies u over 32 samples x.
    private static let cosines: [Double] = (0..<8).flatMap { u in
        (0..<32).map { x in cos(Double((2 * x + 1) * u) * Double.pi / 64) }
    }
}

extension ImageProcessor {
    /// The perceptual hash (`PerceptualHashing.chosen`) of an encoded image, on the processor's threads.
    /// The header is checked first as for a thumbnail: junk and images over the pixel cap are refused.
    public func perceptualHash(of data: Data) async throws(ImagingError) -> PerceptualHash {
        let format = try supportedFormat(of: data.prefix(ImageSniffer.prefixLength))
        return try await pool.runImaging { [self] () throws(ImagingError) in
            _ = try withBytes(of: data) { bytes throws(ImagingError) in
                try inspect(format, profile: false) {
                    tessera_image_new_from_buffer(bytes.baseAddress, bytes.count, Vips.loader(format))
                }
            }
            return try PerceptualHashing.hash(of: data)
        }
    }
}
