/// A regular file found under a library folder.
struct FoundFile: Sendable, Hashable {
    /// Below the root, `/`-separated.
    var path: String
    /// `root/path`.
    var absolutePath: String
    var stamp: FileStamp
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
            for name in names where !name.hasPrefix(".") {
                let path = folder.isEmpty ? name : folder + "/" + name
                let absolute = join(absoluteFolder, name)
                guard let status = FileSystem.status(absolute, followLinks: false) else { continue }
                switch status.kind {
                case .directory:
                    subfolders.append(path)
                case .file:
                    listing.files.append(FoundFile(path: path, absolutePath: absolute, stamp: status.stamp))
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

    private func join(_ folder: String, _ name: String) -> String {
        folder == "/" ? "/" + name : folder + "/" + name
    }
}
