import CVips

/// libvips, started once per process.
public enum Imaging {
    /// Whether libvips started.
    public static let isAvailable: Bool = tessera_vips_init("tessera") == 0
}
