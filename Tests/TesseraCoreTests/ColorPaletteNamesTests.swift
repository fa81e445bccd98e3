import Testing

@testable import TesseraCore

/// How a pixel's colour is named for the `color` filter (docs/filters.md); the palettes of whole pictures are
/// in TesseraImageProcessingTests, where libvips reads them.
@Suite("Colour names")
struct ColorPaletteNamesTests {
    @Test func everyPixelNameHasTheHueItsNameSays() {
        #expect(ColorPalette.name(LCh(red: 255, green: 0, blue: 0)) == .red)
        #expect(ColorPalette.name(LCh(red: 0, green: 0, blue: 255)) == .blue)
        #expect(ColorPalette.name(LCh(red: 0, green: 0, blue: 128)) == .blue, "navy is blue, not black")
        #expect(ColorPalette.name(LCh(red: 139, green: 0, blue: 0)) == .red, "dark red is red, not brown")
        #expect(ColorPalette.name(LCh(red: 139, green: 69, blue: 19)) == .brown)
        #expect(ColorPalette.name(LCh(red: 255, green: 192, blue: 203)) == .pink)
        #expect(ColorPalette.name(LCh(red: 64, green: 224, blue: 208)) == .turquoise)
    }
}
