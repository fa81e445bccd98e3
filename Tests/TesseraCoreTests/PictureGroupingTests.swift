import Foundation
import TesseraCore
import Testing

@Suite("Grouping copies of one picture: by identity, then by look")
struct PictureGroupingTests {
    private func image(
        _ source: SourceID, _ id: String, page: String? = nil, license: LicenseID? = nil, kind: ItemKind = .image
    ) -> Item {
        Item(
            id: ItemID(source: source, nativeID: id), kind: kind, title: id,
            license: license.map { Licenses.fromID($0) ?? Licenses.unknown() }, pageURL: page)
    }

    private func hash(_ bits: UInt64) -> PerceptualHash { PerceptualHash(bits: bits) }

    @Test func landingPagesNameThePhotoTheyShow() {
        let cases: [(String, String?)] = [
            ("https://www.flickr.com/photos/ann_lee/52345677", "flickr:52345677"),
            ("https://flickr.com/photos/12345678@N00/52345677/in/album-1/", "flickr:52345677"),
            ("https://www.flickr.com/photos/ann_lee/", nil),
            ("https://www.flickr.com/photos/ann_lee/albums", nil),
            ("https://commons.wikimedia.org/w/index.php?curid=4242", "wikimedia:4242"),
            ("https://commons.wikimedia.org/wiki/File:Red_kite_%28Milvus%29.jpg", "commons-file:Red kite (Milvus).jpg"),
            ("https://commons.wikimedia.org/wiki/file:red_kite.jpg", "commons-file:Red kite.jpg"),
            ("https://commons.wikimedia.org/w/index.php?title=File:Red_kite.jpg", "commons-file:Red kite.jpg"),
            ("https://commons.wikimedia.org/wiki/Category:Kites", nil),
            ("https://notflickr.com/photos/a/1", nil),
            ("https://stocksnap.io/photo/XNVBVXO3B7", nil),
            ("not a url at all", nil),
            // Read by hand when plain, by URLComponents otherwise: both ways must agree.
            ("https://WWW.Flickr.COM/photos/ann/52345677", "flickr:52345677"),
            ("http://www.flickr.com/photos/ann/52345677?sizes=l", "flickr:52345677"),
            ("https://www.flickr.com:443/photos/ann/52345677", "flickr:52345677"),
            ("https://www.flickr.com/photos/ann/52345677#comments", "flickr:52345677"),
            ("https://commons.wikimedia.org/w/index.php?title=Special:X&curid=77", "wikimedia:77"),
            ("https://commons.wikimedia.org/w/index.php?curid=&title=File:A.jpg", "commons-file:A.jpg"),
            ("https://commons.wikimedia.org/w/index.php?curid", nil),
            ("https://commons.wikimedia.org/w/index.php?curid=12a", nil),
            ("https://commons.wikimedia.org/w/index.php?curid=%3412", "wikimedia:412"),
            ("https:///photos/ann/1", nil),
        ]
        for (page, key) in cases {
            let item = image(.openverse, "4bc43a04-ef46-4544-a0c1-000000000001", page: page)
            #expect(PictureIdentity.keys(of: item) == (key.map { [$0] } ?? []), "\(page)")
        }
        let flickr = image(.flickr, "52345677", page: "https://www.flickr.com/photos/ann_lee/52345677")
        #expect(PictureIdentity.keys(of: flickr) == ["flickr:52345677"], "the page names the same photo once")
        let commons = image(.wikimedia, "4242", page: "https://commons.wikimedia.org/wiki/File:Red_kite.jpg")
        #expect(PictureIdentity.keys(of: commons) == ["wikimedia:4242", "commons-file:Red kite.jpg"])
        #expect(PictureIdentity.keys(of: image(.itunes, "1", kind: .album)).isEmpty)
    }

    @Test func openverseCopiesJoinTheirOwnServicesItemsByIdentity() {
        let items = [
            image(.flickr, "111", page: "https://www.flickr.com/photos/ann/111", license: "cc-by-nc-2.0"),
            image(.flickr, "222", page: "https://www.flickr.com/photos/ann/222", license: "cc-by-2.0"),
            image(.wikimedia, "333", page: "https://commons.wikimedia.org/wiki/File:Kite.jpg", license: "cc-by-sa-4.0"),
            image(.openverse, "a", page: "https://www.flickr.com/photos/someone/111", license: "cc0"),
            image(
                .openverse, "b", page: "https://commons.wikimedia.org/w/index.php?curid=333", license: "cc-by-sa-4.0"),
            image(.openverse, "c", page: "https://commons.wikimedia.org/wiki/File:Kite.jpg", license: "cc-by-sa-4.0"),
            image(.openverse, "d", page: "https://www.flickr.com/photos/ann/999", license: "cc-by-2.0"),
        ]
        let groups = PictureGrouping.groups(of: items, hashes: [:])
        #expect(groups.count == 2)
        #expect(groups[0].members.map(\.description) == ["openverse:a", "flickr:111"], "CC0 before CC BY-NC")
        #expect(groups[0].representative == groups[0].members[0])
        #expect(groups[0].byLook == false)
        #expect(
            groups[1].members.map(\.description) == ["wikimedia:333", "openverse:b", "openverse:c"],
            "the same licence: the photo's own service first, then the page's order")
    }

    @Test func hashesWithinTheThresholdJoinAndOthersDoNot() throws {
        let threshold = PictureGrouping.threshold
        let near = UInt64((1 << threshold) - 1)  // `threshold` bits away from zero
        let items = [
            image(.pixabay, "1", license: "pixabay"), image(.flickr, "2", license: "cc-by-2.0"),
            image(.openverse, "3", license: "cc-by-nc-nd-3.0"), image(.local, "4"), image(.wikimedia, "5"),
        ]
        let hashes = [
            items[0].id: hash(0), items[1].id: hash(near), items[2].id: hash(~0),
            items[4].id: hash(0),
        ]
        let groups = PictureGrouping.groups(of: items, hashes: hashes)
        #expect(groups.count == 1)
        let group = try #require(groups.first)
        #expect(group.members.map(\.description) == ["pixabay:1", "flickr:2", "wikimedia:5"])
        #expect(group.byLook == true)
        #expect(PictureGrouping.groups(of: items, hashes: hashes, threshold: threshold - 1).count == 1)
        #expect(
            PictureGrouping.groups(of: items, hashes: hashes, threshold: threshold - 1).first?.members.count == 2,
            "one bit further apart: the Flickr copy is on its own")
    }

    @Test func joiningIsTransitiveAndIdentityMeetsLook() {
        let items = [
            image(.flickr, "7", page: "https://www.flickr.com/photos/x/7", license: "cc-by-2.0"),
            image(.openverse, "o", page: "https://www.flickr.com/photos/x/7", license: "cc-by-2.0"),
            image(.pixabay, "p", license: "pixabay"),
        ]
        // Only the Flickr item and the Pixabay one have hashes; Openverse's copy joins by identity.
        let groups = PictureGrouping.groups(of: items, hashes: [items[0].id: hash(0), items[2].id: hash(1)])
        #expect(groups.count == 1)
        #expect(groups.first?.members.count == 3)
        #expect(groups.first?.representative == items[2].id, "the Pixabay licence needs no credit")
    }

    @Test func unknownLicencesAreNeverPreferredAndNonImagesNeverGroup() {
        let items = [
            image(.local, "a"), image(.openverse, "b", license: "cc-by-nc-nd-3.0"),
            image(.itunes, "c", kind: .album), image(.itunes, "d", kind: .album), image(.local, "a"),
        ]
        let hashes = Dictionary(items.map { ($0.id, hash(42)) }, uniquingKeysWith: { first, _ in first })
        let groups = PictureGrouping.groups(of: items, hashes: hashes)
        #expect(groups.map { $0.members.map(\.description) } == [["openverse:b", "local:a"]])
        #expect(PictureGrouping.permissiveness(nil) == 0)
        #expect(PictureGrouping.permissiveness(Licenses.unknown()) == 0)
        #expect(
            PictureGrouping.permissiveness(Licenses.fromID("cc0"))
                > PictureGrouping.permissiveness(Licenses.fromID("cc-by-4.0")))
        #expect(
            PictureGrouping.permissiveness(Licenses.fromID("cc-by-nc-4.0"))
                > PictureGrouping.permissiveness(Licenses.unknown()))
    }

    /// A search groups each section as it arrives (`PictureGrouper`); whatever order they come in, the groups
    /// are those of the whole page in its order.
    @Test func sectionsGroupedAsTheyArriveGiveThePagesGroups() {
        let parts: [[Item]] = [
            [
                image(.pixabay, "p1", license: "pixabay"), image(.pixabay, "p2", license: "pixabay"),
                image(.pixabay, "p3", license: "pixabay"),
            ],
            [
                image(.flickr, "111", page: "https://www.flickr.com/photos/ann/111", license: "cc-by-nc-2.0"),
                image(.flickr, "222", page: "https://www.flickr.com/photos/ann/222", license: "cc-by-2.0"),
            ],
            [
                image(.openverse, "a", page: "https://www.flickr.com/photos/x/111", license: "cc0"),
                image(
                    .openverse, "b", page: "https://commons.wikimedia.org/w/index.php?curid=333", license: "cc-by-4.0"),
                image(.openverse, "c", page: "https://www.flickr.com/photos/x/222", license: "cc-by-2.0"),
            ],
            [
                image(.wikimedia, "333", page: "https://commons.wikimedia.org/wiki/File:K.jpg", license: "cc-by-4.0"),
                image(.wikimedia, "444", license: "cc-by-sa-4.0"), image(.pixabay, "p1", license: "pixabay"),
            ],
        ]
        // p1 looks like Flickr 111, so the 111 group takes a look to join (CC0 comes before Pixabay's licence:
        // Openverse's copy stands for it); p2 looks like Commons 444; p3 like nothing; Flickr 222 and Commons 333
        // join their Openverse copies by identity alone (a tie of licences: the earlier section's copy stands
        // for it). p1 is listed twice, first in part 0.
        let hashes: [ItemID: PerceptualHash] = [
            parts[0][0].id: hash(0), parts[1][0].id: hash(1), parts[0][1].id: hash(0xFFFF_0000),
            parts[3][1].id: hash(0xFFFF_0001), parts[0][2].id: hash(~0),
        ]
        let expected = [
            ["openverse:a", "pixabay:p1", "flickr:111"], ["pixabay:p2", "wikimedia:444"],
            ["flickr:222", "openverse:c"], ["openverse:b", "wikimedia:333"],
        ]
        let whole = PictureGrouping.groups(of: parts.flatMap { $0 }, hashes: hashes)
        #expect(whole.map { $0.members.map(\.description) } == expected)
        #expect(whole.map(\.byLook) == [true, true, false, false])
        for order in [[0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1], [1, 3, 0, 2], [3, 0, 2, 1]] {
            var grouper = PictureGrouper()
            for part in order { grouper.add(parts[part], part: part, hashes: hashes) }
            #expect(grouper.groups() == whole, "parts in the order \(order)")
        }
    }

    @Test func hashesReadBackFromTheirHexForm() throws {
        let hash = PerceptualHash(bits: 0x00f0_0000_0000_beef)
        #expect(hash.description == "00f000000000beef")
        #expect(PerceptualHash(hex: hash.description) == hash)
        for bad in ["", "00f000000000bee", "00f000000000beefa", "+0f000000000beef", "00f000000000beeg"] {
            #expect(PerceptualHash(hex: bad) == nil, "\(bad)")
        }
        #expect(hash.distance(to: PerceptualHash(bits: 0x00f0_0000_0000_beee)) == 1)
        #expect(hash.distance(to: PerceptualHash(bits: ~hash.bits)) == 64)
        let json = try JSONEncoder().encode([hash])
        #expect(String(decoding: json, as: UTF8.self) == "[\"00f000000000beef\"]")
        #expect(try JSONDecoder().decode([PerceptualHash].self, from: json) == [hash])
    }
}
