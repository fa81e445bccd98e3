import Foundation
import TesseraAccounts
import TesseraCore
import TesseraPostgres
import TesseraSQLite
import TesseraTestSupport
import Testing

@testable import TesseraGalleries

/// Public and drop links in the link store, on both engines: kept and listed per gallery, found by slug
/// only while the gallery is not in Recently deleted, counted (opens, drops), rate-limited per hour, and gone
/// with their gallery (deleted for good) or the account that made them.
@Suite("Link store on both engines")
struct LinkStoreContractTests {
    struct World {
        let galleries: any GalleryStoring
        let links: any LinkStoring
        let accounts: any AccountStoring
        let ada = "u_ada"
    }

    private func withWorld(_ engine: Engine, _ body: @escaping @Sendable (World) async throws -> Void) async throws {
        let linker = GalleryStoreContractTests.Linker()
        switch engine {
        case .sqlite:
            let database = try AppDatabase.inMemory()
            try await body(
                try await Self.seeded(
                    World(
                        galleries: SQLiteGalleryStore(database: database, linker: linker),
                        links: SQLiteLinkStore(database: database), accounts: SQLiteAccountStore(database: database))))
        case .postgres:
            let server = try requirePostgres()
            try await TestPostgres.withRunningDatabase(on: server) { database in
                try await body(
                    try await Self.seeded(
                        World(
                            galleries: PostgresGalleryStore(database: database, linker: linker),
                            links: PostgresLinkStore(database: database),
                            accounts: PostgresAccountStore(database: database))))
            }
        }
    }

    private static func seeded(_ world: World) async throws -> World {
        try await world.accounts.insert(
            AccountRecord(
                account: Account(
                    id: AccountID(world.ada), name: AccountName(trusted: "ada"), isAdmin: true, createdAt: Date()),
                passwordHash: "x"))
        return world
    }

    static func link(
        _ gallery: GalleryID, _ kind: LinkKind = .view, at seconds: Double = 1_800_000_000, by account: String = "u_ada"
    ) -> GalleryLink {
        GalleryLink(
            id: .random(), gallery: gallery, kind: kind, slug: GalleryLink.randomSlug(),
            passwordHash: kind == .view ? "$2b$04$hash" : nil,
            expiresAt: Date(timeIntervalSince1970: seconds + 86_400), createdAt: Date(timeIntervalSince1970: seconds),
            createdBy: account, showItems: kind == .drop, perHour: 3)
    }

    @Test(arguments: Engine.allCases)
    func linksAreKeptListedFoundBySlugAndRevoked(engine: Engine) async throws {
        try await withWorld(engine) { world in
            let gallery = try await world.galleries.create(name: "Trip", owner: world.ada)
            let other = try await world.galleries.create(name: "Other", owner: world.ada)
            let older = Self.link(gallery.id)
            let newer = Self.link(gallery.id, .drop, at: 1_800_000_100)
            try await world.links.insertLink(older)
            try await world.links.insertLink(newer)
            try await world.links.insertLink(Self.link(other.id))

            #expect(try await world.links.links(of: gallery.id) == [newer, older], "newest first, as stored")
            #expect(try await world.links.link(id: older.id) == older)
            #expect(try await world.links.link(slug: newer.slug) == newer)
            #expect(try await world.links.link(slug: GalleryLink.randomSlug()) == nil)
            await #expect(throws: GalleryError.galleryNotFound("g_aaaaaaaaaaaaaaaaaaaa")) {
                try await world.links.insertLink(Self.link(GalleryID(unchecked: "g_aaaaaaaaaaaaaaaaaaaa")))
            }

            let moment = Date(timeIntervalSince1970: 1_800_000_500)
            try await world.links.recordOpen(of: older.id, at: moment)
            try await world.links.recordOpen(of: older.id, at: moment)
            try await world.links.recordDrop(of: newer.id)
            let opened = try #require(try await world.links.link(id: older.id))
            #expect(opened.opens == 2 && opened.lastOpenedAt == moment)
            #expect(try await world.links.link(id: newer.id)?.drops == 1)

            // In Recently deleted: not found by slug (a visitor sees nothing), still the owner's to list.
            _ = try await world.galleries.delete(gallery.id, ifRevision: nil)
            #expect(try await world.links.link(slug: older.slug) == nil)
            #expect(try await world.links.links(of: gallery.id).count == 2)
            _ = try await world.galleries.restore(gallery.id, ifRevision: nil)
            #expect(try await world.links.link(slug: older.slug)?.id == older.id)

            #expect(try await world.links.deleteLink(id: older.id))
            #expect(try await !world.links.deleteLink(id: older.id))
            #expect(try await world.links.link(slug: older.slug) == nil)

            // Deleted for good: its links go with it; the other gallery's stay.
            _ = try await world.galleries.deletePermanently(gallery.id, ifRevision: nil)
            #expect(try await world.links.link(id: newer.id) == nil)
            #expect(try await world.links.links(of: other.id).count == 1)
        }
    }

    @Test(arguments: Engine.allCases)
    func dropsAreRateLimitedPerLinkAndHour(engine: Engine) async throws {
        try await withWorld(engine) { world in
            let gallery = try await world.galleries.create(name: "Drops", owner: world.ada)
            let link = Self.link(gallery.id, .drop)
            let another = Self.link(gallery.id, .drop)
            try await world.links.insertLink(link)
            try await world.links.insertLink(another)
            let start = 1_800_000_000.0
            func take(_ link: GalleryLink, _ seconds: Double) async throws -> Int? {
                try await world.links.takeDrop(
                    of: link.id, perHour: 3, at: Date(timeIntervalSince1970: start + seconds))
            }
            #expect(try await take(link, 0) == nil)
            #expect(try await take(link, 10) == nil)
            #expect(try await take(link, 20) == nil)
            #expect(try await take(link, 600) == 3000, "the hour began with the first drop")
            #expect(try await take(another, 600) == nil, "each link its own")
            #expect(try await take(link, 3599.5) == 1)
            #expect(try await take(link, 3600) == nil, "a new hour")
            #expect(try await take(link, 3601) == nil)
        }
    }

    @Test(arguments: Engine.allCases)
    func aLinkSeesOnlyItsGallerysStoredCopiesAndGoesWithItsMaker(engine: Engine) async throws {
        try await withWorld(engine) { world in
            let gallery = try await world.galleries.create(name: "Mine", owner: world.ada)
            let other = try await world.galleries.create(name: "Other", owner: world.ada)
            _ = try await world.galleries.add(
                GalleryStoreContractTests.image(1, hash: String(repeating: "a", count: 64)), to: gallery.id, at: nil,
                ifRevision: nil)
            _ = try await world.galleries.add(
                GalleryStoreContractTests.image(2, hash: String(repeating: "b", count: 64)), to: other.id, at: nil,
                ifRevision: nil)
            let held = try await world.links.items(holding: String(repeating: "a", count: 64), in: gallery.id)
            #expect(held.count == 1)
            #expect(held.first.map { (try? JSONDecoder().decode(Item.self, from: Data($0.utf8))) != nil } == true)
            #expect(try await world.links.items(holding: String(repeating: "b", count: 64), in: gallery.id).isEmpty)

            let link = Self.link(gallery.id)
            try await world.links.insertLink(link)
            _ = try await world.galleries.handOver(from: world.ada, to: nil)
            #expect(try await world.accounts.remove(AccountID(world.ada)))
            #expect(try await world.links.link(id: link.id) == nil, "gone with the account that made it")
        }
    }
}
