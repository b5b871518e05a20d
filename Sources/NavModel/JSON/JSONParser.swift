/// A byte-level JSON parser (RFC 8259) that rejects what navd must not accept:
/// invalid UTF-8, nesting deeper than `maxDepth`, duplicate object keys,
/// lone surrogates, and trailing bytes.
///
/// It reports the byte offset of the first problem. The reading is `JSONDocument`'s;
/// this is its tree, for a reader that wants a `JSONValue` whole.
public struct JSONParser {
  /// Why a document was rejected, and where (byte offset from the start).
  public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
    /// Byte offset of the problem in the input.
    public var offset: Int
    /// What was wrong there.
    public var reason: String
    /// `invalid JSON at byte N: reason`.
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
  }

  /// Documents nested deeper than this are rejected before any recursion can blow the stack.
  public static let defaultMaxDepth = 64

  /// Parses one JSON value from UTF-8 bytes, rejecting everything listed above: read as a
  /// `JSONDocument`, the one reader, and made a tree (`value(_:)`).
  public static func parse(_ bytes: some Collection<UInt8>, maxDepth: Int = defaultMaxDepth) throws(Error) -> JSONValue
  {
    let document = try JSONDocument(parsing: Array(bytes), maxDepth: maxDepth)
    return document.value(document.root)
  }

  /// Parses one JSON value from a string.
  public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(Error) -> JSONValue {
    try parse(Array(text.utf8), maxDepth: maxDepth)
  }
}
