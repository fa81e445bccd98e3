/// The guarded outbound fetcher (issue 3, in progress).
public enum ImageFetcherPlaceholder {}
