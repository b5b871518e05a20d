import Foundation
import NavTestSupport
import Testing

@testable import NavModel

/// A corpus of layout updates made by the incremental path (`LayoutDocument`
/// told each batch's `LayoutChange`): every op kind, at several widths, compact
/// and not, each case a layout document, the patch navd sends and the next
/// document, in the format of `Protocol/vectors/patch/` so that
/// `Tests/python/check_vectors.py` replays it with python's `jsonpatch`, an
/// implementation navd shares no code with (SEMANTICS R63).
///
/// `NAVD_LAYOUT_CORPUS=DIR swift test --filter LayoutPatchCorpusTests` writes
/// the corpus to DIR (scripts/test does, then runs the python check on it);
/// without it the cases are only checked here.
@Suite("Layout patch corpus for jsonpatch")
struct LayoutPatchCorpusTests {
  /// Fixed, not `NAVD_TEST_SEED`: the corpus is the same on every run.
  static let seed: UInt64 = 0x1A70_C0A5_0001
  static let metrics: [LayoutMetrics?] = [
    nil, LayoutMetrics(width: 320, compact: true), LayoutMetrics(width: 768),
    LayoutMetrics(width: 1024, compact: false, navigationBarPosition: .topAttached, toolbarPosition: .top),
  ]

  /// The cases, one list per metrics: (name, before, patch, after).
  static func corpus() throws -> [[PatchVectorTests.Case]] {
    var generator = LayoutOpGenerator(rng: SplitMix64(seed: seed))
    var files = metrics.map { _ in [PatchVectorTests.Case]() }
    for sequence in 0..<25 {
      var state = SceneState.empty
      var documents = metrics.map { LayoutDocument(state, metrics: $0) }
      for step in 0..<24 {
        let ops = generator.batch(in: state, count: generator.rng.chance(70) ? 1 : 3)
        guard let next = try? state.applying(ops).state else { continue }
        let change = LayoutChange(ops: ops, in: next)
        for index in metrics.indices {
          let before = documents[index].json
          let patch = documents[index].update(to: next, change: change)
          let name = "layout-\(sequence)-\(step)-" + ops.map(\.name).joined(separator: "+")
          files[index].append(
            PatchVectorTests.Case(name: name, before: before, after: documents[index].json, patch: patch))
        }
        state = next
      }
    }
    return files
  }

  /// The file name of the corpus at `metrics`.
  static func fileName(_ metrics: LayoutMetrics?) -> String {
    let description = metrics.map { $0.description.isEmpty ? "defaults" : $0.description } ?? "no-metrics"
    return "layout-" + description.map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined() + ".json"
  }

  @Test(
    "R63 R64 R65 every corpus patch turns its document into the next (written for jsonpatch with NAVD_LAYOUT_CORPUS)")
  func corpusApplies() throws {
    let files = try Self.corpus()
    var kinds: Set<String> = []
    for cases in files {
      for item in cases {
        #expect(try PatchApplier.apply(item.patch, to: item.before) == item.after, "\(item.name)")
        kinds.formUnion(item.name.split(separator: "-").last.map { $0.split(separator: "+").map(String.init) } ?? [])
      }
    }
    #expect(files.allSatisfy { $0.count > 400 }, "the corpus has too few cases: \(files.map(\.count))")
    #expect(kinds.isSuperset(of: Op.names), "the corpus misses \(Set(Op.names).subtracting(kinds).sorted())")
    guard let directory = ProcessInfo.processInfo.environment["NAVD_LAYOUT_CORPUS"], !directory.isEmpty else { return }
    let url = URL(fileURLWithPath: directory)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    for (metrics, cases) in zip(Self.metrics, files) {
      try Data(PatchVectorTests.render(cases)).write(to: url.appendingPathComponent(Self.fileName(metrics)))
    }
  }
}
