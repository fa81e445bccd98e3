import Foundation
import TesseraAccounts
import TesseraPostgres
import TesseraSQLite
import TesseraTestSupport
import Testing

/// `AccountStoring` on both engines: the same users, sessions, tokens and sign-in back-off, whichever
/// database holds them.
@Suite("Account store on both engines")
struct AccountStoreContractTests {
    private func withStore(_ engine: Engine, _ body: @escaping @Sendable (any AccountStoring) async throws -> Void)
        async throws
    {
        switch engine {
        case .sqlite:
            try await body(SQLiteAccountStore(database: try AppDatabase.inMemory()))
        case .postgres:
            let server = try requirePostgres()
            try await TestPostgres.withRunningDatabase(on: server) { database in
                try await body(PostgresAccountStore(database: database))
            }
        }
    }

    private static let start = Date(timeIntervalSince1970: 1_800_000_000)

    private static func record(_ name: String, admin: Bool = false) throws -> AccountRecord {
        AccountRecord(
            account: Account(
                id: AccountID("u_\(name)"), name: try AccountName(name), isAdmin: admin, createdAt: start),
            passwordHash: "hash-of-\(name)")
    }

    @Test(arguments: Engine.allCases)
    func accountsAreAddedFoundListedAndNamesAreUnique(engine: Engine) async throws {
        try await withStore(engine) { store in
            try await store.insert(Self.record("zoe"))
            try await store.insert(Self.record("ada", admin: true))
            await #expect(throws: AccountError.self) { try await store.insert(Self.record("ada")) }
            let ada = try #require(try await store.account(named: AccountName("ADA")))
            #expect(ada.account.isAdmin && ada.passwordHash == "hash-of-ada" && ada.account.createdAt == Self.start)
            #expect(try await store.account(id: AccountID("u_zoe"))?.name.value == "zoe")
            #expect(try await store.account(named: AccountName("nobody")) == nil)
            #expect(try await store.accounts().map(\.name.value) == ["ada", "zoe"])
            #expect(try await store.setAdmin(true, of: AccountID("u_zoe")))
            #expect(try await store.account(id: AccountID("u_zoe"))?.isAdmin == true)
            #expect(try await !store.setAdmin(true, of: AccountID("u_nobody")))
        }
    }

    @Test(arguments: Engine.allCases)
    func aNewPasswordEndsTheSessionsAndRemovingTakesSessionsAndTokens(engine: Engine) async throws {
        try await withStore(engine) { store in
            let ada = try Self.record("ada")
            try await store.insert(ada)
            let id = ada.account.id
            try await store.insertSession(
                SessionRecord(hash: "s1", accountID: id, createdAt: Self.start, lastSeenAt: Self.start))
            try await store.insertSession(
                SessionRecord(hash: "s2", accountID: id, createdAt: Self.start, lastSeenAt: Self.start))
            #expect(try await store.session(hash: "s1")?.account.name.value == "ada")
            #expect(try await store.setPassword("new-hash", of: id))
            #expect(try await store.account(named: ada.account.name)?.passwordHash == "new-hash")
            #expect(try await store.session(hash: "s1") == nil)
            #expect(try await store.session(hash: "s2") == nil)

            try await store.insertSession(
                SessionRecord(hash: "s3", accountID: id, createdAt: Self.start, lastSeenAt: Self.start))
            let token = AccessTokenInfo(id: "t_1", name: "cli", scope: .read, createdAt: Self.start, lastUsedAt: nil)
            try await store.insertToken(TokenRecord(info: token, accountID: id, secretHash: "secret-1"))
            #expect(try await store.remove(id))
            #expect(try await !store.remove(id))
            #expect(try await store.session(hash: "s3") == nil)
            #expect(try await store.token(secretHash: "secret-1") == nil)
            #expect(try await store.accounts().isEmpty)
        }
    }

    @Test(arguments: Engine.allCases)
    func sessionsAreTouchedEndedOneByOneOrAllAndExpiredOnesDropped(engine: Engine) async throws {
        try await withStore(engine) { store in
            let ada = try Self.record("ada")
            let bob = try Self.record("bob")
            try await store.insert(ada)
            try await store.insert(bob)
            let later = Self.start.addingTimeInterval(600)
            for (hash, owner) in [("a1", ada), ("a2", ada), ("b1", bob)] {
                try await store.insertSession(
                    SessionRecord(
                        hash: hash, accountID: owner.account.id, createdAt: Self.start, lastSeenAt: Self.start))
            }
            try await store.touchSession(hash: "a1", at: later)
            try await store.touchSession(hash: "a1", at: Self.start)  // never backwards
            #expect(try await store.session(hash: "a1")?.session.lastSeenAt == later)
            #expect(try await store.session(hash: "a1")?.session.createdAt == Self.start)
            try await store.deleteSession(hash: "a1")
            #expect(try await store.session(hash: "a1") == nil)
            #expect(try await store.deleteSessions(of: ada.account.id) == 1)
            #expect(try await store.session(hash: "b1") != nil, "another account's session stays")
            // Seen before `seenBefore`: dropped.
            #expect(try await store.deleteExpiredSessions(createdBefore: Self.start, seenBefore: later) == 1)
            #expect(try await store.session(hash: "b1") == nil)
        }
    }

    @Test(arguments: Engine.allCases)
    func tokensAreListedFoundTouchedAndRevokedOnlyByTheirOwner(engine: Engine) async throws {
        try await withStore(engine) { store in
            let ada = try Self.record("ada")
            let bob = try Self.record("bob")
            try await store.insert(ada)
            try await store.insert(bob)
            let older = AccessTokenInfo(id: "t_1", name: "backup", scope: .read, createdAt: Self.start, lastUsedAt: nil)
            let newer = AccessTokenInfo(
                id: "t_2", name: "sync", scope: .write, createdAt: Self.start.addingTimeInterval(5), lastUsedAt: nil)
            try await store.insertToken(TokenRecord(info: older, accountID: ada.account.id, secretHash: "h1"))
            try await store.insertToken(TokenRecord(info: newer, accountID: ada.account.id, secretHash: "h2"))
            #expect(try await store.tokens(of: ada.account.id).map(\.id) == ["t_2", "t_1"])
            #expect(try await store.tokens(of: bob.account.id).isEmpty)
            let found = try #require(try await store.token(secretHash: "h2"))
            #expect(found.token == newer && found.account.name.value == "ada")
            let used = Self.start.addingTimeInterval(60)
            try await store.touchToken(id: "t_2", at: used)
            #expect(try await store.token(secretHash: "h2")?.token.lastUsedAt == used)
            #expect(try await !store.deleteToken(id: "t_2", of: bob.account.id), "not bob's to revoke")
            #expect(try await store.deleteToken(id: "t_2", of: ada.account.id))
            #expect(try await store.token(secretHash: "h2") == nil)
            #expect(try await store.tokens(of: ada.account.id).map(\.id) == ["t_1"])
        }
    }

    @Test(arguments: Engine.allCases)
    func everyFifthFailureLocksTheKeyForLongerAndClearingStartsAgain(engine: Engine) async throws {
        try await withStore(engine) { store in
            let policy = LoginBackoff(threshold: 5, lockout: .seconds(60))
            let keys = ["name:ada", "address:7f000001"]
            var moment = Self.start
            for _ in 0..<4 {
                try await store.recordLoginFailure(keys: keys, at: moment, policy: policy)
                moment += 1
            }
            #expect(try await store.loginLockedUntil(keys: keys, at: moment) == nil, "four failures lock nothing")
            try await store.recordLoginFailure(keys: keys, at: moment, policy: policy)
            #expect(try await store.loginLockedUntil(keys: ["name:ada"], at: moment) == moment + 60)
            #expect(try await store.loginLockedUntil(keys: ["address:7f000001"], at: moment) == moment + 60)
            #expect(try await store.loginLockedUntil(keys: ["name:bob"], at: moment) == nil)
            #expect(try await store.loginLockedUntil(keys: keys, at: moment + 61) == nil, "the lock ends")

            // Five more: twice as long.
            for _ in 0..<5 {
                moment += 61
                try await store.recordLoginFailure(keys: ["name:ada"], at: moment, policy: policy)
            }
            #expect(try await store.loginLockedUntil(keys: ["name:ada"], at: moment) == moment + 120)

            try await store.clearLoginFailures(key: "name:ada")
            #expect(try await store.loginLockedUntil(keys: ["name:ada"], at: moment) == nil)
            // A day without failures: the count starts again (four after that lock nothing).
            moment += 2 * 86_400
            for _ in 0..<4 {
                try await store.recordLoginFailure(keys: ["address:7f000001"], at: moment, policy: policy)
            }
            #expect(try await store.loginLockedUntil(keys: ["address:7f000001"], at: moment) == nil)
        }
    }

    @Test(arguments: Engine.allCases)
    func failuresFromManyAtOnceAreAllCounted(engine: Engine) async throws {
        try await withStore(engine) { store in
            let policy = LoginBackoff(threshold: 5, lockout: .seconds(60))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<5 {
                    group.addTask {
                        try await store.recordLoginFailure(keys: ["name:ada"], at: Self.start, policy: policy)
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await store.loginLockedUntil(keys: ["name:ada"], at: Self.start) == Self.start + 60)
        }
    }
}
