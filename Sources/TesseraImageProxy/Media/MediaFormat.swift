/// The audio and video containers the media route serves, told by their first bytes, and the content types
/// it accepts from a host. Everything else is refused: the route is for previews, not a general proxy.
public enum MediaFormat: String, Sendable, CaseIterable {
    /// ISO base media (MP4, M4A, M4V, QuickTime): `ftyp` at byte 4.
    case mp4
    case wav
    /// WebM and Matroska (EBML).
    case webm
    case ogg
    case flac
    /// MP3 with an ID3 tag or starting on a frame.
    case mp3
    /// Raw AAC in ADTS frames.
    case aac

    /// Enough for every signature below.
    public static let prefixLength = 16

    /// The format `bytes` (the first few of a body) begin with, or `nil` when they are not audio or video.
    public static func sniff(_ bytes: some Collection<UInt8>) -> MediaFormat? {
        let b = Array(bytes.prefix(prefixLength))
        func at(_ offset: Int, _ text: String) -> Bool {
            let expected = Array(text.utf8)
            return b.count >= offset + expected.count && Array(b[offset..<offset + expected.count]) == expected
        }
        if at(4, "ftyp") { return .mp4 }
        if at(0, "RIFF"), at(8, "WAVE") { return .wav }
        if b.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return .webm }
        if at(0, "OggS") { return .ogg }
        if at(0, "fLaC") { return .flac }
        if at(0, "ID3") { return .mp3 }
        guard b.count >= 2, b[0] == 0xFF else { return nil }
        // Frame sync: 11 bits set. ADTS has layer bits 00 (0xF0/0xF1/0xF8/0xF9); MPEG audio layers 1 to 3 do not.
        if b[1] & 0xF6 == 0xF0 { return .aac }
        if b[1] & 0xE0 == 0xE0, b[1] & 0x06 != 0 { return .mp3 }
        return nil
    }

    /// The content type served for these bytes. ISO media is audio or video by its brand, else by what the
    /// host said (`audio/…` stays audio).
    public func contentType(brandOf bytes: some Collection<UInt8>, declared: String?) -> String {
        switch self {
        case .mp4:
            let brand = String(decoding: Array(bytes.dropFirst(8).prefix(4)), as: UTF8.self)
            if ["M4A ", "M4B ", "M4P "].contains(brand) { return "audio/mp4" }
            if brand == "M4V " || brand == "M4VH" || brand == "M4VP" { return "video/x-m4v" }
            if brand == "qt  " { return "video/quicktime" }
            return declared.map(Self.essence)?.hasPrefix("audio/") == true ? "audio/mp4" : "video/mp4"
        case .wav: return "audio/wav"
        case .webm: return declared.map(Self.essence)?.hasPrefix("audio/") == true ? "audio/webm" : "video/webm"
        case .ogg: return declared.map(Self.essence)?.hasPrefix("video/") == true ? "video/ogg" : "audio/ogg"
        case .flac: return "audio/flac"
        case .mp3: return "audio/mpeg"
        case .aac: return "audio/aac"
        }
    }

    /// The content types a host may send for a preview (`Content-Type` without its parameters, lower-cased).
    public static let acceptedTypes: Set<String> = [
        "audio/mp4", "audio/x-m4a", "audio/m4a", "audio/aac", "audio/aacp", "audio/mpeg", "audio/mp3",
        "audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave", "audio/webm", "audio/ogg", "audio/flac",
        "audio/x-flac", "video/mp4", "video/x-m4v", "video/quicktime", "video/webm", "video/ogg",
    ]

    /// `Audio/MP4; codecs=…` → `audio/mp4`.
    public static func essence(_ contentType: String) -> String {
        String(contentType.split(separator: ";", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces)
            .lowercased()
    }

    /// What the fetcher asks for.
    static let accept = "audio/*, video/*;q=0.9"
}
