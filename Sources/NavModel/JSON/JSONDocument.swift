/// A validated JSON document that keeps its bytes and says where each value is, so typed
/// decoders read straight from the bytes: no `[String: JSONValue]` is built or hashed.
///
/// navd's one JSON reader: `JSONParser.parse` is a document's `value(root)`.
/// `init(parsing:maxDepth:)` rejects with a `JSONParser.Error` (offset and reason) invalid
/// UTF-8, nesting deeper than `maxDepth`, duplicate keys, lone surrogates, trailing bytes
/// (`JSONLexer`), and records one `Token` per value (and per key), in document order, each
/// container knowing where it ends so it can be skipped.
///
/// A value is named by its `Index` (the position of its token). Read it with `kind(_:)`,
/// `string(_:)`, `number(_:)`, `bool(_:)`, walk a container with `members(_:)` or
/// `elements(_:)`, and turn any part into a `JSONValue` with `value(_:)` when a generic
/// reader needs one.
public struct JSONDocument: Sendable {
  /// A value's position in the document (its token).
  public typealias Index = Int

  /// The JSON type of a value.
  public enum Kind: UInt8, Sendable {
    case null, bool, number, string, array, object
  }

  @usableFromInline
  struct Token: Sendable {
    @usableFromInline var kind: Kind
    /// Strings (keys too): the span's flags. Bools: the value.
    @usableFromInline var escaped = false
    @usableFromInline var ascii = false
    @usableFromInline var flag = false
    /// Strings: between the quotes; numbers: the digits; containers: the brackets.
    @usableFromInline var start: Int
    @usableFromInline var end: Int
    /// The token after this value: `index + 1`, or past every token inside a container.
    @usableFromInline var next: Int
    /// Members or elements of a container.
    @usableFromInline var count = 0
  }

  /// The document's bytes.
  public let bytes: [UInt8]
  @usableFromInline let tokens: [Token]

  /// The document's value (the first token).
  public var root: Index { 0 }

  /// Validates `bytes` as one JSON document and records its values.
  public init(parsing bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth) throws(JSONParser.Error) {
    self.bytes = bytes
    do {
      tokens = try bytes.withUnsafeBufferPointer { buffer throws(JSONParser.Error) in
        var builder = JSONDocumentBuilder(bytes: buffer, maxDepth: maxDepth)
        return try builder.build()
      }
    } catch {
      throw error
    }
  }
}

/// Records the tokens of a document while `JSONLexer` validates it.
private struct JSONDocumentBuilder {
  /// Up to this many keys an object's duplicates are found by comparing each new key with
  /// the earlier ones (their tokens are already recorded); past it, through a set of
  /// strings, as a dictionary would, so a huge object costs no quadratic time.
  static let hashingThreshold = 16

  var lexer: JSONLexer
  var tokens: [JSONDocument.Token] = []

  init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
    lexer = JSONLexer(bytes: bytes, maxDepth: maxDepth)
    // Room for a one-op call's tokens, small enough to stay in malloc's per-thread cache.
    tokens.reserveCapacity(24)
  }

  mutating func build() throws(JSONParser.Error) -> [JSONDocument.Token] {
    lexer.skipWhitespace()
    try parseValue()
    try lexer.expectEnd()
    return tokens
  }

  mutating func append(_ kind: JSONDocument.Kind, start: Int, end: Int, flag: Bool = false) {
    tokens.append(JSONDocument.Token(kind: kind, flag: flag, start: start, end: end, next: tokens.count + 1))
  }

  mutating func parseValue() throws(JSONParser.Error) {
    guard let byte = lexer.current else { throw lexer.fail("unexpected end of input") }
    let start = lexer.index
    switch byte {
    case UInt8(ascii: "{"): try parseObject()
    case UInt8(ascii: "["): try parseArray()
    case UInt8(ascii: "\""): appendString(try lexer.scanString())
    case UInt8(ascii: "t"):
      try lexer.expectLiteral("true")
      append(.bool, start: start, end: lexer.index, flag: true)
    case UInt8(ascii: "f"):
      try lexer.expectLiteral("false")
      append(.bool, start: start, end: lexer.index)
    case UInt8(ascii: "n"):
      try lexer.expectLiteral("null")
      append(.null, start: start, end: lexer.index)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      _ = try lexer.scanNumber()
      append(.number, start: start, end: lexer.index)
    default: throw lexer.fail("unexpected character")
    }
  }

  /// A member's or an element's value: a string, as most are, read here, and an object or
  /// an array opened here, without the call to `parseValue`; any other by `parseValue`.
  @inline(__always)
  mutating func parseMemberOrElement() throws(JSONParser.Error) {
    switch lexer.current {
    case UInt8(ascii: "\""): appendString(try lexer.scanString())
    case UInt8(ascii: "{"): try parseObject()
    case UInt8(ascii: "["): try parseArray()
    default: try parseValue()
    }
  }

  mutating func appendString(_ span: JSONStringSpan) {
    var token = JSONDocument.Token(kind: .string, start: span.start, end: span.end, next: tokens.count + 1)
    token.escaped = span.escaped
    token.ascii = span.ascii
    tokens.append(token)
  }

  /// The span of a string token (a key).
  func span(_ index: Int) -> JSONStringSpan {
    let token = tokens[index]
    return JSONStringSpan(start: token.start, end: token.end, escaped: token.escaped, ascii: token.ascii)
  }

  /// Opens a container token; `close` fills in its end, size and successor.
  @inline(__always)
  mutating func open(_ kind: JSONDocument.Kind) throws(JSONParser.Error) -> Int {
    try lexer.enter()
    let index = tokens.count
    append(kind, start: lexer.index, end: lexer.index)
    lexer.index += 1
    lexer.skipWhitespace()
    return index
  }

  @inline(__always)
  mutating func close(_ index: Int, count: Int) {
    lexer.leave()
    tokens[index].end = lexer.index - 1
    tokens[index].next = tokens.count
    tokens[index].count = count
  }

  mutating func parseObject() throws(JSONParser.Error) {
    let index = try open(.object)
    var count = 0
    if lexer.current == UInt8(ascii: "}") {
      lexer.index += 1
      close(index, count: 0)
      return
    }
    var hashedKeys: Set<String>?
    repeat {
      lexer.skipWhitespace()
      guard lexer.current == UInt8(ascii: "\"") else { throw lexer.fail("expected a string key") }
      let keyOffset = lexer.index
      let key = tokens.count
      appendString(try lexer.scanString())
      try lexer.colon()
      try parseMemberOrElement()
      // Like the parser, a duplicate is reported once the member's value was read.
      if hashedKeys != nil {
        guard hashedKeys?.insert(string(key)).inserted == true else { throw duplicate(key, at: keyOffset) }
      } else {
        var earlier = index + 1
        while earlier != key {
          if sameKey(earlier, key) { throw duplicate(key, at: keyOffset) }
          earlier = tokens[earlier + 1].next
        }
      }
      count += 1
      if count == Self.hashingThreshold { hashedKeys = keys(of: index) }
    } while try lexer.separator(UInt8(ascii: "}"), expected: "expected ',' or '}'")
    close(index, count: count)
  }

  func string(_ key: Int) -> String { JSONLexer.string(span(key), in: lexer.bytes) }

  func duplicate(_ key: Int, at offset: Int) -> JSONParser.Error {
    JSONParser.Error(offset: offset, reason: "duplicate key \"\(string(key))\"")
  }

  /// The keys read so far of the object at `index`, as strings.
  func keys(of index: Int) -> Set<String> {
    var keys = Set<String>()
    var key = index + 1
    while key < tokens.count {
      keys.insert(string(key))
      key = tokens[key + 1].next
    }
    return keys
  }

  /// Whether two keys are the same `String` (canonically equivalent, as a dictionary
  /// compares them): plain ASCII keys by their bytes, any other by their strings.
  func sameKey(_ a: Int, _ b: Int) -> Bool {
    let a = span(a)
    let b = span(b)
    if a.isPlain, b.isPlain {
      let length = a.end - a.start
      guard length == b.end - b.start else { return false }
      for offset in 0..<length where lexer.bytes[a.start + offset] != lexer.bytes[b.start + offset] { return false }
      return true
    }
    return JSONLexer.string(a, in: lexer.bytes) == JSONLexer.string(b, in: lexer.bytes)
  }

  mutating func parseArray() throws(JSONParser.Error) {
    let index = try open(.array)
    var count = 0
    if lexer.current == UInt8(ascii: "]") {
      lexer.index += 1
      close(index, count: 0)
      return
    }
    repeat {
      lexer.skipWhitespace()
      try parseMemberOrElement()
      count += 1
    } while try lexer.separator(UInt8(ascii: "]"), expected: "expected ',' or ']'")
    close(index, count: count)
  }
}
