import TesseraCore

/// libvips as the galleries (`ImageInspecting`) and the library's indexer (`PhotoReading`) see it: the methods
/// are `ImageProcessor`'s own.
extension ImageProcessor: ImageInspecting, PhotoReading {
    public func readingPool(size: Int, name: String) -> BlockingPool {
        .imaging(size: size, name: name)
    }
}
