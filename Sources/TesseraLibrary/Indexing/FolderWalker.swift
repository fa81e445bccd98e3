/// A regular file found under a library folder.
struct FoundFile: Sendable, Hashable {
    /// Below the root, `/`-separated.
    var path: String
    /// `root/path`.
    var absolutePath: String
    var stamp: FileStamp
    /// The first line of the nearest `.tessera-license` at or above the file's folder (docs/licences.md).
    var folderLicense: String? = nil
}

/// Lists every regular file under a library folder, hidden files and folders left out.
///
/// Symlinks are never followed. One that resolves inside the folder leads to a file or folder the walk reaches
/// by its own path anyway (so each photo is indexed once, under its real name); one that resolves outside is
/// refused with a warning, so a link can never bring files into the library that the user did not put there.
struct FolderWalker {
    /// A real path (symlinks resolved).
    let root: String

    struct Listing: Sendable {
        var files: [FoundFile] = []
        var warnings: [IndexWarning] = []
    }

    func walk(isCancelled: () -> Bool = { false }) -> Listing {
        var listing = Listing()
        var pending = [""]
        var licenses: [String: String] = [:]
        while let folder = pending.popLast() {
            if isCancelled() { break }
            let absoluteFolder = folder.isEmpty ? root : join(root, folder)
            let names: [String]
            switch FileSystem.entries(of: absoluteFolder) {
            case .success(let entries): names = entries.sorted()
            case .failure(let error):
                listing.warnings.append(IndexWarning(path: folder, problem: .unreadableFolder(error.message)))
                continue
            }
            var subfolders: [String] = []
            let license =
                names.contains(Self.licenseFileName)
                ? Self.readLicense(join(absoluteFolder, Self.licenseFileName)) : licenses[Self.parent(of: folder)]
            licenses[folder] = license
            for name in names where !name.hasPrefix(".") {
                let path = folder.isEmpty ? name : folder + "/" + name
                let absolute = join(absoluteFolder, name)
                guard let status = FileSystem.status(absolute, followLinks: false) else { continue }
                switch status.kind {
                case .directory:
                    subfolders.append(path)
                case .file:
                    listing.files.append(
                        FoundFile(path: path, absolutePath: absolute, stamp: status.stamp, folderLicense: license))
                case .symlink:
                    guard let target = FileSystem.realPath(absolute) else {
                        listing.warnings.append(IndexWarning(path: path, problem: .brokenLink))
                        continue
                    }
                    if !FileSystem.isInside(target, root) {
                        listing.warnings.append(IndexWarning(path: path, problem: .linkOutsideLibrary(target: target)))
                    }
                case .other:
                    continue
                }
            }
            // Popped from the end: pushing in reverse keeps the walk in name order.
            pending.append(contentsOf: subfolders.reversed())
        }
        return listing
    }

    /// A folder's default licence for the photos in it and below that embed none.
    static let licenseFileName = ".tessera-license"

    /// The file's first non-blank line, from at most 1 KiB; `nil` when unreadable or blank.
    static func readLicense(_ path: String) -> String? {
        guard case .success(let data) = FileSystem.head(of: path, count: 1024) else { return nil }
        let line = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
        return line
    }

    static func parent(of folder: String) -> String {
        folder.lastIndex(of: "/").map { String(folder[..<$0]) } ?? ""
    }

    private func join(_ folder: String, _ name: String) -> String {
        folder == "/" ? "/" + name : folder + "/" + name
    }
}
