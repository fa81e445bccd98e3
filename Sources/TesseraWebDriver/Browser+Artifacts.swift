import Foundation

/// What a test keeps or checks after the fact: screenshots and the page's console.
extension Browser {
    /// The visible part of the page as PNG bytes.
    public func screenshot() async throws -> Data {
        let base64 = try await session.get("screenshot").string ?? ""
        guard let png = Data(base64Encoded: base64) else {
            throw WebDriverError.unexpectedResponse(
                request: "GET screenshot", status: 200, body: "not base64: \(base64.prefix(80))")
        }
        return png
    }

    /// Writes a screenshot to `$TESSERA_UI_ARTIFACTS` (default `.build/ui-artifacts/` in the package) as
    /// `<name>.png`, prints where, and returns the file.
    @discardableResult
    public func saveScreenshot(named name: String) async throws -> URL {
        let folder = Self.artifactsFolder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let safeName = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
        let file = folder.appending(path: "\(safeName).png")
        try await screenshot().write(to: file)
        print("screenshot: \(file.path)")
        return file
    }

    public static var artifactsFolder: URL {
        if let folder = ProcessInfo.processInfo.environment["TESSERA_UI_ARTIFACTS"], !folder.isEmpty {
            return URL(filePath: folder, directoryHint: .isDirectory)
        }
        // This file is <root>/Sources/TesseraWebDriver/Browser+Artifacts.swift.
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appending(path: ".build/ui-artifacts", directoryHint: .isDirectory)
    }

    /// Every console entry of this session so far, oldest first: `console.*` calls, uncaught exceptions (level
    /// SEVERE, message "… Uncaught Error: …") and failed resource loads.
    public func consoleEntries() async throws -> [(level: String, message: String)] {
        // The legacy log endpoint: W3C has none. Chromedriver empties its buffer on every read.
        let fresh = try await session.post("se/log", ["type": "browser"]).array ?? []
        let entries = fresh.map { (level: $0["level"]?.string ?? "", message: $0["message"]?.string ?? "") }
        return consoleLog.withLock { log in
            log += entries
            return log
        }
    }

    /// The console entries at level SEVERE: `console.error` calls and uncaught exceptions.
    public func consoleErrors() async throws -> [(level: String, message: String)] {
        try await consoleEntries().filter { $0.level == "SEVERE" }
    }
}
