/// Writes JSON as compact UTF-8 bytes, object keys sorted, so equal values have equal bytes.
///
/// Integral numbers within ±2^53 print without a fraction (`3`, not `3.0`).
///
/// A value is written by `SortedJSONWriter`, the writer of ops, updates and Mutate replies,
/// so a fast path and the reference it is tested against share one writer; what is here
/// is how a string and a number are spelled.
public enum JSONWriter {
  /// The value as compact UTF-8 JSON (object keys sorted).
  public static func bytes(_ value: JSONValue) -> [UInt8] {
    SortedJSONWriter.bytes { $0.value(value) }
  }

  /// The value as a compact JSON string.
  public static func string(_ value: JSONValue) -> String {
    String(decoding: bytes(value), as: UTF8.self)
  }

  /// Appends the value's JSON to `out`.
  public static func write(_ value: JSONValue, into out: inout [UInt8]) {
    SortedJSONWriter.append(to: &out) { $0.value(value) }
  }

  static func writeNumber(_ n: Double, into out: inout [UInt8]) {
    if let integer = exactInteger(n) {
      writeInteger(integer, into: &out)
    } else if n.isFinite {
      out.append(contentsOf: "\(n)".utf8)
    } else {
      // JSON has no NaN or infinity; the model never holds one, so this is a last resort.
      out.append(contentsOf: "null".utf8)
    }
  }

  /// `n` as the integer `write` writes it as, when it is integral within ±2^53; else nil.
  package static func exactInteger(_ n: Double) -> Int64? {
    n.rounded() == n && abs(n) <= 9_007_199_254_740_992 ? Int64(n) : nil
  }

  /// Appends `value` in decimal, as `String(value)` writes it, without
  /// making the string (which cost an allocation per version number).
  public static func writeInteger(_ value: Int64, into out: inout [UInt8]) {
    // As a buffer, not a slice of one: appending the slice went through its iterator.
    withDecimal(value) { out.append(contentsOf: $0) }
  }

  /// Calls `body` with `value` in decimal (its sign, then its digits), written on the stack.
  static func withDecimal(_ value: Int64, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for Int64.min's sign and 19 digits
    withUnsafeMutableBytes(of: &digits) { raw in
      let buffer = raw.bindMemory(to: UInt8.self)
      var start = buffer.count
      var rest = value.magnitude
      repeat {
        start -= 1
        buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
      } while rest != 0
      if value < 0 {
        start -= 1
        buffer[start] = UInt8(ascii: "-")
      }
      body(UnsafeBufferPointer(rebasing: buffer[start...]))
    }
  }

  private static let hexDigits: StaticString = "0123456789abcdef"

  /// Appends `s` as a quoted, escaped JSON string.
  ///
  /// Runs of bytes that need no escape (almost all of them) are copied in one append each;
  /// they are found eight bytes at a time (`mayNeedEscape`), looking at single bytes only
  /// in a word that may hold one to escape.
  public static func writeString(_ s: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    writeStringContents(s, into: &out)
    out.append(UInt8(ascii: "\""))
  }

  /// Appends `s` escaped as in a JSON string, without the quotes: for a
  /// writer that makes one string of several parts (`JSONPointer.writeJSONString`).
  static func writeStringContents(_ s: String, into out: inout [UInt8]) {
    var s = s
    s.withUTF8 { utf8 in
      guard let base = utf8.baseAddress else { return }
      var runStart = 0
      var i = 0
      while i < utf8.count {
        // The words with nothing to escape in a tight loop (the outer one's checks for
        // each word cost more).
        while i + 8 <= utf8.count, !mayNeedEscape(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) {
          i += 8
        }
        let end = min(i + 8, utf8.count)
        while i < end {
          let byte = utf8[i]
          if byte < 0x20 || byte == 0x22 || byte == 0x5C {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
            writeEscape(byte, into: &out)
            runStart = i + 1
          }
          i += 1
        }
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
    }
  }

  /// Whether any byte of `utf8` needs an escape in a JSON string (`writeStringContents`
  /// writes it as it is when none does), found as that finds them.
  package static func needsEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = utf8.baseAddress else { return false }
    var i = 0
    while i + 8 <= utf8.count, !mayNeedEscape(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) {
      i += 8
    }
    return utf8[i...].contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
  }

  /// Whether any of the eight bytes of `word` may need an escape: below 0x20, `"` or `\`.
  /// Never misses one; a false alarm only means the bytes are looked at one by one.
  static func mayNeedEscape(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    // A byte below 0x20 borrows when 0x20 is subtracted; `"` and `\` are zero bytes once
    // xored with themselves repeated.
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    let found = (word &- ones &* 0x20) & ~word | (quote &- ones) & ~quote | (backslash &- ones) & ~backslash
    return found & 0x8080_8080_8080_8080 != 0
  }

  /// The escape of one byte that JSON does not allow raw in a string.
  private static func writeEscape(_ byte: UInt8, into out: inout [UInt8]) {
    out.append(0x5C)
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
    case 0x0A: out.append(UInt8(ascii: "n"))
    case 0x0D: out.append(UInt8(ascii: "r"))
    case 0x09: out.append(UInt8(ascii: "t"))
    default:
      out.append(contentsOf: "u00".utf8)
      out.append(hexDigits.utf8Start[Int(byte >> 4)])
      out.append(hexDigits.utf8Start[Int(byte & 0xF)])
    }
  }
}
