import Foundation
import TesseraAccounts
import TesseraGalleries

/// Where accounts and galleries meet (docs/accounts.md): galleries nobody owns going to an admin, and a
/// removed user's galleries going to an admin's Recently deleted. Both services stay unaware of each other.
extension AppEnvironment {
    /// Gives the galleries nobody owns (made without accounts, by `tessera gallery` on the data folder, or
    /// copied by `tessera migrate`) to the first admin, the earliest made; none without an admin yet.
    /// Returns how many, and to whom. `tessera serve` calls it at start in accounts mode.
    public func adoptOwnerlessGalleries() async throws -> (count: Int, admin: Account?) {
        guard let admin = try await accounts.accounts().filter(\.isAdmin).min(by: { $0.createdAt < $1.createdAt })
        else { return (0, nil) }
        return (try await galleries.adoptOwnerless(by: admin.id.value), admin)
    }

    /// `tessera user remove NAME`: the user's galleries go to the Recently deleted of an admin (the earliest
    /// made other than them), their memberships end, then the account goes with its sessions and tokens. With
    /// no other admin the galleries wait in Recently deleted, owned by nobody, for the next admin.
    /// Throws `AccountError` (no such user, the last admin) or `GalleryError` (the database).
    public func removeUser(named name: String) async throws -> (account: Account, galleries: Int, heir: Account?) {
        let account = try await accounts.account(named: name)
        let all = try await accounts.accounts()
        if account.isAdmin, all.count > 1, !all.contains(where: { $0.isAdmin && $0.id != account.id }) {
            throw AccountError.lastAdmin(account.name)
        }
        let heir = all.filter { $0.isAdmin && $0.id != account.id }.min { $0.createdAt < $1.createdAt }
        // Galleries first: the account cannot go while it owns any (the schema refuses), so a failure here
        // leaves everything as it was, and one after leaves them safe with the heir.
        let count = try await galleries.handOver(from: account.id.value, to: heir?.id.value)
        _ = try await accounts.remove(name: account.name.value)
        return (account, count, heir)
    }
}
