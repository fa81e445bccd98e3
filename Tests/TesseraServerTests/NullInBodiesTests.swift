import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TesseraCore
import TesseraTestSupport
import Testing

/// JSON `null` in request bodies, held to docs/openapi.yaml: where the document allows no null, a null is a
/// malformed body (400), never read as a field left out; where it allows one (a link's `expiresAt`), it means
/// what leaving the field out means. Found by `scripts/fuzz-api`.
@Suite struct NullInBodiesTests {
    /// A malformed body is a 400 before the gallery's revision is compared: a stale `If-Match` does not turn it
    /// into a 412, and no `If-Match` does not turn it into an added item.
    @Test func aNullInAnAddedItemIsA400BeforeTheRevision() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let gallery = try await GalleriesAPITests.create(client)
            let item = try await GalleriesAPITests.firstResult(client)
            let valid = try JSONSerialization.jsonObject(with: Data(GalleriesAPITests.itemJSON(item).utf8))
            var withNullPreview = try #require(valid as? [String: Any])
            var itemObject = try #require(withNullPreview["item"] as? [String: Any])
            itemObject["preview"] = NSNull()
            withNullPreview["item"] = itemObject
            var withNullScreenshotHeight = try #require(valid as? [String: Any])
            itemObject = try #require(withNullScreenshotHeight["item"] as? [String: Any])
            itemObject["listing"] = ["screenshots": [["url": "/img/thumb/a/b", "width": 1, "height": NSNull()]]]
            withNullScreenshotHeight["item"] = itemObject
            let bodies = [
                #"{"url": "", "index": null}"#, #"{"url": "https://example.com/a.jpg", "index": null}"#,
                String(decoding: try JSONSerialization.data(withJSONObject: withNullPreview), as: UTF8.self),
                String(decoding: try JSONSerialization.data(withJSONObject: withNullScreenshotHeight), as: UTF8.self),
            ]
            for body in bodies {
                for ifMatch in [#""5""#, nil] {
                    var headers = HTTPFields()
                    if let ifMatch { headers[.ifMatch] = ifMatch }
                    let response = try await GalleriesAPITests.add(client, gallery.id, json: body, headers: headers)
                    try Hostile.expect(
                        response, .badRequest, "invalid_body", "\(body.prefix(60)) If-Match \(ifMatch ?? "none")")
                }
            }
            // A size past the document's maximum is the item's fault too, said before the revision.
            var tooTall = try #require(valid as? [String: Any])
            itemObject = try #require(tooTall["item"] as? [String: Any])
            itemObject["full"] = ["url": "/img/original/a/b", "width": 1, "height": 9_007_199_254_740_992]
            tooTall["item"] = itemObject
            let tall = try await GalleriesAPITests.add(
                client, gallery.id,
                json: String(decoding: try JSONSerialization.data(withJSONObject: tooTall), as: UTF8.self),
                headers: [.ifMatch: #""5""#])
            try Hostile.expect(tall, .badRequest, "invalid_item", "a height past 2^53 - 1")
            #expect(try await GalleriesAPITests.gallery(client, gallery.id).revision == 1, "nothing was added")
            // The same item without the null is added: the null alone was the fault.
            let added = try await GalleriesAPITests.add(client, gallery.id, json: try GalleriesAPITests.itemJSON(item))
            #expect(added.status == .created, "\(added.text.prefix(300))")
            // A null in a member the document does not name is ignored with the member, even one named like a
            // member elsewhere (an `item` inside a metadata entry is not the body's `item`).
            var extra = try #require(valid as? [String: Any])
            itemObject = try #require(extra["item"] as? [String: Any])
            itemObject["metadata"] = [["label": "a", "value": "b", "item": [true, NSNull()], "index": NSNull()]]
            itemObject["unnamed"] = NSNull()
            extra["item"] = itemObject
            extra["elsewhere"] = ["item": NSNull()]
            extra["allowNearDuplicate"] = true  // the same item again
            let ignored = try await GalleriesAPITests.add(
                client, gallery.id,
                json: String(decoding: try JSONSerialization.data(withJSONObject: extra), as: UTF8.self),
                headers: [.ifMatch: #""2""#])
            #expect(ignored.status == .created, "\(ignored.text.prefix(300))")
        }
    }

    @Test func aLinkWithoutExpiryMayBeAskedForWithNullAndOtherNullsAre400() async throws {
        try await withAccounts(users: Links.users) { client, _ in
            let ada = GalleryOwnersAPITests.User(
                client: client, cookie: try await client.signIn("ada", "correct horse"))
            let gallery = try await ada.create("Ada's")
            let unbounded = try await ada.call(
                .post, "/api/galleries/\(gallery.id)/links", #"{"kind":"view","expiresAt":null}"#)
            try #require(unbounded.status == .created, "\(unbounded.text)")
            #expect(try unbounded.json(Links.Link.self).expiresAt == nil)
            for field in ["password", "showItems", "perHour", "kind"] {
                let body = field == "kind" ? #"{"kind":null}"# : #"{"kind":"drop","\#(field)":null}"#
                let response = try await ada.call(.post, "/api/galleries/\(gallery.id)/links", body)
                try Hostile.expect(response, .badRequest, "invalid_body", body)
            }
            let links = try await ada.call(.get, "/api/galleries/\(gallery.id)/links").json(Links.LinkList.self)
            #expect(links.links.count == 1, "only the link asked for without a null was made")
        }
    }
}
