import NavModel

/// How many colours the terminal shows, and how a 24-bit colour is written for it (SGR).
///
/// Read from the environment as terminals announce it: `COLORTERM=truecolor` or `24bit`
/// means 24-bit; a `TERM` ending in `-256color` means the xterm 256-colour palette; any other
/// terminal gets the 16 ANSI colours. Colours step down to the nearest one the depth has.
public enum ColorDepth: Int, Sendable, Hashable, CaseIterable, Comparable {
  /// No colour at all (`NO_COLOR`, `--no-color`, `TERM=dumb`, or not a terminal).
  case none = 0
  /// The 16 ANSI colours (SGR 30–37, 90–97).
  case ansi16 = 1
  /// The xterm 256-colour palette (SGR 38;5;N): its 6×6×6 cube and grey ramp.
  case ansi256 = 2
  /// 24-bit colour (SGR 38;2;R;G;B).
  case trueColor = 3

  /// Orders depths by how many colours they show.
  public static func < (a: ColorDepth, b: ColorDepth) -> Bool { a.rawValue < b.rawValue }

  /// The depth `COLORTERM` and `TERM` announce (colour permitted: the caller checks `NO_COLOR` and the tty).
  public static func announced(by environment: [String: String]) -> ColorDepth {
    let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
    let term = (environment["TERM"] ?? "").lowercased()
    if term == "dumb" { return .none }
    if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColor }
    if term.hasSuffix("-256color") || term.hasSuffix("-256") { return .ansi256 }
    return .ansi16
  }

  /// The SGR parameters for `color` as a foreground (`background: false`) or background colour.
  func sgr(_ color: Color, background: Bool) -> String {
    switch self {
    case .none:
      return ""
    case .trueColor:
      return "\(background ? 48 : 38);2;\(color.red);\(color.green);\(color.blue)"
    case .ansi256:
      return "\(background ? 48 : 38);5;\(Self.palette256(color))"
    case .ansi16:
      let index = Self.palette16(color)
      let base = index < 8 ? (background ? 40 : 30) : (background ? 100 : 90)
      return String(base + index % 8)
    }
  }

  /// The nearest entry of the xterm palette's colour cube (16–231) or grey ramp (232–255).
  public static func palette256(_ color: Color) -> Int {
    let levels = [0, 95, 135, 175, 215, 255]
    func nearestLevel(_ value: UInt8) -> Int {
      levels.indices.min { abs(levels[$0] - Int(value)) < abs(levels[$1] - Int(value)) }!
    }
    let (r, g, b) = (nearestLevel(color.red), nearestLevel(color.green), nearestLevel(color.blue))
    let cube = (levels[r], levels[g], levels[b])
    let average = (Int(color.red) + Int(color.green) + Int(color.blue)) / 3
    let greyStep = max(0, min(23, (average - 8 + 5) / 10))
    let grey = 8 + greyStep * 10
    if distance(color, (grey, grey, grey)) < distance(color, cube) { return 232 + greyStep }
    return 16 + 36 * r + 6 * g + b
  }

  /// The xterm defaults of the 16 ANSI colours, in SGR order (black, red, …, bright white).
  static let ansiColors: [(Int, Int, Int)] = [
    (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
    (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
    (255, 255, 255),
  ]

  /// The index (0–15) of the nearest ANSI colour.
  public static func palette16(_ color: Color) -> Int {
    ansiColors.indices.min { distance(color, ansiColors[$0]) < distance(color, ansiColors[$1]) }!
  }

  private static func distance(_ color: Color, _ other: (Int, Int, Int)) -> Int {
    let dr = Int(color.red) - other.0
    let dg = Int(color.green) - other.1
    let db = Int(color.blue) - other.2
    return dr * dr + dg * dg + db * db
  }
}
