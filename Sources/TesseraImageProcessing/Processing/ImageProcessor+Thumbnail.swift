import CVips
import Foundation
import TesseraCore

extension ImageProcessor {
    /// A thumbnail that fits in `maxSide`×`maxSide`, never larger than the original.
    ///
    /// The header is checked first (as `header(of:)` does), so an oversized image is refused before
    /// decoding. Then libvips shrinks while it decodes (JPEG's DCT scaling, WebP's and HEIF's own), applies
    /// the EXIF orientation, converts to sRGB (CMYK, and profiles other than sRGB, through their ICC profile;
    /// grey stays grey) and strips every metadata field. JPEG, or WebP when `allowWebP` and the
    /// WebP is smaller; or the source itself, its metadata cut out, when it is already a thumbnail
    /// (`keptAsItIs`). Runs on the processor's threads; a call cancelled while it waits for one is dropped.
    ///
    /// With `hashing`, the result carries the thumbnail's perceptual hash by that method, read from its pixels
    /// before they are encoded (no second decode); `nil` if they could not be hashed (the thumbnail is still
    /// made).
    public func thumbnail(
        of data: Data, maxSide: Int, allowWebP: Bool, hashing: PerceptualHashing.Method? = nil
    ) async throws(ImagingError) -> RenderedImage {
        let side = try Self.validSide(maxSide)
        // Junk is refused here, without taking a place in the queue.
        let format = try supportedFormat(of: data.prefix(ImageSniffer.prefixLength))
        return try await pool.runImaging { [self] () throws(ImagingError) in
            try withBytes(of: data) { bytes throws(ImagingError) in
                let opened = try inspect(format) {
                    tessera_image_new_from_buffer(bytes.baseAddress, bytes.count, Vips.loader(format))
                }
                if let kept = try keptAsItIs(
                    opened.header, plain: opened.plain, of: data, side: Int(side), allowWebP: allowWebP,
                    hashing: hashing)
                {
                    return kept
                }
                return try render(allowWebP: allowWebP, hashing: hashing) { out in
                    tessera_thumbnail_buffer(bytes.baseAddress, bytes.count, out, side, opened.toSRGB ? 1 : 0)
                }
            }
        }
    }

    /// The same from a file: libvips reads it itself, so shrink-on-load decodes only what the thumbnail
    /// needs and the file is never held in memory whole.
    public func thumbnail(
        fileAt path: String, maxSide: Int, allowWebP: Bool, hashing: PerceptualHashing.Method? = nil
    ) async throws(ImagingError) -> RenderedImage {
        let side = try Self.validSide(maxSide)
        return try await pool.runImaging { [self] () throws(ImagingError) in
            let format = try supportedFormat(of: Vips.prefix(ofFileAt: path))
            let source = try Vips.source(forFileAt: path)
            defer { g_object_unref(source) }
            // The header read and the thumbnail share the source: the file is opened once.
            let toSRGB = try inspect(format) { tessera_image_new_from_source(source) }.toSRGB
            return try render(allowWebP: allowWebP, hashing: hashing) { out in
                tessera_thumbnail_source(source, out, side, toSRGB ? 1 : 0)
            }
        }
    }

    /// The source itself, its metadata cut out (`BareContainer`), when it is already what a thumbnail would be:
    /// no larger than the box, a format the client takes, plain (`tessera_is_plain`: 8-bit sRGB or grey, no
    /// profile to convert through, upright, one frame), and no heavier than `keptBytes`. Rendering it would
    /// cost about eight times as much and lose quality for nothing (docs/thumbnails.md, "Sources kept as they
    /// are").
    /// Every pixel is still decoded, so a damaged file is refused as a render would refuse it, and hashed.
    private func keptAsItIs(
        _ header: ImageHeader, plain: Bool, of data: Data, side: Int, allowWebP: Bool,
        hashing: PerceptualHashing.Method?
    ) throws(ImagingError) -> RenderedImage? {
        guard keepsReadySources, plain, header.width <= side, header.height <= side,
            header.format == .jpeg || header.format == .png || (header.format == .webp && allowWebP),
            let bare = BareContainer.stripping(data, format: header.format),
            bare.count <= Self.keptBytes(width: header.width, height: header.height)
        else { return nil }
        return try withBytes(of: bare) { bytes throws(ImagingError) in
            guard let decoded = tessera_decode_buffer(bytes.baseAddress, bytes.count, Vips.loader(header.format))
            else { throw .unreadable(Vips.takeError()) }
            defer { g_object_unref(decoded) }
            var kept = RenderedImage(data: bare, format: header.format, width: header.width, height: header.height)
            if let hashing { kept.perceptualHash = try? PerceptualHashing.hash(ofDecoded: decoded, method: hashing) }
            return kept
        }
    }

    /// The most bytes a source kept as it is may have: 16 KiB, or half a byte a pixel (a JPEG at the
    /// thumbnails' quality takes a quarter or less), whichever is more.
    static func keptBytes(width: Int, height: Int) -> Int { max(16 * 1024, width * height / 2) }

    private static func validSide(_ maxSide: Int) throws(ImagingError) -> Int32 {
        guard maxSide > 0, maxSide <= 10_000 else {
            throw .failed("a thumbnail's side is 1 to 10000 px, not \(maxSide)")
        }
        return Int32(maxSide)
    }

    /// Runs `thumbnail` (one of libvips' `vips_thumbnail_*`) and encodes its result, hashing its pixels too
    /// when asked.
    ///
    /// libvips is lazy: the thumbnail call reads the header and plans the work; pixels are decoded and shrunk
    /// while the encoder pulls them, so decoding errors (a truncated file) surface while encoding.
    private func render(
        allowWebP: Bool, hashing: PerceptualHashing.Method?,
        _ thumbnail: (UnsafeMutablePointer<VipsImagePointer?>) -> Int32
    ) throws(ImagingError) -> RenderedImage {
        var out: VipsImagePointer?
        guard thumbnail(&out) == 0, let shrunk = out else { throw .unreadable(Vips.takeError()) }
        defer { g_object_unref(shrunk) }
        var stripped: VipsImagePointer?
        guard tessera_strip(shrunk, &stripped) == 0, let image = stripped else { throw .failed(Vips.takeError()) }
        defer { g_object_unref(image) }
        guard allowWebP || hashing != nil else { return try encode(image, as: .jpeg) }
        // Two readers of the pixels (both encoders, or an encoder and the hash): decode and shrink once, into
        // memory (a thumbnail is small).
        guard let decoded = vips_image_copy_memory(image) else { throw .unreadable(Vips.takeError()) }
        defer { g_object_unref(decoded) }
        var rendered = try encode(decoded, as: .jpeg)
        if allowWebP {
            let webp = try encode(decoded, as: .webp)
            if webp.data.count < rendered.data.count { rendered = webp }
        }
        if let hashing { rendered.perceptualHash = try? PerceptualHashing.hash(ofDecoded: decoded, method: hashing) }
        return rendered
    }

    private func encode(_ image: VipsImagePointer, as format: ImageFormat) throws(ImagingError) -> RenderedImage {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let status =
            format == .webp
            ? tessera_webpsave_buffer(image, &buffer, &length, Int32(webpQuality))
            : tessera_jpegsave_buffer(image, &buffer, &length, Int32(jpegQuality))
        guard status == 0, let buffer else { throw .unreadable(Vips.takeError()) }
        var data = Vips.takeBuffer(buffer, count: length)
        if format == .webp { data = WebPContainer.removingMetadata(data) }
        return RenderedImage(
            data: data, format: format,
            width: Int(vips_image_get_width(image)), height: Int(vips_image_get_height(image)))
    }
}
