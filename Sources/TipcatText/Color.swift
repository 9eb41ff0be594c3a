/// The 16 named terminal colors, in SGR order (`black` is 30/40, `brightBlack` is 90/100).
public enum ANSIColor: UInt8, Sendable, Hashable, CaseIterable {
    /// SGR 30–37 / 40–47; palette entries 0–7.
    case black, red, green, yellow, blue, magenta, cyan, white
    /// SGR 90–97 / 100–107; palette entries 8–15.
    case brightBlack, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan, brightWhite

    /// The color's RGB value in xterm's default palette (what downsampling measures against).
    public var rgb: (red: UInt8, green: UInt8, blue: UInt8) {
        let palette: [(UInt8, UInt8, UInt8)] = [
            (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
            (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
        ]
        let entry = palette[Int(rawValue)]
        return (entry.0, entry.1, entry.2)
    }
}

/// A terminal color: named (16), an xterm 256-palette index, or 24-bit RGB.
public enum Color: Sendable, Hashable {
    /// One of the 16 named colors.
    case named(ANSIColor)
    /// An entry of the xterm 256-color palette (0–15 named, 16–231 the 6×6×6 cube, 232–255 grays).
    case indexed(UInt8)
    /// 24-bit red, green, blue.
    case rgb(UInt8, UInt8, UInt8)

    /// This color as the terminal at `depth` can show it: RGB → 256-palette → 16 named colors, nearest first.
    /// Returns nil at depth `.none`.
    public func downsampled(to depth: ColorDepth) -> Color? {
        switch (self, depth) {
        case (_, .none):
            return nil
        case (.named, _), (.indexed, .ansi256), (.indexed, .trueColor), (.rgb, .trueColor):
            return self
        case (.indexed(let index), .ansi16):
            return .named(Color.nearestNamed(toPaletteIndex: index))
        case (.rgb(let red, let green, let blue), .ansi256):
            return .indexed(Color.nearestPaletteIndex(red, green, blue))
        case (.rgb(let red, let green, let blue), .ansi16):
            return .named(Color.nearestNamed(red, green, blue))
        }
    }

    /// The six channel levels of the xterm 6×6×6 color cube (palette 16–231).
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The RGB value of xterm palette entry `index`.
    static func paletteRGB(_ index: UInt8) -> (Int, Int, Int) {
        switch index {
        case 0..<16:
            guard let named = ANSIColor(rawValue: index)?.rgb else { return (0, 0, 0) }
            return (Int(named.red), Int(named.green), Int(named.blue))
        case 16..<232:
            let cube = Int(index) - 16
            return (cubeLevels[cube / 36], cubeLevels[cube / 6 % 6], cubeLevels[cube % 6])
        default:
            let gray = 8 + 10 * (Int(index) - 232)
            return (gray, gray, gray)
        }
    }

    /// The nearest color-cube or grayscale entry (16–255) to an RGB value.
    static func nearestPaletteIndex(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> UInt8 {
        let channels = [Int(red), Int(green), Int(blue)]
        // Nearest cube level per channel.
        let levels = channels.map { value in
            (0..<6).min { abs(cubeLevels[$0] - value) < abs(cubeLevels[$1] - value) } ?? 0
        }
        let cubeIndex = UInt8(16 + 36 * levels[0] + 6 * levels[1] + levels[2])
        // Nearest of the 24 grays to the channels' mean.
        let mean = (channels[0] + channels[1] + channels[2]) / 3
        let grayStep = min(23, max(0, (mean - 8 + 5) / 10))
        let grayIndex = UInt8(232 + grayStep)
        let target = (channels[0], channels[1], channels[2])
        return distance(paletteRGB(grayIndex), target) < distance(paletteRGB(cubeIndex), target) ? grayIndex : cubeIndex
    }

    /// The nearest of the 16 named colors to an RGB value.
    static func nearestNamed(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> ANSIColor {
        let target = (Int(red), Int(green), Int(blue))
        return ANSIColor.allCases.min {
            distance(paletteRGB($0.rawValue), target) < distance(paletteRGB($1.rawValue), target)
        } ?? .white
    }

    /// The nearest named color to palette entry `index` (0–15 map to themselves).
    static func nearestNamed(toPaletteIndex index: UInt8) -> ANSIColor {
        if let named = ANSIColor(rawValue: index) { return named }
        let (red, green, blue) = paletteRGB(index)
        return nearestNamed(UInt8(red), UInt8(green), UInt8(blue))
    }

    /// Squared distance in RGB, weighted by the "redmean" approximation of perceived difference.
    static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let redMean = (a.0 + b.0) / 2
        let dr = a.0 - b.0
        let dg = a.1 - b.1
        let db = a.2 - b.2
        return (((512 + redMean) * dr * dr) >> 8) + 4 * dg * dg + (((767 - redMean) * db * db) >> 8)
    }
}
