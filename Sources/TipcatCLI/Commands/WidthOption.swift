import TipcatArguments
import TipcatRender
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

extension RenderSettings {
    /// The settings `render` and `engine show` render `style` with on `context`'s standard output: `--width`,
    /// `COLUMNS` or the window; colours (and OSC 8 hyperlinks where the terminal has them) only for ANSI styles,
    /// as `--color` and the environment decide.
    static func forOutput(of style: Style, arguments: ParsedArguments, context: CommandContext) throws -> RenderSettings {
        let terminal = TerminalEnvironment(
            variables: context.environment, isTTY: context.stdout.isTerminal, windowColumns: context.terminalColumns)
        let colorChoice = ColorChoice(rawValue: arguments.value("color") ?? "auto") ?? .auto
        let depth = style.manifest.output == .ansi ? Terminal.colorDepth(choice: colorChoice, environment: terminal) : .none
        let width = Terminal.width(option: try WidthOption.columns(in: arguments), environment: terminal)
        return RenderSettings(width: width, colorDepth: depth, hyperlinks: Terminal.hyperlinks(colorDepth: depth, environment: terminal))
    }
}
