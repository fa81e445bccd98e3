import TesseraImaging
import Testing

@Test func libvipsStarts() {
    #expect(Imaging.isAvailable)
}
