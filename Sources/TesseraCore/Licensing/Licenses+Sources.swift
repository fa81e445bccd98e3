/// Each source's licence fields, read into a `License` (docs/licences.md has the tables).
extension Licenses {
    // MARK: - Flickr

    /// `flickr.photos.licenses.getInfo`'s ids with Flickr's own names. Ids 11–16 (the CC 4.0 family) are
    /// reported by one third-party note only; their names follow Creative Commons' short names.
    static let flickrLicenses: [Int: License] = {
        let base = "https://creativecommons.org/licenses/"
        func cc(_ code: String, _ version: String, _ name: String) -> License {
            creativeCommons(code: code, version: version, name: name, url: base + "\(code)/\(version)/")!
        }
        return [
            0: license(.allRightsReserved, name: "All Rights Reserved"),
            1: cc("by-nc-sa", "2.0", "Attribution-NonCommercial-ShareAlike License"),
            2: cc("by-nc", "2.0", "Attribution-NonCommercial License"),
            3: cc("by-nc-nd", "2.0", "Attribution-NonCommercial-NoDerivs License"),
            4: cc("by", "2.0", "Attribution License"),
            5: cc("by-sa", "2.0", "Attribution-ShareAlike License"),
            6: cc("by-nd", "2.0", "Attribution-NoDerivs License"),
            7: license(.noKnownCopyright),
            8: license(.usGovernment, url: "http://www.usa.gov/copyright.shtml"),
            9: license(.cc0, name: "Public Domain Dedication (CC0)"),
            10: license(.pdm, name: "Public Domain Mark"),
            11: cc("by", "4.0", "CC BY 4.0"),
            12: cc("by-sa", "4.0", "CC BY-SA 4.0"),
            13: cc("by-nd", "4.0", "CC BY-ND 4.0"),
            14: cc("by-nc", "4.0", "CC BY-NC 4.0"),
            15: cc("by-nc-sa", "4.0", "CC BY-NC-SA 4.0"),
            16: cc("by-nc-nd", "4.0", "CC BY-NC-ND 4.0"),
        ]
    }()

    /// A Flickr `license` extra; a missing or unlisted id is `unknown`.
    public static func flickr(id: String?) -> License {
        guard let id, let number = Int(id.trimmingCharacters(in: .whitespaces)), let found = flickrLicenses[number]
        else { return unknown(name: id.map { "Flickr licence \($0)" }) }
        return found
    }

    /// The Flickr licence ids whose licence satisfies `matches`, in order.
    public static func flickrIDs(matching matches: (License) -> Bool) -> [Int] {
        flickrLicenses.filter { matches($0.value) }.keys.sorted()
    }

    // MARK: - Openverse

    /// Openverse's `license` (always lower-case: by, by-sa, cc0, pdm, sampling+...) and `license_version`.
    public static func openverse(license code: String?, version: String?, url: String?) -> License {
        guard let code, !code.isEmpty else { return unknown(url: url) }
        return creativeCommons(code: code, version: version, url: url?.isEmpty == false ? url : nil)
            ?? unknown(name: code, url: url)
    }

    /// The `license` values Openverse accepts, each with the family id it stands for.
    public static let openverseCodes: [(code: String, family: String)] = [
        ("by", "cc-by"), ("by-sa", "cc-by-sa"), ("by-nd", "cc-by-nd"), ("by-nc", "cc-by-nc"),
        ("by-nc-sa", "cc-by-nc-sa"), ("by-nc-nd", "cc-by-nc-nd"), ("cc0", "cc0"), ("pdm", "pdm"),
        ("sampling+", "cc-sampling-plus"), ("nc-sampling+", "cc-nc-sampling-plus"),
    ]

    // MARK: - Wikimedia Commons

    /// `extmetadata`'s `LicenseShortName` (or `UsageTerms`), `LicenseUrl` and `AttributionRequired`
    /// (`"true"`/`"false"`), as plain text. The file page's own word on credit wins over the licence's.
    public static func wikimedia(
        shortName: String?, url: String?, usageTerms: String? = nil, attributionRequired: String? = nil
    ) -> License {
        guard let name = shortName ?? usageTerms else { return unknown(url: url) }
        var found = identify(name: name, url: url)
        switch attributionRequired?.lowercased() {
        case "true": found.requiresCredit = true
        case "false" where found.id != .unknown: found.requiresCredit = false
        default: break
        }
        return found
    }

    // MARK: - Pixabay, iTunes

    /// Pixabay's Content License: commercial use and changes allowed, no credit required.
    public static let pixabay = license(.pixabay)

    /// Store artwork and previews are Apple's and the rights holders': no reuse.
    public static let itunes = license(
        .allRightsReserved, name: "Apple Media Services terms (preview courtesy of iTunes)",
        url: "https://www.apple.com/legal/internet-services/itunes/")

    // MARK: - Your library

    /// A photo's licence from what its file embeds: XMP's licence link (`cc:license`,
    /// `xmpRights:WebStatement`), its usage terms, then its copyright notice; then the folder's
    /// `.tessera-license` default. A copyright notice that names no licence is all rights reserved, as the
    /// law reads it; a photo with nothing at all is `unknown`.
    public static func embedded(
        licenseURL: String?, usageTerms: String?, copyright: String?, folderDefault: String?
    ) -> License {
        if let licenseURL, let found = fromURL(licenseURL, name: usageTerms) { return found }
        if let usageTerms, let found = fromName(usageTerms) { return fromID(found.id) ?? found }
        if let copyright {
            // "© 2020 Jane, CC BY-SA 4.0": the licence's own name, not the whole notice.
            if let found = fromName(copyright) { return fromID(found.id) ?? found }
            if let folderDefault, let found = folder(folderDefault) { return found }
            return license(.allRightsReserved, name: copyright)
        }
        if let folderDefault, let found = folder(folderDefault) { return found }
        return unknown()
    }

    /// A `.tessera-license` file's first line: a licence id (`cc-by-4.0`, `cc0`, `all-rights-reserved`),
    /// a licence link, or a name.
    public static func folder(_ text: String) -> License? {
        let line =
            text.split(whereSeparator: \.isNewline).first.map(String.init)?
            .trimmingCharacters(in: .whitespaces) ?? ""
        guard !line.isEmpty else { return nil }
        if let byID = fromID(LicenseID(rawValue: line.lowercased())) { return byID }
        return fromURL(line) ?? fromName(line)
    }

    /// A licence by its normalised id (`cc-by-sa-2.0`, `cc0`, `pixabay`); `nil` for ids Tessera does not know.
    public static func fromID(_ id: LicenseID) -> License? {
        if others[id] != nil { return license(id) }
        let raw = id.rawValue
        guard raw.hasPrefix("cc-") else { return nil }
        let family = id.family
        let version = family == raw ? nil : String(raw.dropFirst(family.count + 1))
        if let version, cleanVersion(version) == nil { return nil }
        return creativeCommons(code: String(family.dropFirst(3)), version: version)
    }
}
