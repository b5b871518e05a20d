/// Makes any string safe to put in a log line: one event is exactly one line, and no
/// client can write text that looks like navd's own.
///
/// Escapes `\` as `\\`, newline, carriage return and tab as `\n` `\r` `\t`, every other
/// control character (C0, DEL, C1 — ESC included) as `\xNN`, and the Unicode line and
/// paragraph separators and bidirectional overrides as `\u{NNNN}`. Strings reach the
/// log already decoded (invalid UTF-8 is refused at the protocol level or was replaced
/// by U+FFFD on decoding). The result is cut to `limit` UTF-8 bytes at a character
/// boundary and marked `…[+N bytes]` with the number of bytes left out.
public enum LogText {
  /// The longest message kept, in bytes after escaping.
  public static let messageLimit = 1024
  /// The longest field value kept, in bytes after escaping.
  public static let fieldLimit = 256

  /// `text` escaped and bounded to `limit` bytes.
  public static func escaped(_ text: String, limit: Int) -> String {
    var out = ""
    var omitted = 0
    for scalar in text.unicodeScalars {
      if omitted > 0 {
        omitted += escape(scalar).utf8.count
        continue
      }
      let piece = escape(scalar)
      if out.utf8.count + piece.utf8.count > limit {
        omitted = piece.utf8.count
        continue
      }
      out += piece
    }
    if omitted > 0 { out += "…[+\(omitted) bytes]" }
    return out
  }

  private static func escape(_ scalar: Unicode.Scalar) -> String {
    switch scalar.value {
    case 0x5C: return "\\\\"
    case 0x0A: return "\\n"
    case 0x0D: return "\\r"
    case 0x09: return "\\t"
    case 0x00..<0x20, 0x7F..<0xA0: return "\\x" + hex(scalar.value, width: 2)
    case 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C, 0xFEFF:
      return "\\u{" + hex(scalar.value, width: 4) + "}"
    default: return String(scalar)
    }
  }

  private static func hex(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
