import TesseraClient

// TesseraClient's types under names of their own: files that also import TesseraCore or TesseraGalleries
// (which have types of the same names) use these; `TesseraClient.Item` would name a member of the struct.
typealias ClientItem = Item
typealias ClientGalleryID = GalleryID
typealias ClientGallery = Gallery
