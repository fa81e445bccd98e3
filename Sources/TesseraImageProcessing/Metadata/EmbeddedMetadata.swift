import Foundation
import TesseraCore

/// A file's EXIF, IPTC and XMP metadata, merged into what `ImageInfo` shows.
///
/// Where the three disagree, XMP wins, then IPTC, then EXIF: photo editors (Lightroom, digiKam, Photo
/// Mechanic) write captions and keywords to XMP and keep IPTC in step, while EXIF text fields are mostly the
/// camera's.
struct EmbeddedMetadata {
    /// `ifd0-Make`, `ifd2-DateTimeOriginal`...: libvips' names without the `exif-` prefix.
    var exif: [String: ExifField]
    var iptc: IPTC?
    var xmp: XMP?

    func info(format: ImageFormat, width: Int, height: Int, timeZone: TimeZone) -> ImageInfo {
        ImageInfo(
            format: format, width: width, height: height,
            title: first(
                xmp?.value("dc:title"), iptc?.value(IPTC.objectName), xmp?.value("photoshop:Headline"),
                iptc?.value(IPTC.headline), exifText("ifd0-XPTitle")),
            caption: first(
                xmp?.value("dc:description"), iptc?.value(IPTC.caption), cameraCaption,
                exifText("ifd0-XPComment"), exifText("ifd0-XPSubject")),
            keywords: keywords,
            creator: first(
                xmp.map { $0.values("dc:creator").joined(separator: ", ") },
                iptc.map { $0.values(IPTC.byline).joined(separator: ", ") }, exifText("ifd0-Artist"),
                exifText("ifd0-XPAuthor")),
            copyright: first(xmp?.value("dc:rights"), iptc?.value(IPTC.copyright), exifText("ifd0-Copyright")),
            capturedAt: capturedAt(in: timeZone),
            camera: camera,
            metadata: entries)
    }

    // MARK: - Fields

    /// An EXIF text field's value, cleaned; `nil` when absent or blank.
    private func exifText(_ name: String) -> String? {
        MetadataText.clean(exif[name]?.value)
    }

    private func first(_ candidates: String?...) -> String? {
        for candidate in candidates {
            if let text = MetadataText.clean(candidate) { return text }
        }
        return nil
    }

    /// EXIF's ImageDescription, unless it is one of the placeholders cameras write into every photo.
    private var cameraCaption: String? {
        guard let text = exifText("ifd0-ImageDescription") else { return nil }
        let placeholders: Set = [
            "olympus digital camera", "sony dsc", "digital camera", "kodak digital still camera", "default",
            "minolta digital camera", "samsung digital camera", "sanyo digital camera", "exif_jpeg_picture",
        ]
        if placeholders.contains(text.lowercased()) { return nil }
        if let model = exifText("ifd0-Model"), text.caseInsensitiveCompare(model) == .orderedSame { return nil }
        return text
    }

    private var keywords: [String] {
        var seen = Set<String>()
        var keywords: [String] = []
        let xpKeywords = exifText("ifd0-XPKeywords")?.split(separator: ";").map(String.init) ?? []
        for raw in (xmp?.values("dc:subject") ?? []) + (iptc?.values(IPTC.keywords) ?? []) + xpKeywords {
            guard let keyword = MetadataText.clean(raw), seen.insert(keyword.lowercased()).inserted else {
                continue
            }
            keywords.append(keyword)
        }
        return keywords
    }

    /// Make and model, the make left out when the model starts with it ("Canon" + "Canon EOS R5").
    private var camera: String? {
        let make = first(exifText("ifd0-Make"), xmp?.value("tiff:Make"))
        guard let model = first(exifText("ifd0-Model"), xmp?.value("tiff:Model")) else { return make }
        guard let make, let brand = make.split(separator: " ").first,
            !model.lowercased().hasPrefix(brand.lowercased())
        else { return model }
        return "\(make) \(model)"
    }

    // MARK: - Dates

    /// When the photo was taken: EXIF's original time (with its offset when the camera wrote one), else
    /// XMP's, else IPTC's date and time.
    private func capturedAt(in timeZone: TimeZone) -> Date? {
        for name in ["ifd2-DateTimeOriginal", "ifd2-DateTimeDigitized"] {
            let offset = name == "ifd2-DateTimeOriginal" ? "ifd2-OffsetTimeOriginal" : "ifd2-OffsetTimeDigitized"
            if let value = exifText(name), let date = MetadataDate.exif(value, offset: exifText(offset), timeZone) {
                return date
            }
        }
        for property in ["exif:DateTimeOriginal", "photoshop:DateCreated", "xmp:CreateDate"] {
            if let value = xmp?.value(property), let date = MetadataDate.iso8601(value, timeZone) { return date }
        }
        if let iptc, let day = iptc.value(IPTC.dateCreated) {
            return MetadataDate.iptc(day, time: iptc.value(IPTC.timeCreated), timeZone)
        }
        return nil
    }

    // MARK: - Other entries

    /// Everything else worth showing, always in this order.
    private var entries: [MetadataEntry] {
        var entries: [MetadataEntry] = []
        entries.add("Lens", first(exifText("ifd2-LensModel"), xmp?.value("exifEX:LensModel"), xmp?.value("aux:Lens")))
        entries.add("Focal length", focalLength)
        if let aperture = exif["ifd2-FNumber"]?.number, aperture > 0 {
            entries.add("Aperture", "f/" + Self.decimal(aperture))
        }
        if let exposure = exif["ifd2-ExposureTime"]?.number, exposure > 0 {
            entries.add(
                "Exposure", exposure < 1 ? "1/\(Int((1 / exposure).rounded())) s" : Self.decimal(exposure) + " s")
        }
        entries.add("ISO", exif["ifd2-ISOSpeedRatings"]?.number.map { String(Int($0)) })
        if let bias = exif["ifd2-ExposureBiasValue"]?.number, bias != 0 {
            entries.add("Exposure bias", (bias > 0 ? "+" : "−") + Self.decimal(abs(bias)) + " EV")
        }
        entries.add("Flash", MetadataText.clean(exif["ifd2-Flash"]?.pretty))
        entries.add("Software", first(exifText("ifd0-Software"), xmp?.value("xmp:CreatorTool")))
        entries.add("Place", place)
        entries.add("Credit", first(xmp?.value("photoshop:Credit"), iptc?.value(IPTC.credit)))
        // The licence a photo states (docs/licences.md): Creative Commons' own property, else the rights link.
        entries.add(ImageInfo.licenseLinkLabel, first(xmp?.value("cc:license"), xmp?.value("xmpRights:WebStatement")))
        entries.add(ImageInfo.usageTermsLabel, xmp?.value("xmpRights:UsageTerms"))
        let hasGPS = exif["ifd3-GPSLatitude"] != nil || xmp?.value("exif:GPSLatitude") != nil
        entries.add("GPS position", hasGPS ? "Yes" : "No")
        return entries
    }

    private var focalLength: String? {
        guard let focal = exif["ifd2-FocalLength"]?.number, focal > 0 else { return nil }
        let text = Self.decimal(focal) + " mm"
        guard let equivalent = exif["ifd2-FocalLengthIn35mmFilm"]?.number, equivalent > 0,
            Int(equivalent) != Int(focal.rounded())
        else { return text }
        return text + " (\(Int(equivalent)) mm in 35 mm terms)"
    }

    /// City, state and country, each once.
    private var place: String? {
        let parts = [
            first(xmp?.value("photoshop:City"), iptc?.value(IPTC.city)),
            first(xmp?.value("photoshop:State"), iptc?.value(IPTC.province)),
            first(xmp?.value("photoshop:Country"), iptc?.value(IPTC.country)),
        ].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// `2.8`, `50`, `0.3`: at most one decimal, none when whole.
    private static func decimal(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
    }
}
