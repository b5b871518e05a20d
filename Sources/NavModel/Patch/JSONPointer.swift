/// An RFC 6901 JSON Pointer: the way from a document's root to one value, as unescaped tokens.
///
/// The empty pointer (`""`) is the whole document, while `"/"` is the member whose name is the
/// empty string. Tokens are stored unescaped so code builds and compares them without thinking
/// about `~0` and `~1`; only `init(parsing:)` and `description` see the escaped text.
public struct JSONPointer: Hashable, Sendable {
  /// Why a pointer's text was rejected, and at which byte of it.
  public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The pointer text as given.
    public var pointer: String
    /// Byte offset of the first problem within `pointer`.
    public var offset: Int
    /// What is wrong there.
    public var reason: String

    /// One line for logs and error replies.
    public var description: String { "invalid JSON pointer \"\(pointer)\" at byte \(offset): \(reason)" }
  }

  /// What an array-index token means, per RFC 6901 §4 and RFC 6902's use of `-`.
  public enum ArrayIndex: Hashable, Sendable {
    /// A well-formed index (it may still be out of range for a particular array).
    case index(Int)
    /// `-`: the (nonexistent) element after the last; only `add` may use it.
    case end
    /// Digits with a leading zero, a sign, letters, or empty: not an index at all.
    case invalid
  }

  /// The reference tokens, unescaped, root first.
  public var tokens: [String]

  /// A pointer from unescaped tokens; nothing to validate, since any string is a valid token.
  public init(tokens: [String] = []) {
    self.tokens = tokens
  }

  /// The whole document.
  public static let root = JSONPointer()

  /// Parses the escaped text form (`/a~1b/0`), rejecting a missing leading `/` and a `~`
  /// not followed by `0` or `1`, which RFC 6901 leaves undefined and we refuse to guess.
  public init(parsing text: String) throws(ParseError) {
    var tokens: [String] = []
    var utf8 = Array(text.utf8)
    if utf8.isEmpty {
      self.tokens = []
      return
    }
    guard utf8[0] == UInt8(ascii: "/") else {
      throw ParseError(pointer: text, offset: 0, reason: "a non-empty pointer must start with '/'")
    }
    // A sentinel '/' lets the loop close the last token like every other.
    utf8.append(UInt8(ascii: "/"))
    var current: [UInt8] = []
    var index = 1
    while index < utf8.count {
      let byte = utf8[index]
      switch byte {
      case UInt8(ascii: "/"):
        tokens.append(String(decoding: current, as: UTF8.self))
        current.removeAll(keepingCapacity: true)
      case UInt8(ascii: "~"):
        let next = index + 1 < utf8.count - 1 ? utf8[index + 1] : 0
        switch next {
        case UInt8(ascii: "0"): current.append(UInt8(ascii: "~"))
        case UInt8(ascii: "1"): current.append(UInt8(ascii: "/"))
        default: throw ParseError(pointer: text, offset: index, reason: "'~' must be followed by '0' or '1'")
        }
        index += 1
      default:
        current.append(byte)
      }
      index += 1
    }
    self.tokens = tokens
  }

  /// This pointer with one more token; `token` is unescaped.
  public func appending(_ token: String) -> JSONPointer {
    JSONPointer(tokens: tokens + [token])
  }

  /// This pointer with an array index appended.
  public func appending(index: Int) -> JSONPointer {
    appending(String(index))
  }

  /// The pointer to the container holding this value, or nil for the root.
  public var parent: JSONPointer? {
    tokens.isEmpty ? nil : JSONPointer(tokens: Array(tokens.dropLast()))
  }

  /// True when `other` lies strictly inside the value this pointer names.
  ///
  /// RFC 6902 forbids moving a value into one of its own children; this is that test.
  public func isProperPrefix(of other: JSONPointer) -> Bool {
    tokens.count < other.tokens.count && other.tokens.starts(with: tokens)
  }

  /// Escapes one token for the text form: `~` becomes `~0` first, then `/` becomes `~1`.
  public static func escape(_ token: String) -> String {
    // Most tokens (keys, indices) need no escaping; skip the rebuild for them.
    guard needsEscape(token) else { return token }
    var out: [UInt8] = []
    out.reserveCapacity(token.utf8.count + 4)
    appendEscaped(token, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Whether `byte` is escaped in a pointer's text (`~`, `/`) or in a JSON string.
  private static func needsEitherEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "~")
      || byte == UInt8(ascii: "/")
  }

  /// Whether `token` holds a `~` or a `/`, which `escape` rewrites. Read
  /// from the string's bytes in place: its `utf8` view, read byte by byte,
  /// is far dearer.
  static func needsEscape(_ token: String) -> Bool {
    var token = token
    return token.withUTF8 { utf8 in utf8.contains { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") } }
  }

  /// Appends `token` escaped (`escape`) to `out`: in one copy when, as for
  /// almost every token, there is nothing to escape.
  static func appendEscaped(_ token: String, to out: inout [UInt8]) {
    var token = token
    token.withUTF8 { utf8 in
      guard utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
        out.append(contentsOf: utf8)
        return
      }
      for byte in utf8 {
        switch byte {
        case UInt8(ascii: "~"): out.append(contentsOf: [UInt8(ascii: "~"), UInt8(ascii: "0")])
        case UInt8(ascii: "/"): out.append(contentsOf: [UInt8(ascii: "~"), UInt8(ascii: "1")])
        default: out.append(byte)
        }
      }
    }
  }

  /// Reads a token as an array index: `0` or digits without a leading zero, or `-`.
  ///
  /// An index too large for `Int` is reported as `Int.max`, which no array reaches, so the
  /// caller says "out of range" rather than "malformed" for a well-formed but huge index.
  public static func arrayIndex(_ token: String) -> ArrayIndex {
    let utf8 = token.utf8
    guard let first = utf8.first else { return .invalid }
    if token == "-" { return .end }
    if first == UInt8(ascii: "0") { return utf8.count == 1 ? .index(0) : .invalid }
    var value = 0
    var overflowed = false
    for byte in utf8 {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return .invalid }
      if overflowed { continue }
      let (times10, o1) = value.multipliedReportingOverflow(by: 10)
      let (sum, o2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
      if o1 || o2 { overflowed = true } else { value = sum }
    }
    return .index(overflowed ? Int.max : value)
  }
}

extension JSONPointer {
  /// Appends the text form (`description`) as a JSON string, byte for byte
  /// what `JSONWriter.writeString(description, into:)` appends, without
  /// making the text first: each token is escaped straight into `out`.
  public func writeJSONString(into out: inout [UInt8]) {
    // The text of a pointer whose tokens need no escape either way, as almost every
    // one's: assembled on the stack and appended at once (each append has a fixed cost
    // besides its bytes: three tokens were seven appends).
    let length = tokens.reduce(2) { $0 + 1 + $1.utf8.count }
    let appended =
      length <= Self.stackTextLimit
      && withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { text in
        guard let end = writePlainJSONString(into: text) else { return false }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<end]))
        return true
      }
    if !appended { writeEscapedJSONString(into: &out) }
  }

  /// The longest text `writeJSONString` assembles on the stack.
  private static let stackTextLimit = 256

  /// Writes the text as a JSON string into `text` and says where it ends; nil as soon as
  /// a token needs an escape, either way, or the text does not fit. Its room is checked
  /// token by token as it is written, not measured first.
  package func writePlainJSONString(into text: UnsafeMutableBufferPointer<UInt8>) -> Int? {
    guard let base = text.baseAddress, text.count >= 2 else { return nil }
    base[0] = UInt8(ascii: "\"")
    var end = 1
    for token in tokens {
      let plain = token.withUTF8Bytes { utf8 in
        // The slash, the token, and the closing quote still to come.
        guard text.count - end >= utf8.count + 2 else { return false }
        base[end] = UInt8(ascii: "/")
        end += 1
        for byte in utf8 where Self.needsEitherEscape(byte) { return false }
        if let bytes = utf8.baseAddress { (base + end).initialize(from: bytes, count: utf8.count) }
        end += utf8.count
        return true
      }
      guard plain else { return nil }
    }
    base[end] = UInt8(ascii: "\"")
    return end + 1
  }

  /// `writeJSONString`, token by token, escaping what needs it.
  private func writeEscapedJSONString(into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for token in tokens {
      out.append(UInt8(ascii: "/"))
      var token = token
      // A token with nothing to escape, either way, as almost every one: copied in one go.
      let copied = token.withUTF8 { utf8 in
        guard !utf8.contains(where: Self.needsEitherEscape) else { return false }
        out.append(contentsOf: utf8)
        return true
      }
      if !copied { JSONWriter.writeStringContents(JSONPointer.escape(token), into: &out) }
    }
    out.append(UInt8(ascii: "\""))
  }
}

extension JSONPointer: CustomStringConvertible {
  /// The escaped text form, as it appears in a patch's `path` and `from`.
  ///
  /// Written as bytes and made a string once: appending to a `String` token
  /// by token cost more than the rest of encoding a small patch operation.
  public var description: String {
    var out: [UInt8] = []
    out.reserveCapacity(tokens.reduce(0) { $0 + 1 + $1.utf8.count })
    for token in tokens {
      out.append(UInt8(ascii: "/"))
      JSONPointer.appendEscaped(token, to: &out)
    }
    return String(decoding: out, as: UTF8.self)
  }
}
