import Foundation
import Testing

@testable import TesseraBackup

/// The archive's headers and the manifest's rule for what a backup may write (the whole command is tested as
/// a process in TesseraCLITests).
@Suite("Backup format")
struct BackupFormatTests {
    @Test(arguments: [0, 1, 511, 512, 25 << 20, 0o77777777776, 9 << 30])
    func aHeaderReadsBackAsWritten(size: Int) throws {
        let name = "gallery-images/ab/" + String(repeating: "ab", count: 32)
        let header = TarArchive.header(name: name, size: size, mode: 0o644, modified: Date(timeIntervalSince1970: 1e9))
        #expect(header.count == 512)
        let entry = try #require(try TarArchive.parse(header))
        #expect(entry.name == name && entry.size == size && entry.isFile)
    }

    @Test func aChangedHeaderIsRefusedAndZerosEndTheArchive() throws {
        var header = TarArchive.header(name: "tessera.sqlite", size: 4096, mode: 0o600, modified: Date())
        header[130] ^= 0x01
        #expect(throws: TarArchive.TarError.self) { try TarArchive.parse(header) }
        #expect(try TarArchive.parse(Data(count: 512)) == nil)
    }

    @Test func aBackupMayNameOnlyWhatADataFolderHolds() {
        let hash = String(repeating: "0f", count: 32)
        for allowed in ["tessera.sqlite", "image-secret", "gallery-images/0f/\(hash)"] {
            #expect(BackupManifest.isAllowed(allowed), "\(allowed)")
        }
        for refused in [
            "../tessera.sqlite", "/etc/passwd", "gallery-images/0f/../../x", "gallery-images/ab/\(hash)",
            "gallery-images/0F/\(hash.uppercased())", "gallery-images/0f/\(hash)/x", "image-cache/x", "",
        ] {
            #expect(!BackupManifest.isAllowed(refused), "\(refused)")
        }
    }
}
