import NavModel
import NavTestSupport
import Testing

/// `Op.encoded` writes every op kind straight into bytes (`SortedJSONWriter`, keys in order)
/// instead of building a JSON value and sorting it; its bytes are persisted (log rows) and
/// digested (mutation ids, STORAGE.md §3), so they must stay exactly the reference's
/// (`JSONWriter` over `json`, keys sorted), and they must read back as the same value.
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

  @Test("R6 set fields out of name order or repeated are written as the canonical writer does (the last one wins)")
  func unsortedFields() {
    for fields: [NavigationItemField] in [
      [.title("b"), .prompt("p")], [.title("a"), .title("b")], [.prompt(nil), .hidesBackButton(true), .title("t")], [],
    ] {
      let op = Op.updateNavigationItem("root", fields, animated: true)
      #expect(Op.encoded([op]) == JSONWriter.bytes(.array([op.json])), "\(fields)")
    }
    for fields: [BarButtonItemField] in [[.width(3), .action("a"), .width(nil)], [.title("x"), .enabled(false)]] {
      let op = Op.updateBarButtonItem("k", fields)
      #expect(Op.encoded([op]) == JSONWriter.bytes(.array([op.json])), "\(fields)")
    }
    let image = ImageRef(name: "bg", opaque: false, width: nil, height: 4)
    for fields: [AppearanceField] in [
      [.translucent(true), .backgroundImage(image, position: .top, metrics: .compact), .barStyle(nil)],
      [.tintColor(nil), .backgroundImage(nil, position: .any, metrics: .default), .tintColor(nil), .translucent(nil)],
    ] {
      let op = Op.updateAppearance(.navigationBar, fields)
      #expect(Op.encoded([op]) == JSONWriter.bytes(.array([op.json])), "\(fields)")
    }
  }

  @Test(
    "R6 one writer: 2,000 random batches of every op kind, set fields shuffled and repeated, equal the sorted-key reference and read back (JSONDocument) as the same value"
  )
  func randomBatchesReadBack() throws {
    let seed = SplitMix64.testSeed(default: 0x6F6E_6577_7269_7465)
    var generator = OpGenerator(rng: SplitMix64(seed: seed))
    var state = Fixtures.richScene
    for index in 0..<2_000 {
      let ops = generator.batch(for: state).map { Self.disordered($0, rng: &generator.rng) }
      let context = "seed \(seed) (NAVD_TEST_SEED=\(seed)), batch \(index): \(ops)"
      let bytes = Op.encoded(ops)
      #expect(bytes == JSONWriter.bytes(.array(ops.map(\.json))), "\(context)")
      let document = try JSONDocument(parsing: bytes)
      if generator.inexact.isEmpty {
        #expect(document.value(document.root) == .array(ops.map(\.json)), "\(context)")
      }
      if generator.inexact.isEmpty, let read = try? Op.list(in: document, at: document.root) {
        #expect(Op.encoded(read) == bytes, "\(context)")
      }
      if let applied = try? state.applying(ops) { state = applied.state }
    }
  }

  /// The op with its `set` fields shuffled and, at times, one of them given again first
  /// (so the later one must win).
  static func disordered(_ op: Op, rng: inout SplitMix64) -> Op {
    func shuffled<Field>(_ fields: [Field]) -> [Field] {
      var fields = fields.shuffled(using: &rng)
      if let again = fields.last, rng.chance(30) { fields.insert(again, at: 0) }
      return fields
    }
    switch op {
    case .updateNavigationItem(let id, let fields, let animated):
      return .updateNavigationItem(id, shuffled(fields), animated: animated)
    case .updateBarButtonItem(let id, let fields): return .updateBarButtonItem(id, shuffled(fields))
    case .updateAppearance(let target, let fields): return .updateAppearance(target, shuffled(fields))
    default: return op
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
