import Foundation
import TesseraCore

/// The fetcher as galleries see it: an image from an address, refused as soon as its first bytes are not one.
extension ImageFetcher: ImageAddressFetching {
    public func image(at url: String) async throws(FetchError) -> Data {
        try await fetch(
            url, prefixLength: ImageSniffer.prefixLength, validatePrefix: { ImageSniffer.format(of: $0) != nil }
        ).data
    }
}
