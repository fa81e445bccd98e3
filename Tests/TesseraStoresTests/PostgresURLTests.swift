import Foundation
import TesseraPostgres
import Testing

@Suite("TESSERA_DATABASE_URL parsing")
struct PostgresURLTests {
    @Test func readsEveryPartAndDefaults() throws {
        let url = try PostgresURL(parsing: "postgres://app:s%40cret@db.example:6543/tessera?sslmode=verify-full")
        #expect(url.host == "db.example" && url.port == 6543 && url.user == "app" && url.password == "s@cret")
        #expect(url.database == "tessera" && url.sslMode == .verifyFull)
        let plain = try PostgresURL(parsing: "postgresql://app@localhost")
        #expect(plain.port == 5432 && plain.database == "app" && plain.password == nil && plain.sslMode == .prefer)
        #expect(plain.connectTimeout == .seconds(10))
        let timed = try PostgresURL(parsing: "postgres://a:b@h/d?connect_timeout=3&sslmode=disable")
        #expect(timed.connectTimeout == .seconds(3) && timed.sslMode == .disable)
    }

    @Test func theRedactedFormNeverShowsThePassword() throws {
        let url = try PostgresURL(parsing: "postgres://app:hunter2@db:5432/tessera?sslmode=require")
        #expect(url.redacted == "postgres://app:***@db:5432/tessera?sslmode=require")
        #expect(!"\(url)".contains("hunter2"))
    }

    @Test(arguments: [
        ("mysql://app:hunter2@db/tessera", "scheme"),
        ("postgres://app:hunter2@/tessera", "host"),
        ("postgres://:hunter2@db/tessera", "user"),
        ("postgres://app:hunter2@db/tessera?sslmode=allow", "sslmode must be one of"),
        ("postgres://app:hunter2@db/tessera?sslmode=sometimes", "sslmode must be one of"),
        ("postgres://app:hunter2@db/tessera?application_name=x", "\"application_name\""),
        ("postgres://app:hunter2@db/tessera?connect_timeout=0", "connect_timeout"),
        ("postgres://app:hunter2@db:99999/tessera", "port"),
        ("not a url at all hunter2", "postgres://"),
    ])
    func malformedURLsAreRefusedWithTheReasonAndNoPassword(text: String, reason: String) {
        #expect {
            try PostgresURL(parsing: text)
        } throws: { error in
            let message = "\(error)"
            return message.contains(reason) && !message.contains("hunter2")
                && message.hasPrefix("TESSERA_DATABASE_URL is not a PostgreSQL URL")
        }
    }
}
