/// Writes JSON as compact UTF-8 bytes, object keys sorted, so equal values have equal bytes.
///
/// Integral numbers within ±2^53 print without a fraction (`3`, not `3.0`).
public enum JSONWriter {
  /// The value as compact UTF-8 JSON (object keys sorted).
  public static func bytes(_ value: JSONValue) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(256)
    write(value, into: &out)
    return out
  }

  /// The value as a compact JSON string.
  public static func string(_ value: JSONValue) -> String {
    String(decoding: bytes(value), as: UTF8.self)
  }

  /// Appends the value's JSON to `out`.
  public static func write(_ value: JSONValue, into out: inout [UInt8]) {
    switch value {
    case .null: out.append(contentsOf: "null".utf8)
    case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
    case .number(let n): writeNumber(n, into: &out)
    case .string(let s): writeString(s, into: &out)
    case .array(let elements):
      out.append(UInt8(ascii: "["))
      for (i, element) in elements.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        write(element, into: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      // Sorting the members, not the keys, saves looking each key up again.
      for (i, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        writeString(member.key, into: &out)
        out.append(UInt8(ascii: ":"))
        write(member.value, into: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  static func writeNumber(_ n: Double, into out: inout [UInt8]) {
    if n.rounded() == n, abs(n) <= 9_007_199_254_740_992 {
      out.append(contentsOf: String(Int64(n)).utf8)
    } else if n.isFinite {
      out.append(contentsOf: "\(n)".utf8)
    } else {
      // JSON has no NaN or infinity; the model never holds one, so this is a last resort.
      out.append(contentsOf: "null".utf8)
    }
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// Appends `s` as a quoted, escaped JSON string.
  public static func writeString(_ s: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    let utf8 = s.utf8
    // Most strings need no escape at all: copy them whole, not byte by byte.
    if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
      out.append(contentsOf: utf8)
      out.append(UInt8(ascii: "\""))
      return
    }
    for byte in utf8 {
      switch byte {
      case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
      case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case 0..<0x20:
        out.append(contentsOf: Array("\\u00".utf8))
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 0xF)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}
