@testable import NavModel

/// An independent reader for `JSONDocumentTests` to hold `JSONDocument` to: the tree
/// builder `JSONParser` was before it became `JSONDocument`'s tree (`value(_:)`), kept
/// here so the one reader navd has is still checked against a second one. It shares
/// `JSONLexer` (tokens and errors); what it builds, it builds straight from them.
enum TreeParser {
  /// The document's value, or the first problem.
  static func parse(_ bytes: [UInt8], maxDepth: Int) throws(JSONParser.Error) -> JSONValue {
    do {
      return try bytes.withUnsafeBufferPointer { buffer throws(JSONParser.Error) in
        var parser = Cursor(bytes: buffer, maxDepth: maxDepth)
        return try parser.parseDocument()
      }
    } catch {
      throw error
    }
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
