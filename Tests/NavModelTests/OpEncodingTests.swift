import NavModel
import NavTestSupport
import Testing

/// `Op.encoded` writes each op from its members in key order instead of building a JSON
/// object and sorting it; its bytes are persisted (log rows) and digested (mutation ids,
/// STORAGE.md §3), so they must stay exactly the canonical writer's.
@Suite("Op encoding")
struct OpEncodingTests {
  @Test("R6 the fast op encoding equals the canonical writer's bytes, for every wire case")
  func everyWireCase() throws {
    for testCase in OpDecodingTests.wireCases {
      #expect(Op.encoded([testCase.op]) == JSONWriter.bytes(.array([testCase.op.json])), "\(testCase.json)")
    }
  }

  @Test("R6 the fast op encoding equals the canonical writer's bytes, for 2,000 random batches")
  func randomBatches() {
    let seed = SplitMix64.testSeed(default: 0x6F70_656E_636F_6465)
    var generator = OpGenerator(rng: SplitMix64(seed: seed))
    var state = Fixtures.richScene
    for index in 0..<2_000 {
      let ops = generator.batch(for: state)
      let reference = JSONWriter.bytes(.array(ops.map(\.json)))
      #expect(Op.encoded(ops) == reference, "seed \(seed) (NAVD_TEST_SEED=\(seed)), batch \(index): \(ops)")
      if let applied = try? state.applying(ops) { state = applied.state }
    }
  }

  @Test("R6 a title change with fields out of name order or repeated is written as the canonical writer does")
  func unsortedFields() {
    for fields: [NavigationItemField] in [
      [.title("b"), .prompt("p")], [.title("a"), .title("b")], [.prompt(nil), .hidesBackButton(true), .title("t")], [],
    ] {
      let op = Op.updateNavigationItem("root", fields, animated: true)
      #expect(Op.encoded([op]) == JSONWriter.bytes(.array([op.json])), "\(fields)")
    }
  }

  @Test("R6 the encoded bytes of known ops do not change (stored digests from schema 2 depend on them)")
  func stableBytes() throws {
    let title = try Fixtures.op(#"{"op":"updateNavigationItem","item":"root","set":{"title":"Bench"}}"#)
    #expect(
      String(decoding: Op.encoded([title, .pop(expectTop: "b", animated: true)]), as: UTF8.self)
        == #"[{"animated":false,"item":"root","op":"updateNavigationItem","set":{"title":"Bench"}},"#
        + #"{"animated":true,"expectTop":"b","op":"pop"}]"#)
  }
}
