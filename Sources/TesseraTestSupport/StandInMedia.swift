import Foundation
import Synchronization

/// The preview every stand-in media host answers with: a real WAV file (16-bit PCM, mono, 8 kHz, a quiet
/// 440 Hz tone), which every Chromium plays, with or without the licensed AAC and H.264 decoders.
public enum StandInMedia {
    /// Three seconds: long enough for a browser test to see playback advance.
    public static let wav = wav(seconds: 3)

    /// A WAV of `seconds` (at least one sample), made here rather than stored.
    public static func wav(seconds: Double, sampleRate: Int = 8_000) -> [UInt8] {
        let samples = max(1, Int(seconds * Double(sampleRate)))
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        func le16(_ value: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        var bytes = Array("RIFF".utf8) + le32(36 + samples * 2) + Array("WAVEfmt ".utf8)
        bytes += le32(16) + le16(1) + le16(1) + le32(sampleRate) + le32(sampleRate * 2) + le16(2) + le16(16)
        bytes += Array("data".utf8) + le32(samples * 2)
        bytes.reserveCapacity(bytes.count + samples * 2)
        for index in 0..<samples {
            let value = Int((sin(2 * Double.pi * 440 * Double(index) / Double(sampleRate)) * 3_000).rounded())
            bytes += le16(value)
        }
        return bytes
    }

    /// An HTML page, for a host that answers a preview address with something else.
    public static let page = Array("<!doctype html><html><body><h1>Preview unavailable</h1></body></html>".utf8)
}

/// What the iTunes stand-in's preview host answers: the WAV, or (for a negative test) an HTML page.
public final class StandInPreviews: Sendable {
    private let notMedia = Mutex(false)

    public init() {}

    /// When set, every preview address answers an HTML page labelled `text/html`.
    public var answersNotMedia: Bool {
        get { notMedia.withLock { $0 } }
        set { notMedia.withLock { $0 = newValue } }
    }
}
