import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraCore
import TesseraGalleries
import TesseraTestSupport
import Testing

/// What the link tests share: a link as the owner sees it, a visitor without an account, and images that
/// differ in their bytes (so their stored copies differ).
enum Links {
    static let users: [(name: String, password: String, admin: Bool)] = [
        ("ada", "correct horse", true), ("bob", "battery staple", false), ("cy", "paper clip 9", false),
    ]

    /// A link in the owner's list (the `Link` schema).
    struct Link: Decodable, Sendable {
        let id: String
        let kind: String
        let url: String
        let hasPassword: Bool
        let expiresAt: String?
        let createdAt: String
        let opens: Int
        let lastOpenedAt: String?
        let showItems: Bool?
        let perHour: Int?
        let drops: Int?

        var slug: String { String(url.dropFirst(3)) }
    }

    struct LinkList: Decodable { let links: [Link] }

    /// The `SharedGallery` schema.
    struct Shared: Decodable {
        struct Summary: Decodable {
            let name: String
            let itemCount: Int
        }
        let kind: String
        let gallery: Summary
        let expiresAt: String?
        let items: [SharedItem]?
        let perHour: Int?
        let showItems: Bool?
    }

    /// The `SharedGalleryItem` schema: a restricted item comes without `image`.
    struct SharedItem: Decodable {
        let id: GalleryItemID
        let item: Item
        let restricted: Bool
        let image: StoredImageRefs?
    }

    struct Dropped: Decodable { let item: SharedItem }

    /// The sample JPEG with a comment: the same picture, other bytes, so another stored copy.
    static func jpeg(_ comment: String) -> [UInt8] {
        let text = Array(comment.utf8)
        let length = text.count + 2
        return [0xFF, 0xD8, 0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + text
            + StandInImage.jpeg.dropFirst(2)
    }

    /// Makes a link to `gallery` as `owner`; `body` is the LinkRequest.
    static func create(
        _ owner: GalleryOwnersAPITests.User, _ gallery: GalleryID, _ body: String = #"{"kind":"view"}"#
    ) async throws -> Link {
        let response = try await owner.call(.post, "/api/galleries/\(gallery)/links", body)
        try #require(response.status == .created, "\(response.status): \(response.text)")
        return try response.json(Link.self)
    }

    static func upload(
        _ owner: GalleryOwnersAPITests.User, _ gallery: GalleryID, _ bytes: [UInt8], name: String = "a.jpg"
    ) async throws -> GalleryItem {
        var (headers, body) = GalleriesAPITests.multipart(bytes, fileName: name)
        headers[.cookie] = owner.cookie
        headers[HTTPField.Name("Sec-Fetch-Site")!] = "same-origin"
        let response = try await owner.client.execute(
            uri: "/api/galleries/\(gallery)/items", method: .post, headers: headers, body: body)
        try #require(response.status == .created, "\(response.text)")
        return try response.json(GalleryItem.self)
    }
}

/// Someone without an account, as a browser on the app's own page (`Sec-Fetch-Site: same-origin`), with
/// whatever cookies it was given.
struct Visitor {
    let client: any TestClientProtocol
    var cookies: [String] = []

    init(_ client: any TestClientProtocol) { self.client = client }

    func call(
        _ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil, headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = sameOrigin
        headers.append(contentsOf: extra)
        if !cookies.isEmpty { headers[.cookie] = cookies.joined(separator: "; ") }
        return try await client.execute(
            uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    func get(_ uri: String, password: String? = nil) async throws -> TestResponse {
        try await call(.get, uri, headers: password.map { [HTTPField.Name("X-Tessera-Link-Password")!: $0] } ?? [:])
    }

    func upload(_ slug: String, _ bytes: [UInt8] = StandInImage.jpeg, name: String = "drop.jpg") async throws
        -> TestResponse
    {
        var (headers, body) = GalleriesAPITests.multipart(bytes, fileName: name, allowNearDuplicate: nil)
        headers[HTTPField.Name("Sec-Fetch-Site")!] = "same-origin"
        if !cookies.isEmpty { headers[.cookie] = cookies.joined(separator: "; ") }
        return try await client.execute(uri: "/api/shared/\(slug)/items", method: .post, headers: headers, body: body)
    }
}
