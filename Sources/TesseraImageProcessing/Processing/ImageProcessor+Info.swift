import CVips
import Foundation
import TesseraCore

extension ImageProcessor {
    /// Format, displayed size and embedded metadata (EXIF, IPTC, XMP) of a file, read without decoding
    /// its pixels: cheap enough for a library of 100,000 photos. Runs on the caller's thread.
    ///
    /// Oversized images are not refused here: nothing is decoded, and the indexer wants their metadata too.
    public func info(fileAt path: String) throws(ImagingError) -> ImageInfo {
        let format = try supportedFormat(of: Vips.prefix(ofFileAt: path))
        let source = try Vips.source(forFileAt: path)
        defer { g_object_unref(source) }
        guard let image = tessera_image_new_from_source(source) else { throw .unreadable(Vips.takeError()) }
        defer { g_object_unref(image) }
        let (width, height) = Vips.displayedSize(of: image)
        let metadata = EmbeddedMetadata(
            exif: Self.exifFields(of: image),
            iptc: Vips.blob("iptc-data", of: image).map(IPTC.init),
            xmp: Vips.blob("xmp-data", of: image).map(XMP.init))
        return metadata.info(format: format, width: width, height: height, timeZone: timeZone)
    }

    /// libvips' `exif-ifdN-Name` fields, parsed, keyed by `ifdN-Name`.
    private static func exifFields(of image: VipsImagePointer) -> [String: ExifField] {
        guard let names = vips_image_get_fields(image) else { return [:] }
        defer { g_strfreev(names) }
        var fields: [String: ExifField] = [:]
        var index = 0
        while let name = names[index] {
            index += 1
            guard strncmp(name, "exif-ifd", 8) == 0 else { continue }
            var value: UnsafePointer<CChar>?
            guard vips_image_get_string(image, name, &value) == 0, let value else { continue }
            fields[String(String(cString: name).dropFirst(5))] = ExifField(String(cString: value))
        }
        return fields
    }
}
