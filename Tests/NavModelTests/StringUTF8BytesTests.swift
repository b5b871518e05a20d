import NavTestSupport
import Testing

@testable import NavModel

/// `String.withUTF8Bytes` reads a string's UTF-8 in place; the string's `utf8` view is
/// the reference. Replay with `NAVD_TEST_SEED=<seed>`.
@Suite("String.withUTF8Bytes")
struct StringUTF8BytesTests {
  @Test(
    "Gives the bytes of the string's utf8 view",
    arguments: [
      "", "a", "top", "fifteen bytes!!", "sixteen bytes!!!", "title 12 " + String(repeating: "x", count: 100),
      "é", "e\u{301}", "🇫🇷 drapeau", "line\r\nbreak\u{7F}", String("  a slice  ".dropFirst(2).dropLast(2)),
    ])
  func table(_ string: String) {
    #expect(string.withUTF8Bytes { Array($0) } == Array(string.utf8))
  }

  @Test("Gives the bytes of the string's utf8 view, for random strings of every storage size")
  func randomStrings() {
    let seed = SplitMix64.testSeed(default: 0x0075_7466_38)
    var rng = SplitMix64(seed: seed)
    let scalars: [Unicode.Scalar] = ["a", "Z", " ", "~", "/", "\"", "\u{0}", "\u{7F}", "é", "\u{301}", "中", "🙂"]
    for round in 0..<2_000 {
      var string = String(String.UnicodeScalarView((0..<rng.below(40)).map { _ in rng.pick(scalars) }))
      if rng.chance(25) { string = String(string.dropFirst()) }
      #expect(string.withUTF8Bytes { Array($0) } == Array(string.utf8), "seed \(seed), round \(round): \(string)")
    }
  }
}
