import Foundation
import TesseraCore

#if canImport(Glibc)
    import Glibc
#endif

/// One file of the disk image cache: the entry's bytes, then a 16-byte trailer (a magic number, the bytes'
/// length and a 64-bit checksum of them), written without `fsync`.
///
/// A cache may lose an entry but must never serve a wrong one. Flushing every file cost about a millisecond of
/// CPU per write on the bench machine, a third of the proxy's work while a search's thumbnails were made
/// (docs/images.md, "The disk cache without fsync"), so a file is written to a temporary name and renamed
/// without it, and a read checks the trailer instead: after a crash a renamed file may be short, empty or hold
/// zeros or another file's old blocks, and none of those match the length and checksum it ends with. Nothing
/// but the process writes these files, so the checksum only has to catch accidents, not forgeries.
enum CacheFile {
    static let trailerLength = 16
    /// "TIC1" little-endian: Tessera image cache, format 1. Files of another format are misses.
    private static let magic: UInt32 = 0x3143_4954

    /// Writes `data` and its trailer at `path` through a temporary file in the same folder, created (with the
    /// folder, if it is missing) by POSIX calls: Foundation's file APIs cost more than the write here.
    static func write(_ data: Data, to path: String) throws(CacheFileError) {
        guard data.count <= Int(UInt32.max) else { throw CacheFileError(operation: "size", path: path, code: EFBIG) }
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        let temporary =
            folder + "/" + AtomicFile.temporaryPrefix + String(UInt64.random(in: .min ... .max), radix: 16)
        var descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor < 0 && errno == ENOENT {
            if mkdir(folder, 0o755) != 0 && errno != EEXIST { throw .init(operation: "mkdir", path: folder) }
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { throw .init(operation: "open", path: temporary) }
        let trailer = Self.trailer(of: data)
        let written =
            data.withUnsafeBytes { writeAll(descriptor, $0) } && trailer.withUnsafeBytes { writeAll(descriptor, $0) }
        let failure = written ? nil : CacheFileError(operation: "write", path: temporary)
        close(descriptor)
        if let failure {
            unlink(temporary)
            throw failure
        }
        guard rename(temporary, path) == 0 else {
            let failure = CacheFileError(operation: "rename", path: path)
            unlink(temporary)
            throw failure
        }
    }

    /// The entry's bytes if `file` (a whole cache file as read) ends with a trailer that matches them.
    static func payload(of file: Data) -> Data? {
        guard file.count >= trailerLength else { return nil }
        let length = file.count - trailerLength
        let matches = file.withUnsafeBytes { bytes in
            bytes.loadUnaligned(fromByteOffset: length, as: UInt32.self) == magic.littleEndian
                && Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: length + 4, as: UInt32.self)))
                    == length
                && UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: length + 8, as: UInt64.self))
                    == checksum(UnsafeRawBufferPointer(rebasing: bytes[..<length]))
        }
        return matches ? file.prefix(length) : nil
    }

    static func trailer(of data: Data) -> [UInt8] {
        var trailer = [UInt8](repeating: 0, count: trailerLength)
        let sum = data.withUnsafeBytes { checksum($0) }
        trailer.withUnsafeMutableBytes { out in
            out.storeBytes(of: magic.littleEndian, toByteOffset: 0, as: UInt32.self)
            out.storeBytes(of: UInt32(data.count).littleEndian, toByteOffset: 4, as: UInt32.self)
            out.storeBytes(of: sum.littleEndian, toByteOffset: 8, as: UInt64.self)
        }
        return trailer
    }

    /// A word-at-a-time multiply-and-shift hash seeded with the length: a flipped, zeroed or missing byte changes it.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = mix(hash, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        var tail: UInt64 = 0
        for index in offset..<bytes.count { tail |= UInt64(bytes[index]) << (8 * UInt64(index - offset)) }
        return mix(hash, tail &+ 1)
    }

    private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        var value = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
        value ^= value >> 31
        return value
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }
}

/// A cache file that could not be written: logged, and the entry is not kept.
struct CacheFileError: Error, CustomStringConvertible {
    let operation: String
    let path: String
    let code: Int32

    init(operation: String, path: String, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
}
