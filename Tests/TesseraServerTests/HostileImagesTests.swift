import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TesseraCore
import TesseraTestSupport
import Testing

/// Images whose headers and metadata carry extreme numbers, through every real path that reads them: an upload
/// to a gallery, the image proxy (a service's thumbnail) and the library indexer. Each gets a clear answer and
/// the server still answers `/api/health` (docs/images.md, "Numbers in image files").
@Suite struct HostileImagesTests {
    /// Every hostile image, by the name it is uploaded, served and indexed under.
    static let images: [(name: String, bytes: [UInt8])] = [
        ("huge-ihdr.png", ImageProxyAPITests.pngDeclaring(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF)),
        ("zero-ihdr.png", ImageProxyAPITests.pngDeclaring(width: 0, height: 0)),
        ("wide-ihdr.png", ImageProxyAPITests.pngDeclaring(width: 0x7FFF_FFFF, height: 1)),
        ("many-frames.gif", HostileImage.gifDeclaringEveryFrame),
        ("hostile-exif.jpg", HostileImage.jpegWithHostileExif),
        ("deep-xmp.png", HostileImage.pngWithXMP(HostileImage.deepXMP)),
        ("unclosed-xmp.png", HostileImage.pngWithXMP(HostileImage.unclosedXMP)),
    ]

    @Test func uploadsToAGallery() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let gallery = try await GalleriesAPITests.create(client)
            for (name, bytes) in Self.images {
                let (headers, body) = GalleriesAPITests.multipart(bytes, fileName: name)
                let response = try await client.execute(
                    uri: "/api/galleries/\(gallery.id)/items", method: .post, headers: headers, body: body)
                if response.status != .created {
                    #expect((400..<500).contains(response.status.code), "\(name): \(response.status)")
                    #expect(try !response.apiError().message.isEmpty, "\(name)")
                }
                try await HostileServiceAnswersTests.expectHealthy(client)
            }
        }
    }

    @Test func servedAsAServicesThumbnail() async throws {
        let standIns = StandInSet()
        standIns.pixabay.state.corpus.set("fox", total: Self.images.count)
        try await withTessera(standIns.list) { client, server in
            let section = try await HostileServiceAnswersTests.section(client, scope: "pixabay", query: "fox")
            let thumbnails = section.items.compactMap(\.thumbnail?.url)
            try #require(thumbnails.count == Self.images.count)
            for ((name, bytes), url) in zip(Self.images, thumbnails) {
                server.images = { _ in bytes }
                let response = try await client.execute(uri: url, method: .get, headers: [.accept: "image/jpeg"])
                if response.status != .ok {
                    #expect(response.status.code >= 400, "\(name)")
                    #expect(try response.apiError().code != "internal", "\(name)")
                }
                try await HostileServiceAnswersTests.expectHealthy(client)
            }
        }
    }

    @Test func indexedFromTheLibrary() async throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-hostile-\(UUID())")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: library) }
        for (name, bytes) in Self.images { try Data(bytes).write(to: library.appendingPathComponent(name)) }
        // A plain photo last-but-not-least: the indexer went past the hostile ones to it.
        try Data(StandInImage.jpeg).write(to: library.appendingPathComponent("plain-fox.jpg"))
        try await withTessera(StandInSet().list, extraEnvironment: ["TESSERA_LIBRARY": library.path]) { client, _ in
            let plain = try await LocalLibraryAPITests.search(client, "plain")
            #expect(plain.items.count == 1)
            let exif = try await LocalLibraryAPITests.search(client, "exif")
            let item = try #require(exif.items.first)
            for entry in item.metadata {
                #expect(entry.value.count < 100, "\(entry.label): \(entry.value)")
            }
            let deep = try await LocalLibraryAPITests.search(client, "deep")
            #expect(deep.items.first?.title == "Hostile fox", "the packet's title still comes first")
            try await HostileServiceAnswersTests.expectHealthy(client)
        }
    }
}

/// Hostile image files, written byte by byte.
enum HostileImage {
    /// A GIF whose screen is 65535×65535 and whose loop extension asks for 65535 repeats, with one 1×1 frame.
    static let gifDeclaringEveryFrame: [UInt8] =
        Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0x80, 0, 0] + [0, 0, 0, 0xFF, 0xFF, 0xFF]
        + [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0xFF, 0xFF, 0x00]
        + [0x2C, 0, 0, 0, 0, 0x01, 0, 0x01, 0, 0x00] + [0x02, 0x02, 0x44, 0x01, 0x00] + [0x3B]

    /// `StandInImage.jpeg` with an EXIF segment of extreme values: orientation 65535, rationals over zero,
    /// and number fields written as text (`"1e-320"`, `"1e300"`, `"inf"`, `"nan"`), as a damaged or hostile
    /// file may.
    static var jpegWithHostileExif: [UInt8] {
        let ifd0: [(Int, Field)] = [
            (0x010F, .ascii("Hostile")), (0x0110, .ascii("Camera 9000")), (0x0112, .short(65535)),
            (0x011A, .rational(1, 0)),
        ]
        let exif: [(Int, Field)] = [
            (0x829A, .ascii("1e-320")), (0x829D, .rational(28, 0)), (0x8827, .ascii("1e300")),
            (0x9204, .ascii("-1e300")), (0x920A, .ascii("nan")), (0xA405, .ascii("inf")),
        ]
        let tiff = tiffBytes(ifd0: ifd0, exif: exif)
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let app1: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        let jpeg = StandInImage.jpeg
        return Array(jpeg[0..<2]) + app1 + Array(jpeg[2...])
    }

    /// An XMP packet whose title comes first, then a description of 200,000 nested elements.
    static var deepXMP: String {
        let depth = 200_000
        return #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description>"#
            + #"<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Hostile fox</rdf:li></rdf:Alt></dc:title>"#
            + "<dc:description>" + String(repeating: "<b>", count: depth) + "deep"
            + String(repeating: "</b>", count: depth) + "</dc:description>"
            + "<dc:rights>" + String(repeating: "<", count: depth) + "</dc:rights>"
            + "</rdf:Description></rdf:RDF></x:xmpmeta>"
    }

    /// An XMP packet of 100,000 start tags that are never closed.
    static var unclosedXMP: String {
        #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description>"#
            + String(repeating: "<dc:creator><rdf:li>", count: 100_000) + "</rdf:Description></rdf:RDF></x:xmpmeta>"
    }

    /// `StandInImage.pattern` with `xmp` in an `iTXt` chunk, as libvips and Adobe write it.
    static func pngWithXMP(_ xmp: String) -> [UInt8] {
        let png = StandInImage.pattern(seed: 37)
        let data = Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + Array(xmp.utf8)
        let afterHeader = 8 + 25
        return Array(png[..<afterHeader]) + chunk("iTXt", data) + Array(png[afterHeader...])
    }

    enum Field {
        case ascii(String)
        case short(Int)
        case long(Int)
        case rational(Int, Int)

        var type: Int {
            switch self {
            case .ascii: 2
            case .short: 3
            case .long: 4
            case .rational: 5
            }
        }

        var count: Int {
            if case .ascii(let text) = self { return text.utf8.count + 1 }
            return 1
        }

        var bytes: [UInt8] {
            switch self {
            case .ascii(let text): Array(text.utf8) + [0]
            case .short(let value): little16(value)
            case .long(let value): little32(value)
            case .rational(let numerator, let denominator): little32(numerator) + little32(denominator)
            }
        }
    }

    /// A little-endian TIFF: IFD0 (with a pointer to the EXIF IFD), then the EXIF IFD, each with its data after it.
    static func tiffBytes(ifd0: [(Int, Field)], exif: [(Int, Field)]) -> [UInt8] {
        func size(_ entries: [(Int, Field)]) -> Int {
            2 + 12 * entries.count + 4
                + entries.map { $0.1.bytes.count > 4 ? ($0.1.bytes.count + 1) & ~1 : 0 }
                .reduce(0, +)
        }
        func ifd(_ entries: [(Int, Field)], at offset: Int) -> [UInt8] {
            var table = little16(entries.count)
            var data: [UInt8] = []
            let dataStart = offset + 2 + 12 * entries.count + 4
            for (tag, field) in entries.sorted(by: { $0.0 < $1.0 }) {
                table += little16(tag) + little16(field.type) + little32(field.count)
                var bytes = field.bytes
                if bytes.count <= 4 {
                    table += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
                } else {
                    table += little32(dataStart + data.count)
                    if bytes.count % 2 == 1 { bytes.append(0) }
                    data += bytes
                }
            }
            return table + little32(0) + data
        }
        let exifOffset = 8 + size(ifd0 + [(0x8769, .long(0))])
        let first = ifd(ifd0 + [(0x8769, .long(exifOffset))], at: 8)
        return Array("II".utf8) + [42, 0] + little32(8) + first + ifd(exif, at: exifOffset)
    }

    static func little16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func little32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in typed {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        let length = UInt32(data.count)
        return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + typed
            + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: ~crc >> $0) }
    }
}
