/// Display strings for numbers that appear in metadata.
public enum Format {
    /// `811238` → `"811 KB"`, `4200000` → `"4.2 MB"` (decimal units, as file browsers show them).
    public static func bytes(_ count: Int) -> String {
        switch count {
        case ..<1_000: return "\(count) bytes"
        case ..<1_000_000: return "\(Int((Double(count) / 1_000).rounded())) KB"
        case ..<1_000_000_000: return oneDecimal(Double(count) / 1_000_000) + " MB"
        default: return oneDecimal(Double(count) / 1_000_000_000) + " GB"
        }
    }

    /// `3345, 5017` → `"3345 × 5017"`.
    public static func dimensions(_ width: Int?, _ height: Int?) -> String? {
        guard let width, let height, width > 0, height > 0 else { return nil }
        return "\(width) × \(height)"
    }

    /// `6793995` ms → `"1:53:14"`; `215000` → `"3:35"`.
    public static func duration(milliseconds: Int) -> String {
        let total = Int((Double(milliseconds) / 1000).rounded())
        let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60)
        let mmss = (minutes < 10 && hours > 0 ? "0" : "") + "\(minutes):" + (seconds < 10 ? "0" : "") + "\(seconds)"
        return hours > 0 ? "\(hours):\(mmss)" : mmss
    }

    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
