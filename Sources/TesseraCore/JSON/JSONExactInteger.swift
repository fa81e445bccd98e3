extension Int {
    /// 2^53 - 1, the largest integer a JSON number holds exactly in every reader (a JavaScript `Number`): the
    /// `maximum` docs/openapi.yaml gives every index, side and count a client sends.
    public static let largestExactInJSON = 9_007_199_254_740_991
}
