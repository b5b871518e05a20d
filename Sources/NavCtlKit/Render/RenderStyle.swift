/// How `show`, `watch` and the text forms draw: box-drawing characters or ASCII, colour or not.
public struct RenderStyle: Sendable, Hashable {
  /// Box-drawing characters, chevrons and symbols; otherwise plain ASCII.
  public var unicode: Bool
  /// ANSI colour (24-bit) and attributes; otherwise none.
  public var color: Bool

  /// A style.
  public init(unicode: Bool, color: Bool) {
    self.unicode = unicode
    self.color = color
  }

  /// Plain ASCII, no colour: what pipes and files get.
  public static let ascii = RenderStyle(unicode: false, color: false)
  /// Box drawing without colour (`NO_COLOR` on a UTF-8 terminal).
  public static let unicode = RenderStyle(unicode: true, color: false)
  /// Box drawing and colour: a UTF-8 terminal.
  public static let terminal = RenderStyle(unicode: true, color: true)

  /// The style for an output: Unicode only on a terminal whose locale is UTF-8 and without
  /// `--ascii`; colour only on a terminal, without `--no-color`, with `NO_COLOR` unset or
  /// empty and `TERM` not `dumb`.
  public static func detect(isTerminal: Bool, environment: [String: String], options: GlobalOptions) -> RenderStyle {
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
    let utf8 = locale.lowercased().contains("utf-8") || locale.lowercased().contains("utf8")
    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
    return RenderStyle(
      unicode: isTerminal && utf8 && !options.ascii,
      color: isTerminal && !noColor && !options.noColor)
  }
}
