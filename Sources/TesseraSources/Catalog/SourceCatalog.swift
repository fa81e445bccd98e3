import TesseraCore

/// The live sources, built from settings around one shared HTTP layer.
public enum SourceCatalog {
    public static func sources(_ settings: SourceSettings, http: SourceHTTP) -> [any MediaSource] {
        [
            PixabayClient(endpoint: Endpoint(base: settings.pixabayBase), apiKey: settings.pixabayKey, http: http),
            FlickrClient(endpoint: Endpoint(base: settings.flickrBase), apiKey: settings.flickrKey, http: http),
            OpenverseClient(endpoint: Endpoint(base: settings.openverseBase), http: http),
            WikimediaClient(endpoint: Endpoint(base: settings.wikimediaBase), http: http),
            ITunesClient(endpoint: Endpoint(base: settings.itunesBase), http: http),
        ]
    }
}
