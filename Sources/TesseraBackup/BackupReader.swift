import Crypto
import Foundation

/// Reads a backup's archive in order, entry by entry, never more than a piece of one file in memory.
struct BackupReader {
    private let handle: FileHandle
    let path: String
    /// Where the next read starts, for saying where a backup is damaged.
    private(set) var offset = 0

    init(_ file: URL) throws(BackupError) {
        do {
            handle = try FileHandle(forReadingFrom: file)
        } catch {
            throw .read(path: file.path, reason: error.localizedDescription)
        }
        path = file.path
    }

    func close() {
        try? handle.close()
    }

    /// The next entry's header; `nil` at the archive's end marker.
    mutating func next() throws(BackupError) -> TarArchive.Entry? {
        let header = try read(TarArchive.block)
        guard !header.isEmpty else { throw damaged("it ends early, without the end of the archive (cut short?)") }
        guard header.count == TarArchive.block else { throw damaged("it ends in the middle of a header (cut short?)") }
        do throws(TarArchive.TarError) {
            return try TarArchive.parse(header)
        } catch {
            switch error {
            case .reason(let reason): throw damaged("\(reason), at byte \(offset - header.count)")
            }
        }
    }

    /// The whole of an entry of `size` bytes (for the small ones).
    mutating func data(size: Int) throws(BackupError) -> Data {
        let data = try read(size)
        guard data.count == size else { throw damaged("it ends in the middle of a file (cut short?)") }
        try skipPadding(after: size)
        return data
    }

    /// Copies an entry of `size` bytes to `out`, returning its SHA-256.
    mutating func copy(size: Int, to out: FileHandle, name: String) throws(BackupError) -> String {
        var hasher = SHA256()
        var left = size
        while left > 0 {
            let piece = try read(min(BackupFiles.chunk, left))
            guard !piece.isEmpty else { throw damaged("it ends in the middle of \(name) (cut short?)") }
            hasher.update(data: piece)
            do {
                try out.write(contentsOf: piece)
            } catch {
                throw .write(path: name, reason: error.localizedDescription)
            }
            left -= piece.count
        }
        try skipPadding(after: size)
        return BackupFiles.hex(hasher.finalize())
    }

    func damaged(_ reason: String) -> BackupError {
        .damaged(path: path, reason: reason)
    }

    private mutating func skipPadding(after size: Int) throws(BackupError) {
        let padding = (TarArchive.block - size % TarArchive.block) % TarArchive.block
        guard padding > 0 else { return }
        guard try read(padding).count == padding else { throw damaged("it ends early (cut short?)") }
    }

    /// Up to `count` bytes; fewer only at the end of the file.
    private mutating func read(_ count: Int) throws(BackupError) -> Data {
        var data = Data()
        do {
            while data.count < count, let piece = try handle.read(upToCount: count - data.count), !piece.isEmpty {
                data.append(piece)
            }
        } catch {
            throw .read(path: path, reason: error.localizedDescription)
        }
        offset += data.count
        return data
    }
}
