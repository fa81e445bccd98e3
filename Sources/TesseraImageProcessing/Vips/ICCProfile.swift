/// Just enough of an ICC profile to tell whether it is sRGB: its description tag.
///
/// A thumbnail is written without a profile, which browsers read as sRGB. An image whose embedded profile
/// is something else (Display P3 from phones, Adobe RGB from cameras) must be converted or its colours
/// shift; an sRGB one need not be, and skipping that per-pixel transform makes thumbnails much cheaper.
enum ICCProfile {
    /// Whether the profile says it is sRGB (`"sRGB IEC61966-2.1"`, `"sRGB built-in"`...). Anything
    /// unreadable counts as not sRGB, so it is converted: slower, never wrong.
    static func isSRGB(_ profile: [UInt8]) -> Bool {
        guard let description = description(of: profile)?.lowercased() else { return false }
        return description.contains("srgb") || description.contains("61966-2")
    }

    /// The `desc` tag's text: ICC v2's `desc` type (ASCII) or v4's `mluc` (UTF-16, first record).
    static func description(of profile: [UInt8]) -> String? {
        func uint32(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 4 <= profile.count else { return nil }
            return profile[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        func text(_ offset: Int, _ length: Int) -> ArraySlice<UInt8>? {
            guard offset >= 0, length >= 0, offset + length <= profile.count else { return nil }
            return profile[offset..<offset + length]
        }
        guard let count = uint32(128), count < 1000 else { return nil }
        for index in 0..<count {
            let entry = 132 + 12 * index
            guard let signature = text(entry, 4), let start = uint32(entry + 4) else { return nil }
            guard signature.elementsEqual("desc".utf8), let type = text(start, 4) else { continue }
            if type.elementsEqual("desc".utf8), let length = uint32(start + 8),
                let ascii = text(start + 12, min(length, 256))
            {
                return String(decoding: ascii.prefix { $0 != 0 }, as: UTF8.self)
            }
            if type.elementsEqual("mluc".utf8), let records = uint32(start + 8), records > 0,
                let length = uint32(start + 20), let offset = uint32(start + 24),
                let utf16 = text(start + offset, min(length, 512))
            {
                let units = stride(from: utf16.startIndex, to: utf16.endIndex - 1, by: 2).map {
                    UInt16(utf16[$0]) << 8 | UInt16(utf16[$0 + 1])
                }
                return String(decoding: units, as: UTF16.self)
            }
            return nil
        }
        return nil
    }
}
