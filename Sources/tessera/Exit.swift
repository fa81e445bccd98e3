import ArgumentParser
import TesseraServer

/// How every command ends with a reason: the message on standard error, then exit status 2 for bad input
/// or 1 for a failure.
enum Exit {
    static func badInput(_ message: String) -> ExitCode {
        Terminal.error("error: \(message)\n")
        return ExitCode(2)
    }

    static func failure(_ message: String) -> ExitCode {
        Terminal.error("error: \(message)\n")
        return ExitCode(1)
    }

    /// The settings from defaults, environment and flags; settings that do not parse are bad input.
    static func configuration(_ common: CommonOptions) throws -> AppConfiguration {
        do {
            return try common.configuration()
        } catch let error as ValidationError {
            throw badInput(error.message)
        }
    }
}
