/// The little of Redis's protocol (RESP2) navbench speaks: commands out,
/// replies and pub/sub messages in.
enum RESP {
  /// A command as an array of bulk strings.
  static func command(_ parts: [[UInt8]]) -> [UInt8] {
    var out = Array("*\(parts.count)\r\n".utf8)
    for part in parts {
      out += Array("$\(part.count)\r\n".utf8)
      out += part
      out += [13, 10]
    }
    return out
  }

  /// The index just past the value starting at `from`, or nil when `bytes`
  /// holds only part of it.
  static func valueEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
    guard start < bytes.count, let lineEnd = lineEnd(bytes, from: start + 1) else { return nil }
    let afterLine = lineEnd + 2
    switch bytes[start] {
    case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: ":"):
      return afterLine
    case UInt8(ascii: "$"):
      let length = integer(bytes, from: start + 1, to: lineEnd)
      if length < 0 { return afterLine }
      let end = afterLine + length + 2
      return end <= bytes.count ? end : nil
    case UInt8(ascii: "*"):
      let count = integer(bytes, from: start + 1, to: lineEnd)
      var position = afterLine
      for _ in 0..<max(count, 0) {
        guard let next = valueEnd(bytes, from: position) else { return nil }
        position = next
      }
      return position
    default:
      // Not RESP: report the line as one message so the caller sees the bytes.
      return afterLine
    }
  }

  /// The index of the `\r` of the CRLF that ends the line starting at `from`.
  static func lineEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
    var i = start
    while i + 1 < bytes.count {
      if bytes[i] == 13, bytes[i + 1] == 10 { return i }
      i += 1
    }
    return nil
  }

  /// The decimal integer in `bytes[from..<to]` (a leading `-` allowed).
  static func integer(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
    var i = start
    var negative = false
    if i < end, bytes[i] == UInt8(ascii: "-") {
      negative = true
      i += 1
    }
    var value = 0
    while i < end {
      value = value * 10 + Int(bytes[i] &- UInt8(ascii: "0"))
      i += 1
    }
    return negative ? -value : value
  }

  /// Whether a complete reply is an error (`-ERR …`).
  static func isError(_ message: UnsafeRawBufferPointer) -> Bool {
    message.first == UInt8(ascii: "-")
  }
}
