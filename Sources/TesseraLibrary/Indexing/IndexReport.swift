/// Something the indexer could not index, with the reason.
public struct IndexWarning: Sendable, Hashable, CustomStringConvertible {
    public enum Problem: Sendable, Hashable {
        /// A symlink that resolves outside the library folder: never followed, so a link cannot expose
        /// files the user did not put in the library.
        case linkOutsideLibrary(target: String)
        /// A symlink to nothing.
        case brokenLink
        /// The file starts like an image but libvips could not read it (truncated, corrupt, too large).
        case unreadableImage(String)
        /// The file could not be opened.
        case unreadableFile(String)
        /// The folder could not be listed.
        case unreadableFolder(String)
    }

    /// Below the library folder.
    public var path: String
    public var problem: Problem

    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    /// Whether this was a file left out (rather than a folder that could not be listed).
    public var isSkippedFile: Bool {
        if case .unreadableFolder = problem { return false }
        return true
    }

    /// The reason in a few words, to group warnings in the summary: `2 unreadable images`.
    public func reason(count: Int) -> String {
        let s = count == 1 ? "" : "s"
        return switch problem {
        case .linkOutsideLibrary: "\(count) link\(s) outside the library"
        case .brokenLink: "\(count) broken link\(s)"
        case .unreadableImage: "\(count) unreadable image\(s)"
        case .unreadableFile: "\(count) unreadable file\(s)"
        case .unreadableFolder: "\(count) unreadable folder\(s)"
        }
    }

    /// Groups warnings of one kind, whatever their detail.
    var kind: Int {
        switch problem {
        case .linkOutsideLibrary: 0
        case .brokenLink: 1
        case .unreadableImage: 2
        case .unreadableFile: 3
        case .unreadableFolder: 4
        }
    }

    public var description: String {
        let name = path.isEmpty ? "the library folder" : path
        switch problem {
        case .linkOutsideLibrary(let target):
            return "\(name): links to \(target), outside the library; not indexed"
        case .brokenLink:
            return "\(name): a link to nothing; not indexed"
        case .unreadableImage(let detail):
            return "\(name): not a readable image (\(detail)); skipped"
        case .unreadableFile(let detail):
            return "\(name): could not be read (\(detail)); skipped"
        case .unreadableFolder(let detail):
            return "\(name): folder could not be read (\(detail)); its photos are not indexed"
        }
    }
}

/// How far an indexing run is.
public struct IndexProgress: Sendable, Hashable {
    /// Files read (or found not to be images) so far.
    public var done: Int
    /// Files to read: new and changed ones; unchanged ones are not read again.
    public var total: Int
    public var elapsed: Duration

    public init(done: Int, total: Int, elapsed: Duration) {
        self.done = done
        self.total = total
        self.elapsed = elapsed
    }

    public var filesPerSecond: Double {
        let seconds = elapsed.seconds
        return seconds > 0 ? Double(done) / seconds : 0
    }

    /// Time left at the rate so far; `nil` before there is a rate.
    public var remaining: Duration? {
        let rate = filesPerSecond
        guard rate > 0, done > 0 else { return nil }
        return .milliseconds(Int64(Double(total - done) / rate * 1000))
    }

    /// `120/500 files · 85 files/s · about 5 s left`.
    public var line: String {
        var parts = ["\(done)/\(total) files"]
        if done > 0 { parts.append("\(Self.rate(filesPerSecond)) files/s") }
        if let remaining, done < total { parts.append("about \(Self.duration(remaining)) left") }
        return parts.joined(separator: " · ")
    }

    static func rate(_ value: Double) -> String {
        value >= 10 ? String(Int(value.rounded())) : String((value * 10).rounded() / 10)
    }

    static func duration(_ duration: Duration) -> String {
        let seconds = Int(duration.seconds.rounded(.up))
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min \(seconds % 60) s" }
        return "\(seconds / 3600) h \(seconds / 60 % 60) min"
    }
}

/// What the indexer reports as it goes.
public enum IndexEvent: Sendable, Hashable {
    /// The folder is listed: `files` files, `toRead` of them new or changed.
    case listed(files: Int, toRead: Int)
    case progress(IndexProgress)
    case warning(IndexWarning)
}

/// What an indexing run did.
public struct IndexSummary: Sendable, Hashable {
    /// The library folder, as a real path.
    public var root: String
    public var added = 0
    public var updated = 0
    /// Same size and modification time as when last indexed: not read again.
    public var unchanged = 0
    /// Rows dropped: files deleted, or no longer readable images.
    public var removed = 0
    /// Files that are not images (by their first bytes); ignored.
    public var notImages = 0
    /// Files left out and folders not read, with reasons.
    public var warnings: [IndexWarning] = []
    /// Stopped early (Ctrl-C or cancellation); what was done is saved, and the next run carries on.
    public var interrupted = false
    public var elapsed: Duration = .zero
    /// Files opened and read (images or not) during the run.
    public var filesRead = 0

    public init(root: String) {
        self.root = root
    }

    public var skipped: Int { warnings.filter(\.isSkippedFile).count }

    /// `6 added, 0 updated, 2 unchanged, 1 removed, 2 skipped (1 unreadable image, 1 link outside the library)`.
    public var line: String {
        var kinds: [Int: (example: IndexWarning, count: Int)] = [:]
        for warning in warnings where warning.isSkippedFile {
            kinds[warning.kind, default: (warning, 0)].count += 1
        }
        let reasons = kinds.sorted { $0.key < $1.key }.map { $0.value.example.reason(count: $0.value.count) }
        var text = "\(added) added, \(updated) updated, \(unchanged) unchanged, \(removed) removed, \(skipped) skipped"
        if !reasons.isEmpty { text += " (\(reasons.joined(separator: ", ")))" }
        let folders = warnings.count - skipped
        if folders > 0 { text += "; \(folders) folder\(folders == 1 ? "" : "s") could not be read" }
        return text
    }

    /// Files read per second over the whole run.
    public var filesPerSecond: Double {
        let seconds = elapsed.seconds
        return seconds > 0 ? Double(filesRead) / seconds : 0
    }
}
