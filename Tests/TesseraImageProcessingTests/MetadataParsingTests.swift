import Foundation
import Testing

@testable import TesseraImageProcessing

@Suite("Parsing metadata text")
struct MetadataParsingTests {
    @Test(
        "libvips' EXIF renderings are split into value and libexif's text",
        arguments: [
            ("Canon EOS 5D (Canon EOS 5D, ASCII, 13 components, 13 bytes)", "Canon EOS 5D", "Canon EOS 5D"),
            ("Sunset (Paris) (Sunset (Paris), ASCII, 15 components, 15 bytes)", "Sunset (Paris)", "Sunset (Paris)"),
            (
                "© 2020 Jane (© 2020 Jane (Photographer) - [None] (Editor), ASCII, 13 components, 13 bytes)",
                "© 2020 Jane", "© 2020 Jane (Photographer) - [None] (Editor)"
            ),
            // Padded with NULs: the text is shorter than its components.
            ("E-M10 (E-M10, ASCII, 32 components, 32 bytes)", "E-M10", "E-M10"),
            ("14/5 (f/2.8, Rational, 1 components, 8 bytes)", "14/5", "f/2.8"),
            ("1/100 (1/100 sec., Rational, 1 components, 8 bytes)", "1/100", "1/100 sec."),
            ("48/1 47/1 60/1 (48, 47, 60, Rational, 3 components, 24 bytes)", "48/1 47/1 60/1", "48, 47, 60"),
            ("XP (title) (XP (title), Byte, 22 components, 22 bytes)", "XP (title)", "XP (title)"),
            ("not a libvips rendering", "not a libvips rendering", "not a libvips rendering"),
            ("", "", ""),
        ])
    func exifField(text: String, value: String, pretty: String) {
        let field = ExifField(text)
        #expect(field.value == value)
        #expect(field.pretty == pretty)
    }

    @Test func exifNumbers() {
        #expect(ExifField("14/5 (f/2.8, Rational, 1 components, 8 bytes)").number == 2.8)
        #expect(ExifField("200 (200, Short, 1 components, 2 bytes)").number == 200)
        #expect(ExifField("1/0 (1/0, Rational, 1 components, 8 bytes)").number == nil)
    }

    @Test("IPTC records are read with and without the Photoshop wrapper; extended lengths too")
    func iptcShapes() {
        var blob = IPTCBlob()
        blob.add(IPTC.objectName, "Title")
        blob.add(IPTC.keywords, "a")
        blob.add(IPTC.keywords, "b")
        #expect(IPTC(blob.bytes).value(IPTC.objectName) == "Title")
        #expect(IPTC(blob.iim).values(IPTC.keywords) == ["a", "b"])
        // Extended dataset: length 0x8002, then a 2-byte length of 3.
        let extended: [UInt8] = [0x1C, 2, 120, 0x80, 0x02, 0x00, 0x03] + Array("Hey".utf8)
        #expect(IPTC(extended).value(IPTC.caption) == "Hey")
    }

    @Test("Damaged IPTC gives what is readable and never reads past the end")
    func iptcDamage() {
        var blob = IPTCBlob()
        blob.add(IPTC.objectName, "Title")
        blob.add(IPTC.caption, String(repeating: "x", count: 300))
        let bytes = blob.bytes
        for length in 0..<bytes.count {
            _ = IPTC(Array(bytes.prefix(length)))
        }
        // A record claiming 255 bytes where 3 remain.
        let lying: [UInt8] = [0x1C, 2, 5, 0x00, 0xFF] + Array("abc".utf8)
        #expect(IPTC(lying).value(IPTC.objectName) == "abc")
        // An extended length that claims 9 bytes of length.
        #expect(IPTC([0x1C, 2, 5, 0x80, 0x09, 1, 2]).datasets.isEmpty)
        var random = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let noise = (0..<Int.random(in: 0..<64, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            _ = IPTC([0x1C] + noise)
            _ = IPTC(Array("Photoshop 3.0\0".utf8) + Array("8BIM".utf8) + noise)
        }
    }

    @Test("XMP: language alternatives, bags, attributes, entities, and damaged packets")
    func xmp() {
        let packet = XMPFixture.packet(
            title: "Caf&#233; &lt;Noir&gt;", subjects: ["one", "two"],
            attributes: #"xmp:CreateDate='2020-05-01T10:00:00+02:00' photoshop:City="Paris""#)
        let xmp = XMP(Array(packet.utf8))
        #expect(xmp.values("dc:title") == ["Café <Noir>", "Autre"])
        #expect(xmp.values("dc:subject") == ["one", "two"])
        #expect(xmp.value("photoshop:City") == "Paris")
        #expect(xmp.value("xmp:CreateDate") == "2020-05-01T10:00:00+02:00")
        #expect(xmp.value("dc:rights") == nil)
        #expect(XMP(Array("<dc:title>Plain</dc:title>".utf8)).value("dc:title") == "Plain")
        // `dc:titleX` is another property; an empty element has no value.
        #expect(XMP(Array("<dc:titleX>No</dc:titleX><dc:title/>".utf8)).value("dc:title") == nil)
        // Cut anywhere, the scanner gives up quietly.
        let bytes = Array(packet.utf8)
        for length in stride(from: 0, to: bytes.count, by: 7) {
            _ = XMP(Array(bytes.prefix(length))).values("dc:subject")
        }
        // Control characters and long text are made safe.
        #expect(XMP(Array("<dc:title>a\u{0007}b\u{0000}c</dc:title>".utf8)).value("dc:title") == "a b c")
        let long = "<dc:title>" + String(repeating: "y", count: 10_000) + "</dc:title>"
        #expect(XMP(Array(long.utf8)).value("dc:title")?.count == MetadataText.maxLength)
    }

    @Test("Dates in EXIF, XMP and IPTC shapes")
    func dates() {
        let utc = TimeZone(identifier: "UTC")!
        let noon = Date(timeIntervalSince1970: 1_622_548_800)  // 2021-06-01 12:00 UTC
        #expect(MetadataDate.exif("2021:06:01 12:00:00", offset: nil, utc) == noon)
        #expect(MetadataDate.exif("2021:06:01 14:00:00", offset: "+02:00", utc) == noon)
        #expect(MetadataDate.exif("2021:06:01 14:00:00", offset: "garbage", utc) == noon.addingTimeInterval(7200))
        #expect(MetadataDate.exif("0000:00:00 00:00:00", offset: nil, utc) == nil)
        #expect(MetadataDate.exif("    :  :     :  :  ", offset: nil, utc) == nil)
        #expect(MetadataDate.iso8601("2021-06-01T12:00:00Z", utc) == noon)
        #expect(MetadataDate.iso8601("2021-06-01T07:00:00.25-05:00", utc) == noon)
        #expect(MetadataDate.iso8601("2021-06-01T12:00", utc) == noon)
        #expect(MetadataDate.iso8601("2021-06-01", utc) == noon.addingTimeInterval(-43200))
        #expect(MetadataDate.iso8601("2021", utc) == Date(timeIntervalSince1970: 1_609_459_200))
        #expect(MetadataDate.iso8601("yesterday", utc) == nil)
        #expect(MetadataDate.iptc("20210601", time: "140000+0200", utc) == noon)
        #expect(MetadataDate.iptc("20210601", time: nil, utc) == noon.addingTimeInterval(-43200))
        #expect(MetadataDate.iptc("2021", time: nil, utc) == nil)
    }
}

@Suite("ICC profiles")
struct ICCProfileTests {
    @Test("libvips' built-in profiles are told apart by their descriptions")
    func builtIn() throws {
        #expect(ICCProfile.isSRGB(try TestImage.profile("srgb")))
        #expect(!ICCProfile.isSRGB(try TestImage.profile("p3")))
        #expect(!ICCProfile.isSRGB(try TestImage.profile("cmyk")))
    }

    @Test("A v4 profile's mluc description is read; junk is not sRGB")
    func mluc() {
        var profile = [UInt8](repeating: 0, count: 128)
        profile.append32(1, bigEndian: true)
        profile += Array("desc".utf8)
        profile.append32(144, bigEndian: true)
        profile.append32(40, bigEndian: true)
        // mluc: type, reserved, 1 record of 12 bytes: en-US, 8 bytes at offset 28.
        profile += Array("mluc".utf8) + [0, 0, 0, 0]
        profile.append32(1, bigEndian: true)
        profile.append32(12, bigEndian: true)
        profile += Array("enUS".utf8)
        profile.append32(8, bigEndian: true)
        profile.append32(28, bigEndian: true)
        profile += "sRGB".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(ICCProfile.description(of: profile) == "sRGB")
        #expect(ICCProfile.isSRGB(profile))
        for length in 0..<profile.count {
            #expect(!ICCProfile.isSRGB(Array(profile.prefix(length))))
        }
        #expect(!ICCProfile.isSRGB(Array("not a profile".utf8)))
    }
}
