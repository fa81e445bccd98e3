import Foundation
import TesseraCore
import Testing

@testable import TesseraImageProcessing

@Suite("Embedded metadata of files")
struct InfoTests {
    let processor = ImageProcessor(concurrency: 1, timeZone: TimeZone(identifier: "America/New_York")!)

    private func info(_ image: TestImage, _ save: (TestImage) -> Data = { $0.jpeg() }) throws -> ImageInfo {
        let folder = try TemporaryFolder()
        return try processor.info(fileAt: try folder.write(save(image), as: "photo"))
    }

    @Test("EXIF: camera fields, caption, creator, copyright, time with its offset, exposure")
    func exif() throws {
        var exif = ExifBlob()
        exif.ifd0[0x010E] = .ascii("Sunset (Paris)")
        exif.ifd0[0x010F] = .ascii("Canon")
        exif.ifd0[0x0110] = .ascii("Canon EOS 5D")
        exif.ifd0[0x0131] = .ascii("Darktable 4.2")
        exif.ifd0[0x013B] = .ascii("Jane Doe")
        exif.ifd0[0x8298] = .ascii("© 2021 Jane Doe")
        exif.exif[0x829A] = .rational([(1, 250)])
        exif.exif[0x829D] = .rational([(28, 10)])
        exif.exif[0x8827] = .short(400)
        exif.exif[0x9003] = .ascii("2021:06:01 12:34:56")
        exif.exif[0x9011] = .ascii("+02:00")
        exif.exif[0x920A] = .rational([(50, 1)])
        exif.exif[0xA434] = .ascii("EF50mm f/1.8 II")
        exif.gps[0x0001] = .ascii("N")
        exif.gps[0x0002] = .rational([(48, 1), (51, 1), (0, 1)])

        let info = try info(try TestImage.photo(width: 300, height: 200).with(orientation: 6, exif: exif.bytes))
        #expect(info.format == .jpeg)
        #expect((info.width, info.height) == (200, 300))
        #expect(info.title == nil)
        #expect(info.caption == "Sunset (Paris)")
        #expect(info.creator == "Jane Doe")
        #expect(info.copyright == "© 2021 Jane Doe")
        #expect(info.camera == "Canon EOS 5D")
        #expect(info.capturedAt == Date(timeIntervalSince1970: 1_622_543_696))  // 10:34:56 UTC
        #expect(info.keywords.isEmpty)
        #expect(
            info.metadata == [
                MetadataEntry("Lens", "EF50mm f/1.8 II"),
                MetadataEntry("Focal length", "50 mm"),
                MetadataEntry("Aperture", "f/2.8"),
                MetadataEntry("Exposure", "1/250 s"),
                MetadataEntry("ISO", "400"),
                MetadataEntry("Software", "Darktable 4.2"),
                MetadataEntry("GPS position", "Yes"),
            ])
    }

    @Test("EXIF: a time without offset is read in the processor's zone; camera placeholders are no caption")
    func exifLocalTime() throws {
        var exif = ExifBlob()
        exif.ifd0[0x010E] = .ascii("OLYMPUS DIGITAL CAMERA         ")
        exif.ifd0[0x010F] = .ascii("OLYMPUS IMAGING CORP.")
        exif.ifd0[0x0110] = .ascii("E-M10")
        exif.exif[0x9003] = .ascii("2020:01:15 08:00:00")
        let info = try info(try TestImage.photo(width: 64, height: 64).with(exif: exif.bytes))
        #expect(info.caption == nil)
        #expect(info.camera == "OLYMPUS IMAGING CORP. E-M10")
        // 08:00 in New York in January is 13:00 UTC.
        #expect(info.capturedAt == Date(timeIntervalSince1970: 1_579_093_200))
        #expect(info.metadata == [MetadataEntry("GPS position", "No")])
    }

    @Test("IPTC: object name, keywords, by-line, caption, copyright, date, place, credit")
    func iptc() throws {
        var iptc = IPTCBlob()
        iptc.add(1, bytes: [0x1B, 0x25, 0x47], record: 1)  // UTF-8
        iptc.add(IPTC.objectName, "Harbour at dawn")
        iptc.add(IPTC.keywords, "harbour")
        iptc.add(IPTC.keywords, "boats")
        iptc.add(IPTC.keywords, "Harbour")
        iptc.add(IPTC.keywords, "  ")
        iptc.add(IPTC.byline, "Åsa Nilsson")
        iptc.add(IPTC.caption, "Fishing boats\nleaving Göteborg.")
        iptc.add(IPTC.copyright, "Åsa Nilsson 2019")
        iptc.add(IPTC.dateCreated, "20190704")
        iptc.add(IPTC.timeCreated, "053000+0200")
        iptc.add(IPTC.city, "Göteborg")
        iptc.add(IPTC.country, "Sweden")
        iptc.add(IPTC.credit, "Nilsson Photo")
        let info = try info(try TestImage.photo(width: 64, height: 48).with(iptc: iptc.bytes))
        #expect(info.title == "Harbour at dawn")
        #expect(info.keywords == ["harbour", "boats"])
        #expect(info.creator == "Åsa Nilsson")
        #expect(info.caption == "Fishing boats leaving Göteborg.")
        #expect(info.copyright == "Åsa Nilsson 2019")
        #expect(info.capturedAt == Date(timeIntervalSince1970: 1_562_211_000))  // 03:30 UTC
        #expect(
            info.metadata == [
                MetadataEntry("Place", "Göteborg, Sweden"),
                MetadataEntry("Credit", "Nilsson Photo"),
                MetadataEntry("GPS position", "No"),
            ])
    }

    @Test("IPTC without a character set is read as Latin-1; a bare date is midnight in the processor's zone")
    func iptcLatin1() throws {
        var iptc = IPTCBlob()
        iptc.precedingResource = false
        iptc.add(IPTC.objectName, bytes: [0x43, 0x61, 0x66, 0xE9])  // "Café" in ISO 8859-1
        iptc.add(IPTC.dateCreated, "20200301")
        let info = try info(try TestImage.photo(width: 64, height: 48).with(iptc: iptc.bytes))
        #expect(info.title == "Café")
        #expect(info.capturedAt == Date(timeIntervalSince1970: 1_583_038_800))  // 05:00 UTC
    }

    @Test("XMP: title and description (x-default first), subjects, creators, rights, date attribute")
    func xmp() throws {
        let packet = XMPFixture.packet(
            title: "Tom &amp; Jerry", description: "<![CDATA[A <cat> & a mouse]]>",
            subjects: ["cartoon", "cat &amp; mouse"], creators: ["Joseph Barbera", "William Hanna"],
            rights: "CC BY 4.0",
            attributes: #"photoshop:DateCreated="1940-02-10T09:15:00Z" photoshop:City="Los Angeles""#)
        let info = try info(try TestImage.photo(width: 64, height: 48).with(xmp: packet))
        #expect(info.title == "Tom & Jerry")
        #expect(info.caption == "A <cat> & a mouse")
        #expect(info.keywords == ["cartoon", "cat & mouse"])
        #expect(info.creator == "Joseph Barbera, William Hanna")
        #expect(info.copyright == "CC BY 4.0")
        #expect(info.capturedAt == Date(timeIntervalSince1970: -943_281_900))
        #expect(info.metadata.contains(MetadataEntry("Place", "Los Angeles")))
    }

    @Test("XMP in a PNG is read too")
    func xmpInPNG() throws {
        let info = try info(try TestImage.photo(width: 64, height: 48).with(xmp: XMPFixture.packet(title: "Logo"))) {
            $0.png()
        }
        #expect(info.format == .png)
        #expect(info.title == "Logo")
    }

    @Test("XMP wins over IPTC, IPTC over EXIF; keywords of both are merged")
    func precedence() throws {
        var exif = ExifBlob()
        exif.ifd0[0x010E] = .ascii("EXIF caption")
        exif.ifd0[0x013B] = .ascii("EXIF artist")
        exif.ifd0[0x8298] = .ascii("EXIF copyright")
        var iptc = IPTCBlob()
        iptc.add(IPTC.objectName, "IPTC title")
        iptc.add(IPTC.caption, "IPTC caption")
        iptc.add(IPTC.byline, "IPTC by-line")
        iptc.add(IPTC.keywords, "iptc")
        iptc.add(IPTC.keywords, "shared")
        let packet = XMPFixture.packet(title: "XMP title", subjects: ["xmp", "Shared"], creators: ["XMP creator"])
        let info = try info(
            try TestImage.photo(width: 64, height: 48).with(exif: exif.bytes, iptc: iptc.bytes, xmp: packet))
        #expect(info.title == "XMP title")
        #expect(info.caption == "IPTC caption")
        #expect(info.creator == "XMP creator")
        #expect(info.copyright == "EXIF copyright")
        #expect(info.keywords == ["xmp", "Shared", "iptc"])
    }

    @Test("A file without metadata has none; non-images and missing files are refused")
    func plain() throws {
        let info = try info(try TestImage.photo(width: 30, height: 20)) { $0.webp() }
        #expect(
            info
                == ImageInfo(
                    format: .webp, width: 30, height: 20, metadata: [MetadataEntry("GPS position", "No")]))

        let folder = try TemporaryFolder()
        #expect(throws: ImagingError.notAnImage) {
            try processor.info(fileAt: try folder.write(Data("<html>".utf8), as: "page.jpg"))
        }
        #expect {
            try processor.info(fileAt: folder.url.path + "/none.jpg")
        } throws: { error in
            guard case ImagingError.unreadable = error else { return false }
            return true
        }
    }

    @Test("An oversized image's metadata is still read: nothing is decoded")
    func oversized() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(Data(PNGBytes.claiming(width: 30000, height: 30000)), as: "big.png")
        let info = try processor.info(fileAt: path)
        #expect((info.width, info.height) == (30000, 30000))
    }
}
