/// A byte-level JSON parser (RFC 8259) that rejects what navd must not accept:
/// invalid UTF-8, nesting deeper than `maxDepth`, duplicate object keys,
/// lone surrogates, and trailing bytes.
///
/// Foundation's parser costs ~13 µs a message here; this one is several times
/// cheaper and reports the byte offset of the first problem. `JSONDocument` accepts
/// and rejects exactly the same documents (they share `JSONLexer`) without building
/// the tree.
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

  /// Parses one JSON value from UTF-8 bytes, rejecting everything listed above.
  public static func parse(_ bytes: some Collection<UInt8>, maxDepth: Int = defaultMaxDepth) throws(Error) -> JSONValue
  {
    let array = Array(bytes)
    do {
      return try array.withUnsafeBufferPointer { buffer throws(Error) in
        var parser = Cursor(bytes: buffer, maxDepth: maxDepth)
        return try parser.parseDocument()
      }
    } catch {
      throw error
    }
  }

  /// Parses one JSON value from a string.
  public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(Error) -> JSONValue {
    try parse(Array(text.utf8), maxDepth: maxDepth)
  }
}

/// Builds the `JSONValue` tree; `JSONLexer` reads the tokens and reports the errors.
private struct Cursor {
  var lexer: JSONLexer

  init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
    lexer = JSONLexer(bytes: bytes, maxDepth: maxDepth)
  }

  mutating func parseDocument() throws(JSONParser.Error) -> JSONValue {
    lexer.skipWhitespace()
    let value = try parseValue()
    try lexer.expectEnd()
    return value
  }

  mutating func parseValue() throws(JSONParser.Error) -> JSONValue {
    guard let byte = lexer.current else { throw lexer.fail("unexpected end of input") }
    switch byte {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try lexer.expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try lexer.expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try lexer.expectLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try lexer.scanNumber())
    default: throw lexer.fail("unexpected character")
    }
  }

  mutating func parseString() throws(JSONParser.Error) -> String {
    JSONLexer.string(try lexer.scanString(), in: lexer.bytes)
  }

  mutating func parseObject() throws(JSONParser.Error) -> JSONValue {
    try lexer.enter()
    lexer.index += 1
    var members: [String: JSONValue] = [:]
    lexer.skipWhitespace()
    if lexer.current == UInt8(ascii: "}") {
      lexer.index += 1
      lexer.leave()
      return .object(members)
    }
    // Room for the few members most objects have (a call, its parameters, an op): growing from
    // empty would reallocate and rehash at the 2nd and the 4th member.
    members.reserveCapacity(6)
    repeat {
      lexer.skipWhitespace()
      guard lexer.current == UInt8(ascii: "\"") else { throw lexer.fail("expected a string key") }
      let keyOffset = lexer.index
      let key = try parseString()
      try lexer.colon()
      let value = try parseValue()
      if members.updateValue(value, forKey: key) != nil {
        throw JSONParser.Error(offset: keyOffset, reason: "duplicate key \"\(key)\"")
      }
    } while try lexer.separator(UInt8(ascii: "}"), expected: "expected ',' or '}'")
    lexer.leave()
    return .object(members)
  }

  mutating func parseArray() throws(JSONParser.Error) -> JSONValue {
    try lexer.enter()
    lexer.index += 1
    var elements: [JSONValue] = []
    lexer.skipWhitespace()
    if lexer.current == UInt8(ascii: "]") {
      lexer.index += 1
      lexer.leave()
      return .array(elements)
    }
    repeat {
      lexer.skipWhitespace()
      elements.append(try parseValue())
    } while try lexer.separator(UInt8(ascii: "]"), expected: "expected ',' or ']'")
    lexer.leave()
    return .array(elements)
  }
}
