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

/// Strings: validated in place (`scanString`), decoded only when asked (`string(_:in:)`).
extension JSONLexer {
  /// Validates the string at `index` (its opening quote) and says where it is.
  ///
  /// Inlined for its most common case, plain ASCII up to the closing quote (keys, most
  /// values): a call per string was a quarter of a string's cost.
  @inline(__always)
  mutating func scanString() throws(JSONParser.Error) -> JSONStringSpan {
    index += 1
    let start = index
    skipOrdinaryStringBytes()
    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
      index += 1
      return JSONStringSpan(start: start, end: index - 1, escaped: false, ascii: true)
    }
    return try scanString(from: start)
  }

  /// The rest of `scanString`: the string that began at `start` (after its quote), `index`
  /// being at or before its first byte that needs a look.
  mutating func scanString(from start: Int) throws(JSONParser.Error) -> JSONStringSpan {
    // No escapes, so the bytes are the string once UTF-8 is validated; pure ASCII is
    // valid as it is.
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
    // ASCII is valid UTF-8 as it is: only a string with other bytes is validated.
    let isASCII = ascii && !scalars.contains { $0 >= 0x80 }
    if !isASCII, String(validating: scalars, as: UTF8.self) == nil {
      throw JSONParser.Error(offset: start, reason: "invalid UTF-8 in string")
    }
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
      let utf8 = UnsafeBufferPointer(rebasing: bytes[span.start..<span.end])
      return span.ascii ? asciiString(utf8) : String(decoding: utf8, as: UTF8.self)
    }
    var lexer = JSONLexer(bytes: bytes, maxDepth: 0)
    lexer.index = span.start
    while bytes[lexer.index] != UInt8(ascii: "\\") { lexer.index += 1 }
    // The span was validated when it was scanned: decoding it again cannot fail.
    let scalars = (try? lexer.unescape(from: span.start)) ?? []
    return String(decoding: scalars, as: UTF8.self)
  }

  /// The string of bytes known to be ASCII, as `String(decoding:as:)` makes it: up to 15
  /// bytes (a small string, as ids, names and keys are) written straight into the string,
  /// without `String(decoding:)`'s pass to repair them (half a short string's cost); a
  /// longer one by `String(decoding:)`, which was cheaper for
  /// it than filling a string's uninitialized storage.
  static func asciiString(_ utf8: UnsafeBufferPointer<UInt8>) -> String {
    guard utf8.count <= 15 else { return String(decoding: utf8, as: UTF8.self) }
    return String(unsafeUninitializedCapacity: utf8.count) { buffer in
      UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(utf8))
      return utf8.count
    }
  }

  /// Decodes a string from `start` (after its opening quote) on, `index` being at its first
  /// backslash; leaves `index` after the closing quote. Returns the UTF-8, not yet validated.
  ///
  /// Linear and without an allocation per escape: runs of unescaped bytes are copied in one
  /// append each (found as `scanString` finds them), and a `\u` escape's scalar is encoded
  /// straight into the result, so a frame of escapes costs a few instructions per byte.
  mutating func unescape(from start: Int) throws(JSONParser.Error) -> [UInt8] {
    var scalars: [UInt8] = []
    scalars.reserveCapacity(index - start + 16)
    scalars.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
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
          UTF8.encode(try parseUnicodeEscape()) { scalars.append($0) }
        default:
          index -= 1
          throw fail("invalid escape")
        }
      default:
        if byte < 0x20 { throw fail("control character in string") }
        let run = index
        index += 1
        skipOrdinaryStringBytes()
        scalars.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
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
