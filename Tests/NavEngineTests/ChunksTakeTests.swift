import NavTestSupport
import Testing

@testable import NavEngine

/// `Chunks.take()`, the pull's fast path (the lone chunk moved out, not copied), against
/// the simple reference it replaced: every chunk queued since the last take, concatenated.
@Suite("Chunks: take() gives every queued chunk, in order, once")
struct ChunksTakeTests {
  @Test("§6 take() equals the queued chunks concatenated, then leaves nothing (seeded, random chunks)")
  func takeMatchesConcatenation() {
    let seed = SplitMix64.testSeed(default: 20_261_130)
    var random = SplitMix64(seed: seed)
    var chunks = Chunks()
    var reference: [[UInt8]] = []
    for step in 0..<5000 {
      if random.chance(35) {
        let expected = Array(reference.joined())
        let taken = chunks.take()
        #expect(taken == expected, "seed \(seed), step \(step)")
        #expect(chunks.isEmpty && chunks.bytes == 0, "seed \(seed), step \(step): nothing left after take()")
        #expect(chunks.take().isEmpty, "seed \(seed), step \(step): a second take() has nothing")
        reference.removeAll()
      } else {
        // Empty chunks too: they are skipped, as the reference's concatenation skips them.
        let chunk = (0..<random.below(6)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        chunks.append(chunk)
        reference.append(chunk)
        #expect(chunks.bytes == reference.reduce(0) { $0 + $1.count }, "seed \(seed), step \(step)")
      }
    }
  }
}
