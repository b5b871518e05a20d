import NavModel
import NavTestSupport
import NavWire
import Testing
import Varlink

/// A typed reply written straight to bytes (`VarlinkReply.encoded(_:)`, Mutate's
/// `encodeParameters(into:)`) against the reference: its `parameters` value written by
/// `JSONWriter`. Replay with `NAVD_TEST_SEED=<seed> swift test --filter TypedReplyEncodingTests`.
@Suite("Typed reply encoding against the reference")
struct TypedReplyEncodingTests {
  static let defaultSeed: UInt64 = 0x2E91_7B17_E5

  @Test("PROTOCOL §4 Mutate replies: the same bytes as JSONWriter writes for their parameters")
  func randomMutationReplies() {
    let seed = SplitMix64.testSeed(default: Self.defaultSeed)
    var json = RandomJSONText(rng: SplitMix64(seed: seed))
    let versions: [UInt64] = [0, 1, 9, 10, 42, 99_999, (1 << 53) - 1, 1 << 53, (1 << 53) + 1, 1 << 60, .max]
    for round in 0..<2000 {
      var overwritten: [MutationReply.Overwrite] = []
      for _ in 0..<json.rng.below(4) {
        // Any JSON value the generator makes valid, or null.
        let previous = (try? JSONParser.parse(json.document())) ?? .null
        overwritten.append(
          MutationReply.Overwrite(
            field: json.rng.pick(["navigationItem/a/title", "é", "q\"\\\n"]), previousValue: previous,
            version: json.rng.pick(versions)))
      }
      let reply = MutationReply(
        version: json.rng.chance(50) ? json.rng.pick(versions) : json.rng.next() >> json.rng.below(64),
        overwritten: overwritten, baseVersionExpired: json.rng.chance(50),
        replayed: json.rng.chance(50), created: json.rng.chance(50))
      #expect(
        VarlinkReply.encoded(reply) == VarlinkReply.encoded(parameters: reply.parameters),
        "seed \(seed) (NAVD_TEST_SEED=\(seed)), round \(round): \(reply)")
    }
  }
}
