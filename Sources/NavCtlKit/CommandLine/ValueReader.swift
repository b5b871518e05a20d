import NavModel

/// Turns the text of an option or argument into a typed value, or a usage error that names it.
public enum ValueReader {
  /// An id (navigation item, bar button item, scene): 1…64 of `[A-Za-z0-9._-]`, starting with a letter or digit (R66).
  public static func identifier(_ text: String, option: String) throws(UsageError) -> String {
    guard let first = text.unicodeScalars.first else { throw UsageError("\(option) needs an id, got an empty word") }
    func isAlphanumeric(_ s: Unicode.Scalar) -> Bool {
      ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s)
    }
    guard isAlphanumeric(first),
      text.unicodeScalars.allSatisfy({ isAlphanumeric($0) || "._-".unicodeScalars.contains($0) })
    else {
      throw UsageError(
        "\(option): \"\(text)\" is not an id (letters, digits, '.', '_', '-', starting with a letter or digit)")
    }
    guard text.utf8.count <= 64 else { throw UsageError("\(option): id \"\(text)\" is longer than 64 characters") }
    return text
  }

  /// A mutation id (`--mutation-id`, `NAVCTL_MUTATION_ID`): 1…128 bytes (PROTOCOL §9.11, §9.12),
  /// printable, without spaces, so that it can be typed again for the retry.
  public static func mutationId(_ text: String, option: String) throws(UsageError) -> String {
    guard !text.isEmpty else { throw UsageError("\(option) needs an id, got an empty word") }
    guard text.utf8.count <= 128 else {
      throw UsageError("\(option) needs at most 128 bytes, got \(text.utf8.count)")
    }
    guard text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
      throw UsageError("\(option): \"\(DisplayWidth.sanitize(text))\" has spaces or control characters")
    }
    return text
  }

  /// Several ids.
  public static func identifiers(_ texts: [String], option: String) throws(UsageError) -> [String] {
    var ids: [String] = []
    for text in texts { ids.append(try identifier(text, option: option)) }
    return ids
  }

  /// A finite decimal number.
  public static func number(_ text: String, option: String) throws(UsageError) -> Double {
    guard let value = Double(text), value.isFinite, !text.contains(where: { $0.isLetter && $0 != "e" && $0 != "E" })
    else { throw UsageError("\(option) needs a number, got \"\(text)\"") }
    return value
  }

  /// A width or size in points: 0…10000 (R66).
  public static func length(_ text: String, option: String) throws(UsageError) -> Double {
    let value = try number(text, option: option)
    guard value >= 0, value <= 10_000 else { throw UsageError("\(option) needs 0…10000, got \"\(text)\"") }
    return value
  }

  /// 2^53: the largest integer a JSON number holds exactly (navd's bound on versions and tags).
  public static let largestExactInteger = 9_007_199_254_740_992

  /// The longest `--timeout`, in seconds (a day): every accepted value converts to a `Duration`
  /// in milliseconds without overflow.
  public static let longestTimeout = 86_400.0

  /// An integer in `minimum…maximum`.
  public static func integer(
    _ text: String, option: String, minimum: Int = Int.min, maximum: Int = Int.max
  ) throws(UsageError) -> Int {
    guard let value = Int(text) else { throw UsageError("\(option) needs a whole number, got \"\(text)\"") }
    guard value >= minimum else {
      throw UsageError("\(option) needs a whole number of at least \(minimum), got \(value)")
    }
    guard value <= maximum else {
      throw UsageError("\(option) needs a whole number of at most \(maximum), got \(value)")
    }
    return value
  }

  /// A colour `#RRGGBB` or `#RRGGBBAA` (the `#` may be left out, as shells treat it as a comment after a space).
  public static func color(_ text: String, option: String) throws(UsageError) -> Color {
    let hex = text.hasPrefix("#") ? text : "#" + text
    guard let color = Color(hex: hex) else {
      throw UsageError("\(option) needs a colour like #FF9500 or #FF950080, got \"\(text)\"")
    }
    return color
  }

  /// A colour, or nil for `none` (which clears the value so it is inherited again).
  public static func optionalColor(_ text: String, option: String) throws(UsageError) -> Color? {
    text == "none" ? nil : try color(text, option: option)
  }

  /// One of `choices`; the error suggests the closest.
  public static func choice(_ text: String, option: String, _ choices: [String]) throws(UsageError) -> String {
    if choices.contains(text) { return text }
    var message = "\(option): \"\(text)\" is not one of \(choices.joined(separator: ", "))"
    if let close = EditDistance.closest(to: text, in: choices) { message += "; did you mean \"\(close)\"?" }
    throw UsageError(message)
  }

  /// A case of a string enum, by its raw value.
  public static func enumeration<E: RawRepresentable & CaseIterable>(
    _ text: String, option: String, _ type: E.Type
  ) throws(UsageError) -> E where E.RawValue == String {
    E(rawValue: try choice(text, option: option, E.allCases.map(\.rawValue)))!
  }

  /// `yes`/`no` (also `on`/`off`, `true`/`false`).
  public static func yesNo(_ text: String, option: String) throws(UsageError) -> Bool {
    switch text {
    case "yes", "on", "true": return true
    case "no", "off", "false": return false
    default: throw UsageError("\(option) needs yes or no, got \"\(text)\"")
    }
  }
}
