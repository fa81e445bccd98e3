// Shared by every fuzz target (scripts/fuzz-parsers compiles it into each; docs/fuzzing.md).

/// The input as bytes, copied out of libFuzzer's buffer.
func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// The input as text: invalid UTF-8 becomes U+FFFD, as a header or query value's bytes would.
func text(_ bytes: some Collection<UInt8>) -> String {
    String(decoding: bytes, as: UTF8.self)
}

/// The input's lines (split on "\n" only, every line kept), so that seed files can be written by hand.
func lines(_ bytes: [UInt8]) -> [String] {
    bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { text($0) }
}

/// Ends the run with `message` when an invariant does not hold: a finding, like a trap. `fatalError`, not
/// `precondition`, so that the message is printed in optimized builds too.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("broken invariant: \(message())") }
}
