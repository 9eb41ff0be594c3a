import TipcatArguments
import TipcatCatalog
import TipcatCore

/// `--device iphone|ipad|mac|watch|tv|vision`, shared by `render` and `engine show`.
enum DeviceOption {
    /// The option's spec.
    static let spec = ArgumentSpec.option(
        "device", valueName: "device",
        help: "The device to render for: \(Device.names.joined(separator: ", ")) (String Catalog device variations and the tip's platforms); default: none (the 'other' variation).")

    /// The device `--device` names, nil without it; an unknown name is a usage error with a did-you-mean.
    static func device(in arguments: ParsedArguments) throws -> Device? {
        guard let text = arguments.value("device") else { return nil }
        guard let device = Device(name: text) else {
            throw CommandError.usage(
                "unknown device '\(text)'" + Suggestions.didYouMean(text, in: Device.names) + " (devices: \(Device.names.joined(separator: ", ")))",
                command: arguments.commandPath)
        }
        return device
    }
}
