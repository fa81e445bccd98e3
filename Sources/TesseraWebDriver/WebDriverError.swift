/// Everything that can go wrong while driving the browser, each with a message that says what to do or look at.
public enum WebDriverError: Error, CustomStringConvertible {
    /// A binary is missing; `package` is the Debian package that provides it.
    case notInstalled(package: String, path: String)
    /// chromedriver exited before it said it was ready: its output, silenced in tests, says why.
    case driverExited(status: Int32)
    /// The driver refused a command with a W3C error, `{"value": {"error", "message"}}`.
    /// `code` is the W3C error code, such as "no such element" or "javascript error".
    case command(code: String, message: String, request: String)
    /// The driver answered with something that is not a W3C response.
    case unexpectedResponse(request: String, status: UInt, body: String)
    /// A wait ran out of time; `what` names what the test was waiting for.
    case timeout(what: String, after: Duration)

    /// The W3C error code of a refused command.
    public var code: String? { if case .command(let code, _, _) = self { code } else { nil } }

    public var description: String {
        switch self {
        case .notInstalled(let package, let path):
            "\(package) is not installed: apt-get install chromium chromium-driver (no \(path))"
        case .driverExited(let status):
            "chromedriver exited with status \(status) before it was ready; run \(Chromedriver.binary) --port=0 to see why"
        case .command(let code, let message, let request):
            // Chromedriver's messages mostly start with the code already.
            "\(request) failed: \(message.hasPrefix(code) ? message : "\(code): \(message)")"
        case .unexpectedResponse(let request, let status, let body):
            "\(request) answered HTTP \(status) with no W3C value: \(body.prefix(500))"
        case .timeout(let what, let after):
            "timed out after \(after) waiting for \(what)"
        }
    }
}
