extension NavdSettings {
  /// Where navd reads its configuration when `--config` is not given.
  public static let defaultConfigPath = "/etc/navd/navd.conf"

  /// The drop-in directory of a main file: `FILE.d` (`/etc/navd/navd.conf.d`).
  public static func dropInDirectory(for path: String) -> String { path + ".d" }

  /// The options and configuration keys for `navd --help`: each option, its file key
  /// and its default, from `keys`.
  public static var optionsHelp: String {
    var lines: [String] = []
    for key in keys {
      let left = "  \(key.option) \(key.valueName)"
      let wrapped =
        wrap("\(key.summary) Default: \(key.defaultText).", width: 52) + [
          "In the file: [\(key.section)] \(key.name)="
        ]
      if left.count < 27 {
        lines.append(left + String(repeating: " ", count: 27 - left.count) + wrapped[0])
        lines += wrapped.dropFirst().map { String(repeating: " ", count: 27) + $0 }
      } else {
        lines.append(left)
        lines += wrapped.map { String(repeating: " ", count: 27) + $0 }
      }
    }
    return lines.joined(separator: "\n")
  }

  private static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty, line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += line.isEmpty ? String(word) : " " + word
    }
    if !line.isEmpty { lines.append(line) }
    return lines.isEmpty ? [""] : lines
  }
}
