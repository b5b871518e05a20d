/// The GTK CSS that gives each drawn widget navd's colours.
///
/// Every colour becomes a class named after it (`navd-tint-FF9500`, `navd-bg-000000CC`), so one
/// style sheet serves every window: a window adds the classes of its drawing, and the sheet
/// grows only when a colour appears that no window used before. GTK loads it at
/// `GTK_STYLE_PROVIDER_PRIORITY_APPLICATION`, above the theme, so the theme's button and label
/// colours give way to the resolved tints.
public struct StyleSheet: Sendable, Equatable {
  /// Rules by class name, each one rule body (`color: …;`).
  public private(set) var rules: [String: String] = [:]

  /// An empty sheet (the base rules are always present).
  public init() {}

  /// The class for text and symbolic icons in `colour` (an item's or back button's tint).
  public mutating func tintClass(_ colour: String) -> String {
    let name = "navd-tint-" + Self.key(colour)
    rules[name] = "color: \(Self.css(colour));"
    return name
  }

  /// The class that fills a bar with `appearance`'s background colour, or nil when the bar has
  /// none of its own (a translucent bar drawing only its background image: R53).
  ///
  /// A translucent bar's colour is drawn at 94% of its alpha over the window: the "translucent
  /// material" R53 leaves to the front end.
  public mutating func backgroundClass(_ appearance: Drawing.Appearance) -> String? {
    guard let colour = appearance.backgroundColor else { return nil }
    let scale = appearance.translucent ? 0.94 : 1
    let name = "navd-bg-" + Self.key(colour) + (appearance.translucent ? "-t" : "")
    rules[name] = "background-color: \(Self.css(colour, alphaScale: scale));"
    return name
  }

  /// The class of a title with `appearance`'s title text attributes, or nil when none are set.
  public mutating func titleClass(_ appearance: Drawing.Appearance) -> String? {
    var body = ""
    var key = ""
    if let font = appearance.titleFont {
      body += "font-family: \"\(Self.escaped(font))\";"
      key += "f" + String(font.unicodeScalars.reduce(UInt32(5381)) { ($0 &* 33) ^ $1.value }, radix: 16)
    }
    if let size = appearance.titleSize {
      body += "font-size: \(Self.number(size))px;"
      key += "s" + String(Self.number(size).map { $0 == "." ? "_" : $0 })
    }
    if let colour = appearance.titleColor {
      body += "color: \(Self.css(colour));"
      key += "c" + Self.key(colour)
    }
    guard !body.isEmpty else { return nil }
    let name = "navd-title-" + key
    rules[name] = body
    return name
  }

  /// The whole sheet: the base rules, then one rule per class, in name order.
  public var css: String {
    rules.keys.sorted().reduce(Self.base) { sheet, name in sheet + ".\(name) { \(rules[name]!) }\n" }
  }

  /// `#RRGGBB` → `rgb(r,g,b)`, `#RRGGBBAA` → `rgba(r,g,b,a)`; anything else → `currentColor`.
  public static func css(_ colour: String, alphaScale: Double = 1) -> String {
    let hex = colour.hasPrefix("#") ? colour.dropFirst() : Substring(colour)
    guard hex.count == 6 || hex.count == 8, let value = UInt32(hex, radix: 16) else { return "currentColor" }
    let channels = hex.count == 8 ? value : (value << 8) | 0xFF
    let r = channels >> 24
    let g = (channels >> 16) & 0xFF
    let b = (channels >> 8) & 0xFF
    let a = Double(channels & 0xFF) / 255 * alphaScale
    if a >= 1 { return "rgb(\(r),\(g),\(b))" }
    return "rgba(\(r),\(g),\(b),\(number((a * 1000).rounded() / 1000)))"
  }

  /// A colour as a class name part: its hex digits, upper case.
  static func key(_ colour: String) -> String {
    String(colour.uppercased().filter { $0.isHexDigit })
  }

  static func number(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }

  static func escaped(_ text: String) -> String {
    text.reduce(into: "") { escaped, character in
      if character == "\\" || character == "\"" { escaped.append("\\") }
      escaped.append(character)
    }
  }

  /// What every drawing shares: bar heights, the item styles, the placeholders, the status line.
  ///
  /// Bars are 44 points high and the prompt line 30 (UIKit's figures; navd resolves widths only).
  /// `plain` items are bare text or glyphs, `bordered` ones are outlined in their tint, `done`
  /// ones are bold. Insensitive widgets fade to 35%.
  static let base = """
    .navd-navigation-bar, .navd-toolbar { min-height: 44px; }
    .navd-bar.light { color: rgb(0,0,0); background-color: rgb(248,248,248); }
    .navd-bar.dark { color: rgb(255,255,255); background-color: rgb(20,20,20); }
    .navd-navigation-bar { box-shadow: inset 0 -1px rgba(0,0,0,0.3); }
    .navd-toolbar { box-shadow: inset 0 1px rgba(0,0,0,0.3); }
    .navd-prompt-line { min-height: 30px; }
    .navd-prompt { font-size: 11px; }
    .navd-title { font-weight: bold; }
    button.navd-item { padding: 0; margin: 0; min-height: 0; min-width: 0; background: none;
      border: none; box-shadow: none; outline: none; border-radius: 6px; }
    button.navd-item.bordered { border: 1px solid currentColor; }
    button.navd-item.done { font-weight: bold; }
    button.navd-item:hover { background-color: alpha(currentColor, 0.08); }
    button.navd-item:active { background-color: alpha(currentColor, 0.16); }
    button.navd-item:disabled, .navd-placeholder:disabled { opacity: 0.35; }
    .navd-placeholder { border: 1px dashed alpha(currentColor, 0.6); border-radius: 4px; font-size: 10px; }
    .navd-overflow-strip { min-height: 0; }
    menubutton.navd-overflow > button { padding: 0 6px; min-height: 20px; font-size: 11px; }
    .navd-status { font-size: 12px; color: rgb(90,90,90); }
    .navd-status.disconnected { color: rgb(192,28,40); font-weight: bold; }

    """
}
