import ArgumentParser
import Crypto
import Foundation
import TesseraAccounts
import TesseraCore

/// How long one bcrypt hash takes at each cost on this machine, beside SHA-256 of the same password (the
/// reference: what a fast hash costs); the table behind `TESSERA_BCRYPT_COST`'s default (docs/accounts.md).
struct BcryptBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bcrypt", abstract: "Time one bcrypt hash at costs 8 to 13, beside SHA-256.")

    @Option(help: "Hashes timed at each cost.")
    var rounds = 3

    func run() async throws {
        let password = "correct horse battery staple"
        let clock = ContinuousClock()
        let reference = clock.measure {
            for _ in 0..<10_000 { _ = SHA256.hash(data: Data(password.utf8)) }
        }
        let table = TextTable([.left(12), .right(14)])
        var lines = [table.row(["HASH", "MS PER HASH"])]
        lines.append(table.row(["sha-256", String(format: "%.4f", reference.milliseconds / 10_000)]))
        for cost in 8...13 {
            let hash = PasswordHash.make(password, cost: cost)
            let took = clock.measure {
                for _ in 0..<rounds { _ = PasswordHash.verify(password, against: hash) }
            }
            lines.append(table.row(["bcrypt \(cost)", String(format: "%.1f", took.milliseconds / Double(rounds))]))
        }
        print(lines.joined(separator: "\n"))
    }
}
