import NavTestSupport
import NavWire
import Testing
import Varlink

/// `NavMethod(methodOf:)`, which matches the method name's bytes, against the reference
/// `NavMethod(rawValue: call.methodName)`, for random method strings: real names, near
/// misses, no dot, several dots, and non-ASCII after the dot (a combining mark that joins
/// the dot, a Kelvin sign canonically equal to "K").
/// Replay with `NAVD_TEST_SEED=<seed> swift test --filter MethodLookupTests`.
@Suite("Method lookup against the reference")
struct MethodLookupTests {
  static let defaultSeed: UInt64 = 0x4E7D_3E7_40D

  @Test("PROTOCOL §2 random method names: the byte match finds the reference's method")
  func randomMethodNames() {
    let seed = SplitMix64.testSeed(default: Self.defaultSeed)
    var rng = SplitMix64(seed: seed)
    let names =
      NavMethod.allCases.map(\.rawValue) + ["Mutat", "Mutatee", "mutate", "", "K", "\u{212A}", "Mutate\u{301}"]
    let prefixes = ["io.navd.", "", ".", "io.navd", "a.b.c.", "io.navd.\u{301}", "é.", "io.navd.."]
    var matched = 0
    for round in 0..<5000 {
      var method = rng.pick(prefixes) + rng.pick(names)
      if rng.chance(10) { method += rng.pick(["\u{301}", ".", "x", "\u{212A}"]) }
      let call = VarlinkCall(method: method)
      let expected = NavMethod(rawValue: call.methodName)
      #expect(
        NavMethod(methodOf: call) == expected,
        "seed \(seed) (NAVD_TEST_SEED=\(seed)), round \(round): \(method.unicodeScalars.map { $0.escaped(asASCII: true) })"
      )
      if expected != nil { matched += 1 }
    }
    // Most rounds name a method, so the comparison covers every one of them.
    #expect(matched > 1000, "seed \(seed): only \(matched) rounds named a method")
  }

  @Test("PROTOCOL §2 a combining mark after the dot joins it: the name after it is still the method")
  func combiningMarkAfterDot() {
    let call = VarlinkCall(method: "io.navd.\u{301}Mutate")
    #expect(NavMethod(methodOf: call) == NavMethod(rawValue: call.methodName))
  }
}
