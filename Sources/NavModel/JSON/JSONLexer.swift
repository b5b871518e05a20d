/// The lexical half of JSON (RFC 8259) under `JSONDocument`, navd's one reader (which
/// records where each value is; `JSONParser` is its tree): whitespace, literals, numbers,
/// strings (`JSONLexer+Strings.swift`), nesting depth, and the exact error — offset and
/// reason — for each mistake. The tests' independent tree parser reads through it too.
struct JSONLexer {
  let bytes: UnsafeBufferPointer<UInt8>
  let maxDepth: Int
  var index = 0
  var depth = 0

  init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  func fail(_ reason: String) -> JSONParser.Error {
    JSONParser.Error(offset: index, reason: reason)
  }

  /// The byte at `index`, or nil at the end.
  var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  @inline(__always)
  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  /// After the document: only whitespace may follow.
  mutating func expectEnd() throws(JSONParser.Error) {
    skipWhitespace()
    if index != bytes.count { throw fail("unexpected bytes after the document") }
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

  /// Opens an object or array (at its bracket), refusing to go deeper than `maxDepth`.
  @inline(__always)
  mutating func enter() throws(JSONParser.Error) {
    depth += 1
    if depth > maxDepth { throw fail("nesting deeper than \(maxDepth) levels") }
  }

  @inline(__always)
  mutating func leave() { depth -= 1 }

  /// After a member or element: `,` (true: another follows) or `closer` (false: the end).
  @inline(__always)
  mutating func separator(_ closer: UInt8, expected: String) throws(JSONParser.Error) -> Bool {
    skipWhitespace()
    guard index < bytes.count else { throw fail("unexpected end of input") }
    if bytes[index] == UInt8(ascii: ",") {
      index += 1
      return true
    }
    if bytes[index] == closer {
      index += 1
      return false
    }
    throw fail(expected)
  }

  /// After a key: the `:`.
  @inline(__always)
  mutating func colon() throws(JSONParser.Error) {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
    index += 1
    skipWhitespace()
  }

  /// Reads a number and its value; beyond Double's range is an error.
  mutating func scanNumber() throws(JSONParser.Error) -> Double {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count else { throw fail("unexpected end of input") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else if Self.isDigit(bytes[index]) {
      while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
    } else {
      throw fail("invalid number")
    }
    var integral = true
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      integral = false
      index += 1
      guard index < bytes.count, Self.isDigit(bytes[index]) else { throw fail("invalid number") }
      while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      integral = false
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard index < bytes.count, Self.isDigit(bytes[index]) else { throw fail("invalid number") }
      while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
    }
    if integral, let value = Self.smallInteger(bytes, start..<index) { return value }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      index = start
      throw fail("number out of range")
    }
    return value
  }

  /// The value of a validated number (`scanNumber` already accepted it).
  static func numberValue(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double {
    if let value = smallInteger(bytes, range) { return value }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    return Double(text) ?? 0
  }

  /// An integer of at most 15 digits is exact in a double: no need for the general
  /// conversion (a String and strtod).
  private static func smallInteger(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
    let negative = bytes[range.lowerBound] == UInt8(ascii: "-")
    let digits = (negative ? range.lowerBound + 1 : range.lowerBound)..<range.upperBound
    guard digits.count <= 15 else { return nil }
    var value: Int64 = 0
    for i in digits {
      let digit = bytes[i] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      value = value * 10 + Int64(digit)
    }
    // "-0" is negative zero, as Double("-0") reads it.
    return negative ? -Double(value) : Double(value)
  }

  static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
