import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What re-indexing compares to tell whether a file changed: its size and modification time.
public struct FileStamp: Sendable, Hashable {
    public var size: Int64
    /// Nanoseconds since 1970.
    public var modifiedNanoseconds: Int64

    public init(size: Int64, modifiedNanoseconds: Int64) {
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
    }

    public var modified: Date { Date(timeIntervalSince1970: Double(modifiedNanoseconds) / 1e9) }
}

/// The few POSIX calls the library needs, with Foundation's slow paths (attribute dictionaries) left out.
enum FileSystem {
    enum Kind: Sendable, Equatable {
        case file, directory, symlink, other
    }

    struct Status: Sendable {
        var kind: Kind
        var stamp: FileStamp
    }

    /// `lstat` (`followLinks: false`) or `stat`; `nil` when the path cannot be examined.
    static func status(_ path: String, followLinks: Bool) -> Status? {
        var info = stat()
        let result = followLinks ? stat(path, &info) : lstat(path, &info)
        guard result == 0 else { return nil }
        let kind: Kind
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .file
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symlink
        default: kind = .other
        }
        #if canImport(Darwin)
            let time = info.st_mtimespec
        #else
            let time = info.st_mtim
        #endif
        let nanoseconds = Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        return Status(kind: kind, stamp: FileStamp(size: Int64(info.st_size), modifiedNanoseconds: nanoseconds))
    }

    /// The absolute path with every symlink, `.` and `..` resolved; `nil` when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path` is `folder` or lies beneath it. Both must already be real paths.
    static func isInside(_ path: String, _ folder: String) -> Bool {
        if folder == "/" { return path.hasPrefix("/") }
        return path == folder || path.hasPrefix(folder + "/")
    }

    /// Up to `count` bytes from the start of the file, or why it could not be read.
    static func head(of path: String, count: Int) -> Result<Data, SystemError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(SystemError(code: errno)) }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: count)
        let got = buffer.withUnsafeMutableBytes { bytes in read(descriptor, bytes.baseAddress, count) }
        guard got >= 0 else { return .failure(SystemError(code: errno)) }
        return .success(Data(buffer[0..<got]))
    }

    /// The entries of a folder, or the reason it could not be read.
    static func entries(of path: String) -> Result<[String], SystemError> {
        guard let directory = opendir(path) else {
            return .failure(SystemError(code: errno))
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return .success(names)
    }
}

/// A failed system call's `errno`.
struct SystemError: Error, Sendable {
    var code: Int32

    /// `strerror`'s sentence: "Permission denied".
    var message: String { String(cString: strerror(code)) }
}
