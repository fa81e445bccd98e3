import CVips
import Foundation
import TesseraCore
import Testing

@testable import TesseraImageProcessing

/// The colours the library's `color` filter reads (`ColorPalette`), computed with libvips from files made at
/// test time and from the sample photos.
@Suite("Colour palettes")
struct PaletteTests {
    let processor = ImageProcessor(concurrency: 1)

    private func palette(_ data: Data, _ name: String = "image") throws -> Set<SearchFilters.Color> {
        let folder = try TemporaryFolder()
        return try processor.palette(fileAt: try folder.write(data, as: name)).colors
    }

    /// One solid colour of each name, as a person would name it, saved as a JPEG: exactly that name.
    @Test(arguments: [
        (SearchFilters.Color.red, 220.0, 20.0, 30.0), (.orange, 240, 140, 20), (.yellow, 250, 225, 30),
        (.green, 40, 170, 60), (.turquoise, 40, 200, 190), (.blue, 30, 80, 220), (.lilac, 170, 110, 210),
        (.pink, 245, 120, 180), (.brown, 120, 70, 30), (.white, 250, 250, 250), (.gray, 128, 128, 128),
        (.black, 8, 8, 8),
    ])
    func aSolidColourIsNamedAsPeopleNameIt(expected: SearchFilters.Color, red: Double, green: Double, blue: Double)
        throws
    {
        let colors = try palette(try TestImage.solid(red, green, blue).jpeg())
        let neutral: Set<SearchFilters.Color> = [.white, .gray, .black]
        #expect(colors == (neutral.contains(expected) ? [expected, .grayscale] : [expected]))
    }

    @Test func everyColourCoveringEnoughOfThePictureIsInItsPalette() {
        // 60 % red, 30 % blue, 10 % green pixels: green covers less than `minimumShare`.
        let pixels: [UInt8] =
            Array(repeating: [220, 20, 30], count: 60).flatMap { $0 }
            + Array(repeating: [30, 80, 220], count: 30).flatMap { $0 }
            + Array(repeating: [40, 170, 60], count: 10).flatMap { $0 }
        let colors = pixels.withUnsafeBytes { ColorPalette(pixels: $0, bands: 3).colors }
        #expect(colors == [.red, .blue])
    }

    @Test func aGreyscaleImageIsGrayscale() throws {
        let grey = try TestImage.flat(
            width: 90, height: 60, bands: 1, value: 140, interpretation: VIPS_INTERPRETATION_B_W)
        let colors = try palette(grey.jpeg())
        #expect(colors.contains(.grayscale))
        #expect(colors.contains(.gray))
        #expect(!colors.contains(.transparent))
    }

    @Test func aPNGWithATransparentAreaIsTransparentAndKeepsItsColour() throws {
        let cutout = try TestImage.solid(200, 30, 40).cutout(opaque: 0.5)
        let colors = try palette(cutout.png(), "cutout.png")
        #expect(colors.contains(.transparent))
        #expect(colors.contains(.red), "the opaque half is red: \(colors)")
        #expect(!colors.contains(.black), "see-through pixels are no colour: \(colors)")
    }

    @Test func anOpaqueImageWithAnAlphaBandIsNotTransparent() throws {
        let opaque = try TestImage.solid(30, 80, 220).cutout(opaque: 1.0)
        let colors = try palette(opaque.png(), "opaque.png")
        #expect(colors == [.blue])
    }

    @Test func aColourfulPhotoIsNotGrayscale() throws {
        let colors = try palette(TestImage.photo(width: 300, height: 200).jpeg())
        #expect(!colors.contains(.grayscale))
        #expect(!colors.isEmpty)
    }

    // MARK: - The sample photos, where the colour is not in doubt

    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")

    private func samplePalette(_ path: String) throws -> Set<SearchFilters.Color> {
        try processor.palette(fileAt: Self.samples.appendingPathComponent(path).path).colors
    }

    @Test func theBlackAndWhitePhotographIsGrayscale() throws {
        let colors = try samplePalette("People/photographer-with-camera-on-tripod.jpg")
        #expect(colors.contains(.grayscale))
        #expect(colors.isDisjoint(with: [.red, .orange, .yellow, .green, .turquoise, .blue, .lilac, .pink, .brown]))
    }

    @Test func theDeepFieldIsBlackAndNotGrayscale() throws {
        let colors = try samplePalette("Space/hubble-extreme-deep-field.jpg")
        #expect(colors.contains(.black))
        #expect(!colors.contains(.grayscale), "its galaxies are coloured")
        #expect(!colors.contains(.white))
    }

    @Test func theEspressoOnAWoodenTableIsBrown() throws {
        let colors = try samplePalette("Cafe/espresso-cup-on-a-wooden-table.jpg")
        #expect(colors.contains(.brown))
        #expect(!colors.contains(.grayscale))
        #expect(!colors.contains(.blue))
    }

    @Test func anUnreadableFileHasNoPalette() throws {
        let folder = try TemporaryFolder()
        let truncated = try TestImage.photo(width: 400, height: 300).jpeg().prefix(600)
        #expect(throws: ImagingError.self) {
            try processor.palette(fileAt: try folder.write(Data(truncated), as: "cut.jpg"))
        }
    }
}
