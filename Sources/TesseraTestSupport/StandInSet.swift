/// One stand-in for every provider, in display order: what tests of the whole fan-out and the
/// benchmarks start.
public struct StandInSet: Sendable {
    public let pixabay = PixabayStandIn()
    public let flickr = FlickrStandIn()
    public let openverse = OpenverseStandIn()
    public let wikimedia = WikimediaStandIn()
    public let itunes = ITunesStandIn()

    public init() {}

    public var list: [any StandInProvider] { [pixabay, flickr, openverse, wikimedia, itunes] }

    /// Gives `query` the same number of results everywhere.
    public func setTotal(_ query: String, _ total: Int) {
        for provider in list { provider.state.corpus.set(query, total: total) }
    }
}
