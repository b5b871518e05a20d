import NavTestSupport
import Testing

@testable import NavModel

/// `Validation.containsControl` looks for control characters eight bytes at a time; a
/// byte-by-byte scan is the reference. Replay with `NAVD_TEST_SEED=<seed>`.
@Suite("Validation's word-at-a-time control scan")
struct ValidationScanTests {
  @Test("R67 a control character (below 0x20, or DEL) is found wherever it sits, and only then")
  func randomBytes() {
    let seed = SplitMix64.testSeed(default: 0x7E47_C0DE)
    var rng = SplitMix64(seed: seed)
    let control: [UInt8] = [0x00, 0x01, 0x09, 0x1F, 0x7F]
    let other: [UInt8] = [0x20, 0x41, 0x7E, 0x80, 0x9F, 0xC3, 0xE2, 0xFF]
    for round in 0..<20_000 {
      let bytes = (0..<rng.below(40)).map { _ in rng.chance(3) ? rng.pick(control) : rng.pick(other) }
      let expected = bytes.contains { $0 < 0x20 || $0 == 0x7F }
      #expect(
        bytes.withUnsafeBufferPointer(Validation.containsControl) == expected, "seed \(seed), round \(round): \(bytes)")
    }
  }
}
