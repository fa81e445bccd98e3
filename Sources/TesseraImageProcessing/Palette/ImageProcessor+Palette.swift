import CVips
import Foundation
import TesseraCore

extension ImageProcessor {
    /// The colours of the image in a file (`ColorPalette`), from a thumbnail of `ColorPalette.side` pixels that
    /// libvips shrinks while decoding (JPEG decodes at an eighth of its size or less). Runs on the caller's
    /// thread, as `info(fileAt:)` does: the indexer calls both on its own pool.
    ///
    /// Images over `maxPixels` are refused (`tooManyPixels`) before anything is decoded.
    public func palette(fileAt path: String) throws(ImagingError) -> ColorPalette {
        let format = try supportedFormat(of: Vips.prefix(ofFileAt: path))
        let source = try Vips.source(forFileAt: path)
        defer { g_object_unref(source) }
        _ = try inspect(format) { tessera_image_new_from_source(source) }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        var width: Int32 = 0
        var height: Int32 = 0
        var bands: Int32 = 0
        guard
            tessera_palette_pixels(source, Int32(ColorPalette.side), &buffer, &length, &width, &height, &bands)
                == 0, let buffer
        else { throw .unreadable(Vips.takeError()) }
        defer { g_free(buffer) }
        return ColorPalette(pixels: UnsafeRawBufferPointer(start: buffer, count: length), bands: Int(bands))
    }
}
