/// Where a validated string sits in the input: between its quotes, escapes not yet decoded.
struct JSONStringSpan {
  /// First byte after the opening quote.
  var start: Int
  /// The closing quote.
  var end: Int
  /// The string holds at least one backslash escape.
  var escaped: Bool
  /// Every byte is ASCII (escapes included as written).
  var ascii: Bool

  /// No escapes and only ASCII: the bytes are the string, and equal strings have equal bytes.
  var isPlain: Bool { !escaped && ascii }
}

/// The lexical half of JSON (RFC 8259) shared by `JSONParser` (which builds a `JSONValue`)
/// and `JSONDocument` (which records where each value is): whitespace, literals, numbers,
/// strings, nesting depth, and the exact error — offset and reason — for each mistake.
///
/// Both readers therefore accept the same documents and reject the rest with the same
/// error; only what they build differs.
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
  mutating func enter() throws(JSONParser.Error) {
    depth += 1
    if depth > maxDepth { throw fail("nesting deeper than \(maxDepth) levels") }
  }

  mutating func leave() { depth -= 1 }

  /// After a member or element: `,` (true: another follows) or `closer` (false: the end).
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
  /// conversion (a String and strtod), which costs hundreds of instructions.
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

  /// Validates the string at `index` (its opening quote) and says where it is.
  mutating func scanString() throws(JSONParser.Error) -> JSONStringSpan {
    index += 1
    let start = index
    // Fast path: no escapes, so the bytes are the string once UTF-8 is validated; pure ASCII
    // (keys, most values) is valid as it is.
    var ascii = true
    while index < bytes.count {
      skipOrdinaryStringBytes()
      guard index < bytes.count else { break }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        if !ascii, String(validating: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self) == nil {
          index = start
          throw fail("invalid UTF-8 in string")
        }
        index += 1
        return JSONStringSpan(start: start, end: index - 1, escaped: false, ascii: ascii)
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { throw fail("control character in string") }
      if byte >= 0x80 { ascii = false }
      index += 1
    }
    guard index < bytes.count else { throw fail("unterminated string") }
    let scalars = try unescape(from: start)
    if String(validating: scalars, as: UTF8.self) == nil {
      throw JSONParser.Error(offset: start, reason: "invalid UTF-8 in string")
    }
    let isASCII = ascii && !scalars.contains { $0 >= 0x80 }
    return JSONStringSpan(start: start, end: index - 1, escaped: true, ascii: isASCII)
  }

  /// Moves `index` to the first string byte that needs a look — a quote, a backslash, a
  /// control character or non-ASCII — eight bytes at a time: a string is mostly bytes that
  /// do not, and one test per word instead of four per byte makes scanning it several times
  /// cheaper. Within the last seven bytes of the input it stops early (the caller's byte
  /// loop goes on from there).
  mutating func skipOrdinaryStringBytes() {
    guard let base = bytes.baseAddress, bytes.count >= 8 else { return }
    // A local index stays in a register; `index` is written once.
    var i = index
    let last = bytes.count - 8
    while i <= last {
      let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
      let special = Self.specialBytes(word)
      if special != 0 {
        index = i + special.trailingZeroBitCount / 8
        return
      }
      i += 8
    }
    index = i
  }

  /// The high bit of each byte of `word` (first byte lowest) that is a quote, a backslash,
  /// below 0x20 or non-ASCII; the lowest bit set marks the first such byte exactly.
  ///
  /// A byte below `n` (≤ 0x80) borrows when `n` is subtracted from it, which sets its high
  /// bit in `(x - n) & ~x`; a quote or a backslash is a zero byte (below 1) once xored with
  /// that character repeated. A borrow runs only towards higher bytes, so it can flag bytes
  /// after the first special one, never one before it.
  static func specialBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    let flags = word | (word &- ones &* 0x20) & ~word | (quote &- ones) & ~quote | (backslash &- ones) & ~backslash
    return flags & 0x8080_8080_8080_8080
  }

  /// The string a validated span holds.
  static func string(_ span: JSONStringSpan, in bytes: UnsafeBufferPointer<UInt8>) -> String {
    guard span.escaped else {
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[span.start..<span.end]), as: UTF8.self)
    }
    var lexer = JSONLexer(bytes: bytes, maxDepth: 0)
    lexer.index = span.start
    while bytes[lexer.index] != UInt8(ascii: "\\") { lexer.index += 1 }
    // The span was validated when it was scanned: decoding it again cannot fail.
    let scalars = (try? lexer.unescape(from: span.start)) ?? []
    return String(decoding: scalars, as: UTF8.self)
  }

  /// Decodes a string from `start` (after its opening quote) on, `index` being at its first
  /// backslash; leaves `index` after the closing quote. Returns the UTF-8, not yet validated.
  mutating func unescape(from start: Int) throws(JSONParser.Error) -> [UInt8] {
    var scalars = Array(bytes[start..<index])
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        return scalars
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
