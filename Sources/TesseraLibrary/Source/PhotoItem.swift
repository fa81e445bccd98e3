import Foundation
import TesseraCore

extension LibraryPhoto {
    /// The API's `Item` for this photo. Image URLs are `local:` references (`ImageReference.library`); the server
    /// signs them for its proxy.
    public var item: Item {
        let reference = ImageReference.libraryFile(path: absolutePath, size: stamp.size, modified: stamp.modified)
            .string
        func image(_ variant: ImageVariant) -> ImageRef {
            let size =
                variant.maxDimension.flatMap { Geometry.fit(width: width, height: height, maxSide: $0) }
                ?? (width ?? 0, height ?? 0)
            return ImageRef(
                url: reference, width: size.width > 0 ? size.width : nil, height: size.height > 0 ? size.height : nil)
        }
        return Item(
            id: ItemID(source: .local, nativeID: id), kind: .image, title: title,
            tags: Tags.normalize(keywords + tags), creator: creator.map { Creator(name: $0) },
            license: license, pageURL: nil,
            thumbnail: image(.thumb), preview: image(.preview), full: image(.original), metadata: metadataEntries)
    }

    /// The licence the file embeds, else its folder's default, else `unknown` (`Licenses.embedded`).
    public var license: License {
        func entry(_ label: String) -> String? { metadata.first { $0.label == label }?.value }
        return Licenses.embedded(
            licenseURL: entry(Self.licenseLinkLabel), usageTerms: entry(Self.usageTermsLabel), copyright: copyright,
            folderDefault: entry(Self.folderLicenseLabel))
    }

    /// What the detail view lists: the file's facts first, then every field its metadata had.
    var metadataEntries: [MetadataEntry] {
        var entries: [MetadataEntry] = []
        entries.add("Caption", caption)
        entries.add("File name", fileName)
        entries.add("Folder", folder.isEmpty ? nil : folder)
        entries.add("File size", Format.bytes(Int(stamp.size)))
        entries.add("Dimensions", Format.dimensions(width, height))
        entries.add("Format", format.uppercased())
        entries.add("Captured", capturedAt.map(Self.display))
        entries.add("Camera", camera)
        entries.add("Copyright", copyright)
        let labels = Set(entries.map(\.label))
        entries += metadata.filter { !labels.contains($0.label) }
        return entries
    }

    /// `2015-02-11 23:03`, in this machine's zone: the one camera times without a zone were read in.
    static func display(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String { (value ?? 0) < 10 ? "0\(value ?? 0)" : "\(value ?? 0)" }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
    }
}

extension LibraryPhoto {
    static let licenseLinkLabel = ImageInfo.licenseLinkLabel
    static let usageTermsLabel = ImageInfo.usageTermsLabel
    /// The metadata entry that keeps the folder's `.tessera-license` line, read at index time.
    static let folderLicenseLabel = "Folder licence"
}
