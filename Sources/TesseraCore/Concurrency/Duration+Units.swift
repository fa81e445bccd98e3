extension Duration {
    /// The length in seconds, fractions included: `.milliseconds(1500).seconds == 1.5`.
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The length in milliseconds, fractions included: `.microseconds(2500).milliseconds == 2.5`.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
    }
}
