import Foundation
import GRDB
import TesseraCore
import TesseraGalleries

/// Galleries and their items in SQLite, behind `GalleryService`: the embedded engine of `GalleryStoring`.
/// Every change is one write transaction that checks `If-Match`, bumps the gallery's revision and, once
/// committed, tells `onChange` (on the writer's queue, so changes are told in commit order).
///
/// Split by concern: reads (`+Reading`), changes (`+Writing`), item order (`+Ordering`), rows to API
/// values (`+Mapping`).
public final class SQLiteGalleryStore: GalleryStoring {
    /// Writes go through `database.write` (counted in its metrics); reads straight to the writer.
    let database: AppDatabase
    let writer: any DatabaseWriter
    let linker: any ImageLinking
    let onChange: @Sendable (GalleryID, GalleryChange) -> Void
    let now: @Sendable () -> Double

    public init(
        database: AppDatabase, linker: any ImageLinking,
        onChange: @escaping @Sendable (GalleryID, GalleryChange) -> Void = { _, _ in },
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.database = database
        self.writer = database.writer
        self.linker = linker
        self.onChange = onChange
        self.now = now
    }

    /// Runs a database call, turning what it throws into a `GalleryError` (`storage` unless it is one).
    func run<T>(_ body: () async throws -> T) async throws(GalleryError) -> T {
        try await GalleryError.fromStore(body)
    }
}
