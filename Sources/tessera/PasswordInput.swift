import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A password from the terminal with echo off (asked twice), or one line of standard input when that is not a
/// terminal. The prompt goes to standard error, the password nowhere.
enum PasswordInput {
    static func read(confirming: Bool) throws -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw Exit.badInput("No password on standard input: give it as one line.")
            }
            return line
        }
        let first = try prompt("Password: ")
        if confirming, try prompt("Again: ") != first {
            throw Exit.badInput("The two passwords differ; nothing was changed.")
        }
        return first
    }

    private static func prompt(_ text: String) throws -> String {
        Terminal.error(text)
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            Terminal.error("\n")
        }
        guard let line = readLine(strippingNewline: true) else { throw Exit.badInput("No password was typed.") }
        return line
    }
}
