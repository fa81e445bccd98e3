// `XMP`, the scanner of an image's XMP packet (TesseraImageProcessing: the one file, pure Swift, compiled in,
// so the target does not link libvips).
// Input: the packet's bytes.
// Also compiled: Sources/TesseraImageProcessing/Metadata/XMP.swift
import TesseraCore

/// What `EmbeddedMetadata` asks a packet, in both of their shapes (an element, or an attribute).
let properties = [
    "dc:title", "dc:description", "dc:creator", "dc:subject", "dc:rights", "photoshop:Headline", "photoshop:City",
    "photoshop:Credit", "tiff:Make", "tiff:Model", "xmp:CreatorTool", "exifEX:LensModel", "aux:Lens",
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let xmp = XMP(bytes(data, size))
    for property in properties {
        let values = xmp.values(property)
        expect(xmp.value(property) == values.first, "value(\(property)) is not the first of values")
        for value in values {
            // Shown as they are: visible, trimmed, collapsed, capped.
            expect(!value.isEmpty, "an empty \(property)")
            expect(value.count <= MetadataText.maxLength, "\(property) of \(value.count) characters")
            expect(
                !value.unicodeScalars.contains { $0.properties.generalCategory == .control },
                "a control character in \(property): \(String(reflecting: value))")
            expect(
                value.first?.isWhitespace == false && value.last?.isWhitespace == false,
                "whitespace around \(property): \(String(reflecting: value))")
        }
    }
    return 0
}
