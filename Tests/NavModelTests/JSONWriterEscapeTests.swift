import NavTestSupport
import Testing

@testable import NavModel

/// `JSONWriter.writeString` skips eight bytes at a time; these compare it with
/// the byte-at-a-time escaping it replaced (RFC 8259 §7), over seeded random strings.
@Suite("JSONWriter string escaping, word at a time")
struct JSONWriterEscapeTests {
  /// The simple reference: every byte looked at, the same escapes.
  static func reference(_ s: String) -> [UInt8] {
    var out: [UInt8] = [UInt8(ascii: "\"")]
    for byte in s.utf8 {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [0x5C, byte]
      case 0x0A: out += Array(#"\n"#.utf8)
      case 0x0D: out += Array(#"\r"#.utf8)
      case 0x09: out += Array(#"\t"#.utf8)
      case ..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        out += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
    return out
  }

  @Test(
    "Random strings of plain, escaped and multi-byte characters are written as the byte-at-a-time writer writes them")
  func matchesReference() throws {
    let seed = SplitMix64.testSeed(default: 20_261_130)
    var rng = SplitMix64(seed: seed)
    // Plain ASCII, every byte that needs an escape, their neighbours, DEL, multi-byte scalars.
    let alphabet: [Character] = [
      "a", "Z", " ", "!", "#", "[", "]", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}",
      "\u{7F}", "é", "€", "😀", "\u{21}", "\u{5B}", "\u{5D}",
    ]
    for round in 0..<5000 {
      let length = Int.random(in: 0...40, using: &rng)
      let plainOnly = Bool.random(using: &rng)
      let s = String((0..<length).map { _ in plainOnly ? "x" : alphabet.randomElement(using: &rng)! })
      var out: [UInt8] = []
      JSONWriter.writeString(s, into: &out)
      #expect(out == Self.reference(s), "seed \(seed), round \(round): \(s.debugDescription)")
      let parsed = try JSONParser.parse(out)
      #expect(parsed == .string(s), "seed \(seed), round \(round): does not read back")
    }
  }

  @Test("A word flags every byte that needs an escape, wherever it lies")
  func wordFlagsEveryEscape() {
    for byte in UInt8(0)...UInt8(255) {
      for position in 0..<8 {
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
        bytes[position] = byte
        let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        if byte < 0x20 || byte == 0x22 || byte == 0x5C {
          #expect(JSONWriter.mayNeedEscape(word), "byte \(byte) at \(position) was missed")
        }
      }
    }
    #expect(!JSONWriter.mayNeedEscape(0x6161_6161_6161_6161))
  }
}
