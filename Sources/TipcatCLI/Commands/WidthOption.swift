import TipcatArguments
import TipcatText

/// `--width N`, shared by `render` and `engine show`: a whole number of columns from 1 to
/// `Terminal.maximumWidth`; anything else is a usage error.
enum WidthOption {
    /// The option's spec.
    static let spec = ArgumentSpec.option(
        "width", valueName: "columns", help: "The width to fit (1–\(Terminal.maximumWidth) columns).")

    /// The width `--width` names, nil without it.
    static func columns(in arguments: ParsedArguments) throws -> Int? {
        guard let text = arguments.value("width") else { return nil }
        guard let columns = Int(text), (1...Terminal.maximumWidth).contains(columns) else {
            throw CommandError.usage(
                "--width takes a number of columns from 1 to \(Terminal.maximumWidth), not '\(Sanitizer.terminalSafe(text))'",
                command: arguments.commandPath)
        }
        return columns
    }
}
