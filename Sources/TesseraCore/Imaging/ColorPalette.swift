import Foundation

/// The colours a picture shows, named as the `color` search filter names them (docs/filters.md): Pixabay's
/// twelve, plus `grayscale` (no colour at all) and `transparent` (a see-through area).
///
/// Computed once per library photo at index time from a 64-pixel thumbnail: each pixel is named in CIE LCh
/// (lightness, chroma, hue: a perceptual space, so "how colourful" and "which hue" are separate numbers), and
/// a colour is in the palette when it covers at least `minimumShare` of the picture.
public struct ColorPalette: Sendable, Hashable {
    public var colors: Set<SearchFilters.Color>

    public init(_ colors: Set<SearchFilters.Color>) {
        self.colors = colors
    }

    /// Nothing known: a picture whose pixels could not be read.
    public static let empty = ColorPalette([])

    /// The side of the thumbnail a palette is computed from: 4,096 pixels at most, enough for areas of 2 %.
    public static let side = 64
    /// A colour covering this share of the (opaque) picture is one of its colours.
    public static let minimumShare = 0.15
    /// Grayscale when this share of the picture's visible, not near-black pixels has no colour.
    public static let grayscaleShare = 0.97
    /// Transparent when this share of the area is more than half see-through.
    public static let transparentShare = 0.01
    /// Below this chroma (CIE LCh, 0 to about 130) a pixel is white, gray or black.
    static let neutralChroma = 10.0

    /// The palette of 8-bit sRGB pixels, `bands` (3, or 4 with alpha) bytes each.
    public init(pixels: UnsafeRawBufferPointer, bands: Int) {
        precondition(bands == 3 || bands == 4)
        var shares: [SearchFilters.Color: Double] = [:]
        var total = 0.0
        var neutral = 0.0
        var lit = 0.0
        var seeThrough = 0
        var count = 0
        var index = 0
        while index + bands <= pixels.count {
            let weight = bands == 4 ? Double(pixels[index + 3]) / 255 : 1
            if bands == 4 && pixels[index + 3] < 128 { seeThrough += 1 }
            count += 1
            if weight > 0 {
                let lch = LCh(red: pixels[index], green: pixels[index + 1], blue: pixels[index + 2])
                shares[Self.name(lch), default: 0] += weight
                total += weight
                // Near-black pixels have little chroma in any photo: they do not make it grayscale.
                if lch.lightness >= 15 {
                    lit += weight
                    if lch.chroma < Self.neutralChroma / 2 { neutral += weight }
                }
            }
            index += bands
        }
        var colors = Set<SearchFilters.Color>()
        if total > 0 {
            colors = Set(shares.filter { $0.value / total >= Self.minimumShare }.keys)
            if colors.isEmpty, let largest = shares.max(by: { $0.value < $1.value }) { colors.insert(largest.key) }
            if lit == 0 || neutral / lit >= Self.grayscaleShare { colors.insert(.grayscale) }
        }
        if count > 0, Double(seeThrough) / Double(count) >= Self.transparentShare { colors.insert(.transparent) }
        self.colors = colors
    }

    /// The name of one colour. Hue angles are CIE LCh's: sRGB red is at 40°, yellow 103°, green 136°, cyan
    /// 196°, blue 306°, magenta 328°; the bounds put CSS's named colours where people would (royal blue 292°
    /// and slate blue 302° blue, blue violet 313° and orchid 328° lilac, hot pink 351° pink).
    static func name(_ color: LCh) -> SearchFilters.Color {
        let (lightness, chroma, hue) = (color.lightness, color.chroma, color.hue)
        if lightness < 12 { return .black }
        if chroma < neutralChroma || (lightness > 92 && chroma < 18) {
            if lightness >= 88 { return .white }
            return lightness < 25 ? .black : .gray
        }
        if lightness < 22 && chroma < 20 { return .black }
        // Dark or dull oranges and yellows are what people call brown (wood, coffee, leather, earth).
        if hue >= 30 && hue < 90 && (lightness < 55 || chroma < 30) && !(hue < 45 && chroma > 55) {
            return .brown
        }
        switch hue {
        case 15..<50: return .red
        case 50..<75: return .orange
        case 75..<110: return .yellow
        case 110..<170: return .green
        case 170..<220: return .turquoise
        case 220..<310: return .blue
        case 310..<340: return .lilac
        default: return .pink
        }
    }
}

/// A colour in CIE LCh(ab), D65: lightness 0–100, chroma 0–~130, hue in degrees.
struct LCh: Sendable, Hashable {
    var lightness: Double
    var chroma: Double
    var hue: Double

    init(lightness: Double, chroma: Double, hue: Double) {
        self.lightness = lightness
        self.chroma = chroma
        self.hue = hue
    }

    /// From 8-bit sRGB, through linear light and CIE XYZ.
    init(red: UInt8, green: UInt8, blue: UInt8) {
        let r = Self.linear[Int(red)]
        let g = Self.linear[Int(green)]
        let b = Self.linear[Int(blue)]
        let x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
        let z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        let (fx, fy, fz) = (f(x), f(y), f(z))
        let a = 500 * (fx - fy)
        let bb = 200 * (fy - fz)
        lightness = 116 * fy - 16
        chroma = (a * a + bb * bb).squareRoot()
        let degrees = atan2(bb, a) * 180 / .pi
        hue = degrees < 0 ? degrees + 360 : degrees
    }

    /// sRGB's transfer function undone, for each 8-bit value.
    private static let linear: [Double] = (0..<256).map { value in
        let c = Double(value) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
}
