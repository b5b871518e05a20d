/// How `show`, `watch` and the text forms draw: box-drawing characters or ASCII, colour or not.
public struct RenderStyle: Sendable, Hashable {
  /// Box-drawing characters, chevrons and symbols; otherwise plain ASCII.
  public var unicode: Bool
  /// How many colours to draw with (`.none`: no ANSI colour or attributes at all).
  public var colorDepth: ColorDepth
  /// Whether toolbar and bar glyphs (`@`, `re`, `del`, …) are followed by a legend.
  public var legend = false

  /// ANSI colour and attributes, at any depth.
  public var color: Bool { colorDepth != .none }

  /// A style; `color` means 24-bit colour.
  public init(unicode: Bool, color: Bool) {
    self.init(unicode: unicode, colorDepth: color ? .trueColor : .none)
  }

  /// A style with an explicit colour depth.
  public init(unicode: Bool, colorDepth: ColorDepth, legend: Bool = false) {
    self.unicode = unicode
    self.colorDepth = colorDepth
    self.legend = legend
  }

  /// Plain ASCII, no colour: what pipes and files get.
  public static let ascii = RenderStyle(unicode: false, color: false)
  /// Box drawing without colour (`NO_COLOR` on a UTF-8 terminal).
  public static let unicode = RenderStyle(unicode: true, color: false)
  /// Box drawing and 24-bit colour: a UTF-8 terminal that announces truecolor.
  public static let terminal = RenderStyle(unicode: true, color: true)

  /// The style for an output: Unicode only on a terminal whose locale is UTF-8 and without
  /// `--ascii`; colour only on a terminal, without `--no-color`, with `NO_COLOR` unset or
  /// empty and `TERM` not `dumb`, at the depth `COLORTERM` and `TERM` announce
  /// (`ColorDepth.announced(by:)`).
  public static func detect(isTerminal: Bool, environment: [String: String], options: GlobalOptions) -> RenderStyle {
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
    let utf8 = locale.lowercased().contains("utf-8") || locale.lowercased().contains("utf8")
    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty || !isTerminal || options.noColor
    return RenderStyle(
      unicode: isTerminal && utf8 && !options.ascii,
      colorDepth: noColor ? .none : ColorDepth.announced(by: environment), legend: options.labels)
  }
}
