extension [UInt8] {
  /// Appends a literal's UTF-8 in one copy (appending a `String`'s `utf8` view goes through
  /// the generic sequence path: ~160 instructions for a few bytes).
  mutating func append(literal: StaticString) {
    literal.withUTF8Buffer { append(contentsOf: $0) }
  }

  /// Appends `value` in decimal digits, as `String(value)` writes it, without building the string.
  mutating func append(decimal value: UInt64) {
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for UInt64.max's 20 digits
    Swift.withUnsafeMutableBytes(of: &digits) { buffer in
      var start = buffer.count
      var rest = value
      repeat {
        start -= 1
        buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
      } while rest != 0
      append(contentsOf: buffer[start...])
    }
  }
}
