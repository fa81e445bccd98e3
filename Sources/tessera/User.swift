import ArgumentParser
import Foundation
import TesseraAccounts
import TesseraCore
import TesseraGalleries
import TesseraServer

/// `tessera user`: the accounts of `TESSERA_AUTH=accounts`. Works on the data folder or `TESSERA_DATABASE_URL`,
/// like the gallery commands, also while `tessera serve` runs. Passwords are read from the terminal without
/// echo, or as one line of standard input; never from the command line, where `ps` and shell history see them.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Add, list, change and remove the users of TESSERA_AUTH=accounts.",
        discussion: """
            Passwords are asked for on the terminal (not shown), or read as one line of standard input: \
            printf '%s\\n' "$PASSWORD" | tessera user add ada. At least 8 characters, at most 72 bytes.
            Exit status: 0 done, 1 failure, 2 bad input (an invalid or unknown name, a short password).
            """,
        subcommands: [AddUser.self, ListUsers.self, ChangePassword.self, RemoveUser.self])
}

struct AddUser: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a user; asks for the password.")

    @Argument(help: "1–64 of a–z, 0–9, \".\", \"_\", \"-\" (stored lower-case).")
    var name: String

    @Flag(help: "An admin manages accounts (not other people's galleries).")
    var admin = false

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let password = try PasswordInput.read(confirming: true)
        let account = try await UserCLI.run(common) { accounts throws(AccountError) in
            try await accounts.add(name: name, password: password, admin: admin)
        }
        Terminal.out("Added \(account.name)\(account.isAdmin ? " (admin)" : "").\n")
    }
}

struct ListUsers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the users.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let accounts = try await UserCLI.run(common) { accounts throws(AccountError) in try await accounts.accounts() }
        guard !accounts.isEmpty else {
            Terminal.out("No users yet; add one with: tessera user add NAME --admin\n")
            return
        }
        let table = TextTable([.left(max(4, accounts.map(\.name.value.count).max() ?? 0)), .left(5), .left(nil)])
        var lines = [table.row(["NAME", "ADMIN", "ADDED"])]
        let format = ISO8601DateFormatter()
        for account in accounts {
            lines.append(
                table.row([
                    account.name.value, account.isAdmin ? "yes" : "no",
                    GalleryTable.time(format.string(from: account.createdAt)),
                ]))
        }
        Terminal.out(lines.joined(separator: "\n") + "\n")
    }
}

struct ChangePassword: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passwd", abstract: "Set a user's password; signs that user out everywhere.")

    @Argument(help: "The user's name.")
    var name: String

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let password = try PasswordInput.read(confirming: true)
        try await UserCLI.run(common) { accounts throws(AccountError) in
            try await accounts.setPassword(name: name, password: password)
        }
        Terminal.out("Changed the password of \(name.lowercased()); their sessions have ended.\n")
    }
}

struct RemoveUser: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a user with their sessions and tokens.",
        discussion: """
            Their galleries go to the Recently deleted of an admin (the earliest made; with no other admin, to \
            the next admin there will be), their memberships of others' galleries end (docs/accounts.md).
            """)

    @Argument(help: "The user's name.")
    var name: String

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let (account, count, heir) = try await GalleryCLI.withEnvironment(common) { environment in
            do {
                return try await environment.removeUser(named: name)
            } catch let error as AccountError {
                throw UserCLI.exitCode(for: error)
            } catch let error as GalleryError {
                throw GalleryCLI.exitCode(for: error)
            }
        }
        let galleries =
            count == 0
            ? ""
            : " \(count) \(count == 1 ? "gallery" : "galleries") moved to the Recently deleted of "
                + (heir.map { "\($0.name)" } ?? "the next admin") + "."
        Terminal.out("Removed \(account.name), with their sessions and tokens.\(galleries)\n")
    }
}

enum UserCLI {
    /// Runs `body` on the environment's account service; an `AccountError` ends the command with its exit code.
    static func run<T>(_ common: CommonOptions, _ body: (AccountService) async throws(AccountError) -> T)
        async throws -> T
    {
        try await GalleryCLI.withEnvironment(common) { environment in
            do throws(AccountError) {
                return try await body(environment.accounts)
            } catch {
                throw exitCode(for: error)
            }
        }
    }

    static func exitCode(for error: AccountError) -> ExitCode {
        switch error {
        case .storage: Exit.failure(error.description)
        default: Exit.badInput(error.description)
        }
    }
}
