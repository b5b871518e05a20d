import NavTestSupport
import Testing

@testable import NavModel

/// The writers that append straight to bytes instead of making a `String`
/// first, against the string they replaced, over seeded random values: the
/// bytes on the wire must not change (RFC 8259 §6 and §7, RFC 6901 §3, §5).
@Suite("JSON numbers and pointers written without making strings")
struct JSONDirectWritingTests {
  @Test("An integral number is written as String(Int64(n)) writes it, up to ±2^53 and -0")
  func integers() {
    let seed = SplitMix64.testSeed(default: 0x2026_1130)
    print("JSONDirectWritingTests.integers: seed \(seed) (NAVD_TEST_SEED to replay)")
    var rng = SplitMix64(seed: seed)
    let limit: Int64 = 9_007_199_254_740_992
    var numbers: [Double] = [0, -0.0, 1, -1, 9, 10, -10, 99, 100, Double(limit), -Double(limit), 1e15, -123_456_789]
    for _ in 0..<5000 {
      let magnitude = Int64.random(in: 0...limit, using: &rng) >> Int64.random(in: 0...52, using: &rng)
      numbers.append(Double(Bool.random(using: &rng) ? -magnitude : magnitude))
    }
    for n in numbers {
      var out: [UInt8] = []
      JSONWriter.writeNumber(n, into: &out)
      #expect(out == Array(String(Int64(n)).utf8), "\(n); seed \(seed)")
    }
  }

  @Test("A pointer is written as JSONWriter.writeString(description) writes it: '~' and '/' escaped, then JSON escapes")
  func pointers() throws {
    let seed = SplitMix64.testSeed(default: 0x6901)
    print("JSONDirectWritingTests.pointers: seed \(seed) (NAVD_TEST_SEED to replay)")
    var rng = SplitMix64(seed: seed)
    // The long piece makes some texts too long to be assembled on the stack.
    let pieces = [
      "a", "title", "0", "12", "-", "~", "/", "~1", "\"", "\\", "\n", "\u{1}", "é", "😀", " ",
      String(repeating: "x", count: 90),
    ]
    for round in 0..<3000 {
      let tokens = (0..<rng.int(0...5)).map { _ in (0..<rng.int(0...4)).map { _ in rng.pick(pieces) }.joined() }
      let pointer = JSONPointer(tokens: tokens)
      var out: [UInt8] = []
      pointer.writeJSONString(into: &out)
      var reference: [UInt8] = []
      JSONWriter.writeString(pointer.description, into: &reference)
      #expect(out == reference, "seed \(seed) round \(round): \(tokens)")
      #expect(try JSONPointer(parsing: try JSONParser.parse(out).stringValue ?? "") == pointer, "round trip")
    }
  }
}
