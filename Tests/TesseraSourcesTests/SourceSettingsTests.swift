import Foundation
import TesseraCore
import TesseraSources
import Testing

@Suite("Source settings")
struct SourceSettingsTests {
    @Test func everySearchedServiceHasOneDefaultAddressAndNothingIsOverridden() throws {
        let settings = try SourceSettings(environment: [:])
        #expect(Set(SourceSettings.defaultBases.keys) == Set(SourceID.searchable.filter { $0 != .local }))
        #expect(settings.pixabayBase == SourceSettings.defaultBases[.pixabay])
        #expect(settings.itunesBase.absoluteString == "https://itunes.apple.com/")
        #expect(settings.overriddenBases.isEmpty)
    }

    @Test func anOverrideReplacesTheBaseAndIsTrusted() throws {
        let settings = try SourceSettings(environment: [
            "TESSERA_FLICKR_URL": " http://127.0.0.1:9001/flickr/rest/ ",
            "TESSERA_PIXABAY_URL": "https://pixabay.com/api/",
        ])
        #expect(settings.flickrBase.absoluteString == "http://127.0.0.1:9001/flickr/rest/")
        #expect(settings.overriddenBases.map(\.absoluteString) == ["http://127.0.0.1:9001/flickr/rest/"])
    }

    @Test func aMalformedOverrideIsAnError() {
        #expect(throws: SourceSettingsError.invalidURL(variable: "TESSERA_OPENVERSE_URL", value: "ftp://x")) {
            try SourceSettings(environment: ["TESSERA_OPENVERSE_URL": "ftp://x"])
        }
    }
}
