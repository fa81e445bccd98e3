import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraGalleries
import TesseraTestSupport
import Testing

/// An open event stream keeps checking that its watcher may read the gallery (docs/accounts.md, "Owners and
/// collaborators"): a member removed, a gallery its owner deleted, a session signed out everywhere each end
/// the stream, and no change made after that reaches it. Heartbeats are made short (`TESSERA_HEARTBEAT`) so
/// the bounds below are generous many times over.
@Suite("Gallery event streams losing access")
struct GalleryStreamAccessTests {
    typealias User = GalleryOwnersAPITests.User
    static let environment = ["TESSERA_HEARTBEAT": "0.2"]

    /// Ada's gallery shared with bob as a viewer, and bob's stream of it past its first snapshot.
    static func watched(_ client: any TestClientProtocol) async throws -> (User, User, GalleryID, EventStream) {
        let ada = User(client: client, cookie: try await client.signIn("ada", "correct horse"))
        let bob = User(client: client, cookie: try await client.signIn("bob", "battery staple"))
        let gallery = try await ada.create("Ada's trip").id
        let shared = try await ada.call(.post, "/api/galleries/\(gallery)/members", #"{"name":"bob","role":"viewer"}"#)
        try #require(shared.status == .ok, "\(shared.text)")
        let stream = try await EventStream.open(port: try #require(client.port), gallery: gallery, cookie: bob.cookie)
        #expect(try await stream.next(timeout: .seconds(30)).name == "snapshot")
        // A change reaches the member while it may read the gallery.
        _ = try await ada.call(.patch, "/api/galleries/\(gallery)", #"{"name":"Seen by bob"}"#)
        let renamed = try await stream.next(timeout: .seconds(30))
        #expect(renamed.name == "renamed" && renamed.data.contains("Seen by bob"))
        return (ada, bob, gallery, stream)
    }

    @Test(.timeLimit(.minutes(2)), arguments: Engine.allCases)
    func aRemovedMembersStreamEndsAndHearsNothingAfter(engine: Engine) async throws {
        try await engine.withEnvironment { database in
            let environment = database.merging(Self.environment) { _, new in new }
            try await withAccounts(users: GalleryOwnersAPITests.users, extraEnvironment: environment) { client, _ in
                let (ada, bob, gallery, stream) = try await Self.watched(client)
                let removed = try await ada.call(.delete, "/api/galleries/\(gallery)/members/bob")
                try #require(removed.status == .noContent, "\(removed.text)")
                // Changes right after the removal, and one later, never reach bob's stream.
                _ = try await ada.call(.patch, "/api/galleries/\(gallery)", #"{"name":"Not for bob"}"#)
                let later = try await ada.upload(to: gallery)
                #expect(later.status == .created, "\(later.text)")
                let rest = try await stream.restAndClose(within: .seconds(30))
                #expect(rest.map(\.name) == [], "nothing after the removal: \(rest.map(\.name))")
                #expect(!rest.contains { $0.data.contains("Not for bob") })
                // Reconnecting is the answer for a gallery that does not exist.
                let again = try await bob.call(.get, "/api/galleries/\(gallery)/events")
                #expect(again.status == .notFound)
                #expect(try again.apiError().code == "gallery_not_found")
            }
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aDeletedGallerysMemberStreamEndsWhileTheOwnersGoesOn() async throws {
        try await withAccounts(users: GalleryOwnersAPITests.users, extraEnvironment: Self.environment) { client, _ in
            let (ada, _, gallery, stream) = try await Self.watched(client)
            let owners = try await EventStream.open(
                port: try #require(client.port), gallery: gallery, cookie: ada.cookie)
            #expect(try await owners.next(timeout: .seconds(30)).name == "snapshot")
            let deleted = try await ada.call(.delete, "/api/galleries/\(gallery)")
            try #require(deleted.status == .ok, "\(deleted.text)")
            // The owner hears it; the member not even that.
            #expect(try await owners.next(timeout: .seconds(30)).name == "deleted")
            await owners.close()
            let rest = try await stream.restAndClose(within: .seconds(30))
            #expect(rest.map(\.name) == [], "nothing after the deletion: \(rest.map(\.name))")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aStreamEndsWithItsSessionSignedOutEverywhere() async throws {
        try await withAccounts(users: GalleryOwnersAPITests.users, extraEnvironment: Self.environment) { client, _ in
            let (ada, bob, gallery, stream) = try await Self.watched(client)
            let signedOut = try await bob.call(.delete, "/api/sessions")
            try #require(signedOut.status == .noContent, "\(signedOut.text)")
            #expect(try await stream.restAndClose(within: .seconds(30)).isEmpty)
            // Still a member: only the session ended.
            let members = try await ada.call(.get, "/api/galleries/\(gallery)/members")
            #expect(members.text.contains("bob"))
        }
    }
}
