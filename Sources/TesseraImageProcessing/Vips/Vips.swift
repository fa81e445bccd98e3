import COrcLock
import CVips
import Foundation
import Logging
import TesseraCore

/// libvips for the whole process: started once, on first use, and set up for untrusted input.
enum Vips {
    /// The only loaders that may run. Everything else (TIFF, SVG, PDF, ImageMagick...) is blocked even if a
    /// file's bytes would select it: Tessera reads what `ImageSniffer` knows, through loaders that are
    /// fuzzed and trusted.
    static let allowedLoaders = [
        "VipsForeignLoadJpeg", "VipsForeignLoadPng", "VipsForeignLoadNsgif", "VipsForeignLoadWebp",
        "VipsForeignLoadHeif",
    ]

    /// `nil` once libvips runs, else why it does not. Swift runs this initialiser once, thread-safely.
    private static let startFailure: String? = start()

    /// Starts libvips if nobody has yet.
    static func ensureStarted() throws(ImagingError) {
        if let startFailure { throw .failed(startFailure) }
    }

    private static func start() -> String? {
        guard tessera_vips_init("tessera") == 0 else { return "libvips did not start: \(takeError())" }
        // Warnings about damaged input would go to stderr for every bad file; they are not actionable.
        let levels = G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_MESSAGE.rawValue | G_LOG_LEVEL_INFO.rawValue
        g_log_set_handler("VIPS", GLogLevelFlags(rawValue: levels), logLibvipsMessage, nil)
        vips_block_untrusted_set(1)
        vips_operation_block_set("VipsForeignLoad", 1)
        for loader in allowedLoaders { vips_operation_block_set(loader, 0) }
        // The operation cache keeps recent results (decoded images among them) for reuse; Tessera never asks
        // twice for the same thing, so it would only hold memory.
        vips_cache_set_max(0)
        // libvips' vector code (orc) crashes under concurrent pipelines unless its frees take orc's lock
        // (Sources/COrcLock); where that lock cannot be put in place, the plain C paths run instead.
        if tessera_orc_lock_in_effect() == 0 { vips_vector_set_enabled(0) }
        // vips_concurrency stays libvips' default (one thread per core, or VIPS_CONCURRENCY): each image's
        // pipeline then overlaps decoding with shrinking and encoding, which is what keeps one thumbnail as
        // fast as vipsthumbnail's. One thread per image measured slower one at a time (3% in a quiet C loop,
        // more in the benchmark). The pool's `concurrency` bounds how many images are in flight (memory); the
        // extra threads mostly wait on the serial JPEG decoder, so `concurrency` pipelines of them cost little.
        return nil
    }

    /// libvips' error text since the last call, cleared. The buffer is shared by every thread, so under load
    /// it may hold another job's message too; it is for people and logs, not for decisions.
    static func takeError() -> String {
        guard let copy = vips_error_buffer_copy() else { return "no reason given" }
        defer { g_free(copy) }
        let text = String(cString: copy).split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        return text.isEmpty ? "no reason given" : text
    }

    /// The loader `tessera_image_new_from_buffer` opens `format` with (shim.h).
    static func loader(_ format: ImageFormat) -> Int32 {
        switch format {
        case .jpeg: 0
        case .png: 1
        case .gif: 2
        case .webp: 3
        case .avif, .heic: 4
        }
    }

    /// Whether this libvips build can read `format`: HEIF support depends on libheif.
    static func canRead(_ format: ImageFormat) -> Bool {
        switch format {
        case .jpeg, .png, .gif, .webp: true
        case .avif, .heic: vips_type_find("VipsOperation", "heifload_buffer") != 0
        }
    }
}

/// libvips' warnings, at debug level: they describe damaged input, which the error thrown already reports.
private func logLibvipsMessage(
    _ domain: UnsafePointer<gchar>?, _ level: GLogLevelFlags, _ message: UnsafePointer<gchar>?,
    _ context: gpointer?
) {
    guard let message else { return }
    libvipsLogger.debug("\(String(cString: message))")
}

private let libvipsLogger = Logger(label: "tessera.imaging.libvips")

// MARK: - Images

typealias VipsImagePointer = UnsafeMutablePointer<VipsImage>

extension Vips {
    /// Size as displayed (EXIF orientation applied) of an image whose header is read.
    static func displayedSize(of image: VipsImagePointer) -> (width: Int, height: Int) {
        let width = Int(vips_image_get_width(image))
        let height = Int(vips_image_get_height(image))
        return vips_image_get_orientation_swap(image) != 0 ? (height, width) : (width, height)
    }

    /// A blob field's bytes (`icc-profile-data`, `iptc-data`...), `nil` when absent or empty.
    static func blob(_ name: String, of image: VipsImagePointer) -> [UInt8]? {
        guard vips_image_get_typeof(image, name) != 0 else { return nil }
        var data: UnsafeRawPointer?
        var length = 0
        guard vips_image_get_blob(image, name, &data, &length) == 0, let data, length > 0 else { return nil }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }

    /// The encoded bytes libvips handed over, owned by the `Data` from now on (no copy).
    static func takeBuffer(_ buffer: UnsafeMutableRawPointer, count: Int) -> Data {
        Data(bytesNoCopy: buffer, count: count, deallocator: .custom { pointer, _ in g_free(pointer) })
    }

    /// The first `ImageSniffer.prefixLength` bytes of a file.
    static func prefix(ofFileAt path: String) throws(ImagingError) -> Data {
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            return try handle.read(upToCount: ImageSniffer.prefixLength) ?? Data()
        } catch {
            throw .unreadable("cannot open \(path): \(error.localizedDescription)")
        }
    }

    /// A libvips source reading `path`. Unlike a file name, a source takes the path literally: no
    /// `[option=value]` suffix is parsed out of it.
    static func source(forFileAt path: String) throws(ImagingError) -> UnsafeMutablePointer<VipsSource> {
        guard let source = vips_source_new_from_file(path) else { throw .unreadable(takeError()) }
        return source
    }
}

/// Runs `body` with the bytes of `data`, which stay valid for the whole call.
func withBytes<T>(
    of data: Data, _ body: (UnsafeRawBufferPointer) throws(ImagingError) -> T
) throws(ImagingError) -> T {
    let result = data.withUnsafeBytes { bytes in Result { () throws(ImagingError) in try body(bytes) } }
    return try result.get()
}
