/// A drop link's hourly window, the same rule on both engines: an hour begins with the first drop after the
/// last hour ended, and takes `perHour` drops.
public struct DropWindow: Sendable, Hashable {
    public var start: Double?
    public var count: Int

    public init(start: Double?, count: Int) {
        self.start = start
        self.count = count
    }

    /// The window after one more drop at `now`, and `nil`; or the window unchanged and the seconds to wait.
    public func taking(perHour: Int, at now: Double) -> (DropWindow, Int?) {
        guard let start, now < start + 3600 else { return (DropWindow(start: now, count: 1), nil) }
        guard count < perHour else { return (self, max(1, Int((start + 3600 - now).rounded(.up)))) }
        return (DropWindow(start: start, count: count + 1), nil)
    }
}
