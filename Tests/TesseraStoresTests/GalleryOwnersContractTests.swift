import Foundation
import TesseraAccounts
import TesseraCore
import TesseraPostgres
import TesseraSQLite
import TesseraTestSupport
import Testing

@testable import TesseraGalleries

/// Owners and members in the gallery store, on both engines: who sees which gallery in lists and holdings,
/// what role each account has, members added, changed and removed, galleries nobody owns adopted, and a
/// removed account's galleries handed over to Recently deleted.
@Suite("Gallery owners and members on both engines")
struct GalleryOwnersContractTests {
    /// The store and two accounts in one database: `ada` (an admin) and `bob`, and a third, `cy`.
    struct World {
        let store: any GalleryStoring
        let accounts: any AccountStoring
        let ada = "u_ada"
        let bob = "u_bob"
        let cy = "u_cy"
    }

    private func withWorld(
        _ engine: Engine, changes: ChangeRecord = ChangeRecord(),
        _ body: @escaping @Sendable (World) async throws -> Void
    ) async throws {
        let onChange: @Sendable (GalleryID, GalleryChange) -> Void = { _, change in changes.append(change) }
        let linker = GalleryStoreContractTests.Linker()
        switch engine {
        case .sqlite:
            let database = try AppDatabase.inMemory()
            try await body(
                try await Self.seeded(
                    SQLiteGalleryStore(database: database, linker: linker, onChange: onChange),
                    SQLiteAccountStore(database: database)))
        case .postgres:
            let server = try requirePostgres()
            try await TestPostgres.withRunningDatabase(on: server) { database in
                try await body(
                    try await Self.seeded(
                        PostgresGalleryStore(database: database, linker: linker, onChange: onChange),
                        PostgresAccountStore(database: database)))
            }
        }
    }

    private static func seeded(_ store: any GalleryStoring, _ accounts: any AccountStoring) async throws -> World {
        let world = World(store: store, accounts: accounts)
        for (id, name, admin) in [(world.ada, "ada", true), (world.bob, "bob", false), (world.cy, "cy", false)] {
            try await accounts.insert(
                AccountRecord(
                    account: Account(
                        id: AccountID(id), name: AccountName(trusted: name), isAdmin: admin, createdAt: Date()),
                    passwordHash: "x"))
        }
        return world
    }

    @Test(arguments: Engine.allCases)
    func eachAccountSeesWhatItOwnsAndWhatIsSharedWithIt(engine: Engine) async throws {
        try await withWorld(engine) { world in
            let store = world.store
            let mine = try await store.create(name: "Ada's", owner: world.ada)
            let bobs = try await store.create(name: "Bob's", owner: world.bob)
            let nobodys = try await store.create(name: "Before accounts", owner: nil)

            #expect(try await store.list(deleted: false, for: world.ada).map(\.id) == [mine.id])
            #expect(try await store.list(deleted: false, for: world.bob).map(\.id) == [bobs.id])
            #expect(Set(try await store.list(deleted: false).map(\.id)) == [mine.id, bobs.id, nobodys.id])
            #expect(try await store.access(of: world.bob, to: mine.id) == nil)
            #expect(try await store.access(of: world.ada, to: mine.id) == GalleryAccess(role: .owner, owner: "ada"))
            #expect(try await store.access(of: world.ada, to: nobodys.id) == nil)
            #expect(try await store.access(of: world.ada, to: GalleryID.random()) == nil)

            try await store.setMember(named: "Bob", role: .viewer, in: mine.id)
            #expect(try await store.access(of: world.bob, to: mine.id) == GalleryAccess(role: .viewer, owner: "ada"))
            try await store.setMember(named: "bob", role: .editor, in: mine.id)
            #expect(
                try await store.access(of: world.bob, to: mine.id)?.role == .editor, "adding again changes the role")
            #expect(try await store.members(of: mine.id) == [GalleryMember(name: "bob", role: .editor)])

            let listed = try await store.list(deleted: false, for: world.bob)
            #expect(listed.map(\.id) == [bobs.id, mine.id])
            #expect(listed.map(\.role) == [.owner, .editor])
            #expect(listed.map(\.owner) == ["bob", "ada"])
            #expect(try await store.list(deleted: false).allSatisfy { $0.owner == nil && $0.role == nil })

            await #expect(throws: GalleryError.accountNotFound("nobody")) {
                try await store.setMember(named: "nobody", role: .viewer, in: mine.id)
            }
            await #expect(throws: GalleryError.self) {
                try await store.setMember(named: "ada", role: .viewer, in: mine.id)
            }
            await #expect(throws: GalleryError.memberNotFound("cy")) {
                try await store.removeMember(named: "cy", from: mine.id)
            }

            // In its owner's Recently deleted, a gallery is the owner's alone.
            _ = try await store.delete(mine.id, ifRevision: nil)
            #expect(try await store.access(of: world.bob, to: mine.id) == nil)
            #expect(try await store.list(deleted: true, for: world.bob).isEmpty)
            #expect(try await store.list(deleted: true, for: world.ada).map(\.id) == [mine.id])
            _ = try await store.restore(mine.id, ifRevision: nil)

            try await store.removeMember(named: "bob", from: mine.id)
            #expect(try await store.access(of: world.bob, to: mine.id) == nil)
            #expect(try await store.members(of: mine.id).isEmpty)
        }
    }

    @Test(arguments: Engine.allCases)
    func holdingsNameOnlyGalleriesTheAccountMayRead(engine: Engine) async throws {
        try await withWorld(engine) { world in
            let store = world.store
            let image = GalleryStoreContractTests.image(1)
            let itemID = image.item.id.description
            let mine = try await store.create(name: "Ada's", owner: world.ada)
            let bobs = try await store.create(name: "Bob's", owner: world.bob)
            _ = try await store.add(image, to: mine.id, at: nil, ifRevision: nil)
            _ = try await store.add(image, to: bobs.id, at: nil, ifRevision: nil)

            #expect(try await store.galleries(holding: [itemID], for: world.ada)[itemID]?.map(\.id) == [mine.id])
            #expect(try await store.galleries(holding: [itemID], for: world.cy).isEmpty)
            try await store.setMember(named: "cy", role: .viewer, in: bobs.id)
            #expect(try await store.galleries(holding: [itemID], for: world.cy)[itemID]?.map(\.id) == [bobs.id])
            #expect(Set(try await store.galleries(holding: [itemID])[itemID]?.map(\.id) ?? []) == [mine.id, bobs.id])
        }
    }

    @Test(arguments: Engine.allCases)
    func ownerlessGalleriesAreAdoptedAndARemovedOwnersGalleriesHandedOver(engine: Engine) async throws {
        let changes = ChangeRecord()
        try await withWorld(engine, changes: changes) { world in
            let store = world.store
            let old = try await store.create(name: "Before accounts", owner: nil)
            #expect(try await store.adoptOwnerless(by: world.ada) == 1)
            #expect(try await store.access(of: world.ada, to: old.id)?.role == .owner)
            #expect(try await store.adoptOwnerless(by: world.bob) == 0)

            let kept = try await store.create(name: "Bob's", owner: world.bob)
            let binned = try await store.create(name: "Bob's old", owner: world.bob)
            _ = try await store.delete(binned.id, ifRevision: nil)
            try await store.setMember(named: "bob", role: .editor, in: old.id)
            try await store.setMember(named: "ada", role: .viewer, in: kept.id)
            try await store.setMember(named: "cy", role: .viewer, in: kept.id)

            #expect(try await store.handOver(from: world.bob, to: world.ada) == 2)
            #expect(try await store.list(deleted: false, for: world.bob).isEmpty)
            #expect(try await store.access(of: world.bob, to: old.id) == nil, "memberships end")
            let deleted = try await store.list(deleted: true, for: world.ada)
            #expect(Set(deleted.map(\.id)) == [kept.id, binned.id], "in the heir's Recently deleted")
            #expect(deleted.allSatisfy { $0.owner == "ada" && $0.deletedAt != nil })
            #expect(try await store.members(of: kept.id) == [GalleryMember(name: "cy", role: .viewer)])
            // Nothing refers to bob any more: the account can go.
            #expect(try await world.accounts.remove(AccountID(world.bob)))
            #expect(try await store.gallery(kept.id, items: true).name == "Bob's")
        }
        #expect(
            changes.kinds.filter { $0 == "deleted" }.count == 2, "the binned one once, the kept one when handed over")
    }
}
