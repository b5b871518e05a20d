/// A byte-level JSON parser (RFC 8259) that rejects what navd must not accept:
/// invalid UTF-8, nesting deeper than `maxDepth`, duplicate object keys,
/// lone surrogates, and trailing bytes.
///
/// Foundation's parser costs ~13 µs a message here; this one is several times
/// cheaper and reports the byte offset of the first problem.
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

private struct Cursor {
  let bytes: UnsafeBufferPointer<UInt8>
  let maxDepth: Int
  var index = 0
  var depth = 0

  init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  mutating func parseDocument() throws(JSONParser.Error) -> JSONValue {
    skipWhitespace()
    let value = try parseValue()
    skipWhitespace()
    if index != bytes.count { throw fail("unexpected bytes after the document") }
    return value
  }

  func fail(_ reason: String) -> JSONParser.Error {
    JSONParser.Error(offset: index, reason: reason)
  }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  mutating func parseValue() throws(JSONParser.Error) -> JSONValue {
    guard index < bytes.count else { throw fail("unexpected end of input") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    default: throw fail("unexpected character")
    }
  }

  mutating func expectLiteral(_ literal: StaticString) throws(JSONParser.Error) {
    let count = literal.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw fail("unexpected end of input") }
    let start = literal.utf8Start
    for offset in 0..<count where bytes[index + offset] != start[offset] {
      throw fail("invalid literal")
    }
    index += count
  }

  mutating func enter() throws(JSONParser.Error) {
    depth += 1
    if depth > maxDepth { throw fail("nesting deeper than \(maxDepth) levels") }
  }

  mutating func parseObject() throws(JSONParser.Error) -> JSONValue {
    try enter()
    index += 1
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      depth -= 1
      return .object(members)
    }
    // Room for the few members most objects have (a call, its parameters, an op): growing from
    // empty would reallocate and rehash at the 2nd and the 4th member.
    members.reserveCapacity(6)
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
      let keyOffset = index
      let key = try parseString()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
      index += 1
      skipWhitespace()
      let value = try parseValue()
      if members.updateValue(value, forKey: key) != nil {
        throw JSONParser.Error(offset: keyOffset, reason: "duplicate key \"\(key)\"")
      }
      skipWhitespace()
      guard index < bytes.count else { throw fail("unexpected end of input") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if bytes[index] == UInt8(ascii: "}") {
        index += 1
        depth -= 1
        return .object(members)
      }
      throw fail("expected ',' or '}'")
    }
  }

  mutating func parseArray() throws(JSONParser.Error) -> JSONValue {
    try enter()
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      depth -= 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue())
      skipWhitespace()
      guard index < bytes.count else { throw fail("unexpected end of input") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if bytes[index] == UInt8(ascii: "]") {
        index += 1
        depth -= 1
        return .array(elements)
      }
      throw fail("expected ',' or ']'")
    }
  }

  mutating func parseNumber() throws(JSONParser.Error) -> Double {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count else { throw fail("unexpected end of input") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else if isDigit(bytes[index]) {
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    } else {
      throw fail("invalid number")
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      index = start
      throw fail("number out of range")
    }
    return value
  }

  func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  mutating func parseString() throws(JSONParser.Error) -> String {
    index += 1
    let start = index
    // Fast path: no escapes, so the bytes are the string once UTF-8 is validated; pure ASCII
    // (keys, most values) is valid as it is, and String(validating:) costs ~650 instructions
    // of generic metadata lookups per call.
    var ascii = true
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if ascii {
          index += 1
          return String(decoding: slice, as: UTF8.self)
        }
        guard let string = String(validating: slice, as: UTF8.self) else {
          index = start
          throw fail("invalid UTF-8 in string")
        }
        index += 1
        return string
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { throw fail("control character in string") }
      if byte >= 0x80 { ascii = false }
      index += 1
    }
    guard index < bytes.count else { throw fail("unterminated string") }
    var scalars = Array(bytes[start..<index])
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        guard let string = String(validating: scalars, as: UTF8.self) else {
          throw JSONParser.Error(offset: start, reason: "invalid UTF-8 in string")
        }
        return string
      case UInt8(ascii: "\\"):
        index += 1
        guard index < bytes.count else { throw fail("unterminated string") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): scalars.append(0x22)
        case UInt8(ascii: "\\"): scalars.append(0x5C)
        case UInt8(ascii: "/"): scalars.append(0x2F)
        case UInt8(ascii: "b"): scalars.append(0x08)
        case UInt8(ascii: "f"): scalars.append(0x0C)
        case UInt8(ascii: "n"): scalars.append(0x0A)
        case UInt8(ascii: "r"): scalars.append(0x0D)
        case UInt8(ascii: "t"): scalars.append(0x09)
        case UInt8(ascii: "u"):
          let scalar = try parseUnicodeEscape()
          scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
          index -= 1
          throw fail("invalid escape")
        }
      default:
        if byte < 0x20 { throw fail("control character in string") }
        scalars.append(byte)
        index += 1
      }
    }
    throw fail("unterminated string")
  }

  mutating func parseHex4() throws(JSONParser.Error) -> UInt32 {
    guard index + 4 <= bytes.count else { throw fail("unterminated \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw fail("invalid \\u escape")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  mutating func parseUnicodeEscape() throws(JSONParser.Error) -> Unicode.Scalar {
    let high = try parseHex4()
    if (0xD800...0xDBFF).contains(high) {
      guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
        throw fail("lone surrogate in \\u escape")
      }
      index += 2
      let low = try parseHex4()
      guard (0xDC00...0xDFFF).contains(low) else { throw fail("lone surrogate in \\u escape") }
      let combined = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
      guard let scalar = Unicode.Scalar(combined) else { throw fail("invalid \\u escape") }
      return scalar
    }
    guard let scalar = Unicode.Scalar(high) else { throw fail("lone surrogate in \\u escape") }
    return scalar
  }
}
