import Foundation

/// The fast route's second half (`PerceptualHashing`, docs/duplicates.md, "Hashing one thumbnail"): the small
/// image the loader decoded, made into the hash's grey pixels the way libvips' thumbnail route does, without
/// its pipeline.
/// Per band, alpha premultiplied: a separable Lanczos-3 resample (libvips' `reduce` kernel, widened by the
/// shrink so every source pixel counts); then transparency flattened onto white and sRGB turned to grey as
/// `vips_colourspace` does (luminance in linear light, encoded back with the sRGB curve).
enum GreyResampler {
    /// `pixels`: `width`×`height`×`bands` bytes, 8-bit, row by row; 1 band grey, 2 grey and alpha, 3 sRGB,
    /// 4 sRGB and alpha. Returns `outWidth`×`outHeight` grey bytes.
    static func grey(
        _ pixels: UnsafeRawBufferPointer, width: Int, height: Int, bands: Int, outWidth: Int, outHeight: Int
    ) -> [UInt8] {
        precondition((1...4).contains(bands) && pixels.count >= width * height * bands)
        let alpha = bands == 2 || bands == 4
        let colours = alpha ? bands - 1 : bands
        let rows = Weights(from: height, to: outHeight)
        let columns = Weights(from: width, to: outWidth)
        // Planes of floats, premultiplied: colours, then alpha (0...1).
        let count = width * height
        var planes = [Float](repeating: 0, count: count * bands)
        planes.withUnsafeMutableBufferPointer { planes in
            let bytes = pixels.bindMemory(to: UInt8.self)
            for index in 0..<count {
                let base = index * bands
                let opacity: Float = alpha ? Float(bytes[base + bands - 1]) / 255 : 1
                for band in 0..<colours { planes[band * count + index] = Float(bytes[base + band]) * opacity }
                if alpha { planes[colours * count + index] = opacity }
            }
        }
        let small = planes.withUnsafeBufferPointer { planes in
            (0..<bands).map { band in
                resample(
                    UnsafeBufferPointer(rebasing: planes[(band * count)..<((band + 1) * count)]), width: width,
                    rows: rows, columns: columns)
            }
        }
        var grey = [UInt8](repeating: 0, count: outWidth * outHeight)
        for index in grey.indices {
            // Flattened onto white: premultiplied colour plus white where it is transparent.
            let white: Float = alpha ? 255 * (1 - min(max(small[colours][index], 0), 1)) : 0
            let value: Float
            if colours == 1 {
                value = small[0][index] + white
            } else {
                // Each band rounded to 8 bits first, as libvips' resize leaves it before its grey.
                let luminance =
                    0.2126 * linear(small[0][index] + white) + 0.7152 * linear(small[1][index] + white)
                    + 0.0722 * linear(small[2][index] + white)
                value = encoded(luminance)
            }
            grey[index] = UInt8(min(max(value.rounded(), 0), 255))
        }
        return grey
    }

    /// Lanczos-3 weights for each output sample along one axis: the first source sample and the weights
    /// from it (edges repeated, as libvips extends an image before reducing it).
    struct Weights {
        var first: [Int] = []
        var taps = 0
        var weights: [Float] = []

        init(from size: Int, to outSize: Int) {
            let scale = Double(size) / Double(outSize)
            let support = 3 * max(scale, 1)
            let kernel = Int((2 * support).rounded(.up)) + 1
            // Read from the source: never more samples than it has.
            taps = min(kernel, size)
            for out in 0..<outSize {
                let centre = (Double(out) + 0.5) * scale - 0.5
                let start = Int((centre - support).rounded(.up))
                var row = (0..<kernel).map { tap in Self.lanczos3((Double(start + tap) - centre) / max(scale, 1)) }
                let total = row.reduce(0, +)
                row = row.map { $0 / total }
                // Taps past an edge read the edge pixel (their weights move onto it), within `taps` from `first`.
                let first = min(max(0, start), size - taps)
                var folded = [Double](repeating: 0, count: taps)
                for tap in 0..<kernel {
                    folded[min(max(start + tap, 0), size - 1) - first] += row[tap]
                }
                self.first.append(first)
                weights.append(contentsOf: folded.map(Float.init))
            }
        }

        static func lanczos3(_ x: Double) -> Double {
            if x == 0 { return 1 }
            guard abs(x) < 3 else { return 0 }
            // sin(πx) from sin(πx/3): one sine a tap (sin 3θ = 3 sin θ − 4 sin³ θ).
            let third = sin(Double.pi * x / 3)
            let pix = Double.pi * x
            return 3 * (3 * third - 4 * third * third * third) * third / (pix * pix)
        }
    }

    /// One plane (`width` wide) through the row weights, then the column weights.
    private static func resample(_ plane: UnsafeBufferPointer<Float>, width: Int, rows: Weights, columns: Weights)
        -> [Float]
    {
        let outHeight = rows.first.count
        let outWidth = columns.first.count
        var tall = [Float](repeating: 0, count: width * outHeight)
        tall.withUnsafeMutableBufferPointer { tall in
            rows.weights.withUnsafeBufferPointer { weights in
                let (to, from) = (tall.baseAddress!, plane.baseAddress!)
                for y in 0..<outHeight {
                    let row = to + y * width
                    for tap in 0..<rows.taps {
                        let weight = weights[y * rows.taps + tap]
                        guard weight != 0 else { continue }
                        let source = from + (rows.first[y] + tap) * width
                        for x in 0..<width { row[x] += weight * source[x] }
                    }
                }
            }
        }
        var out = [Float](repeating: 0, count: outWidth * outHeight)
        out.withUnsafeMutableBufferPointer { out in
            tall.withUnsafeBufferPointer { tall in
                columns.weights.withUnsafeBufferPointer { weights in
                    for y in 0..<outHeight {
                        for x in 0..<outWidth {
                            var sum: Float = 0
                            let source = y * width + columns.first[x]
                            for tap in 0..<columns.taps { sum += weights[x * columns.taps + tap] * tall[source + tap] }
                            out[y * outWidth + x] = sum
                        }
                    }
                }
            }
        }
        return out
    }

    /// An sRGB value (0...255), rounded to 8 bits, in linear light (0...1).
    private static func linear(_ value: Float) -> Float {
        linearLight[Int(min(max(value.rounded(), 0), 255))]
    }

    /// The sRGB curve's inverse for each 8-bit value.
    private static let linearLight: [Float] = (0..<256).map { value in
        let v = Float(value) / 255
        return v <= 0.04045 ? v / 12.92 : powf((v + 0.055) / 1.055, 2.4)
    }

    /// Linear light (0...1) encoded with the sRGB curve (0...255).
    private static func encoded(_ value: Float) -> Float {
        let v = min(max(value, 0), 1)
        return 255 * (v <= 0.0031308 ? v * 12.92 : 1.055 * powf(v, 1 / 2.4) - 0.055)
    }
}
