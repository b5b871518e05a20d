import NavModel
import NavTestSupport
import Testing

/// SEMANTICS R5 and R12: an array of bar button items and a stack name each id once. Short
/// lists are checked by comparing each id with the ones before it, long ones through a set
/// (`RepeatCheck`, 16 ids the boundary); seeded lists of every length up to the limits check
/// that both report the first id met twice, at its index, as a set would.
@Suite("Repeated ids in toolbars and stacks")
struct RepeatedIdTests {
  /// A scene defining `count` bar button items `i0`, `i1`, ….
  static func scene(items count: Int) -> SceneState {
    SceneState(barButtonItems: BarButtonItemRegistry((0..<count).map { BarButtonItem(id: "i\($0)", title: "\($0)") }))
  }

  /// Ids drawn from a pool small enough that some lists repeat one and others do not.
  static func ids(_ count: Int, _ random: inout SplitMix64) -> [String] {
    let pool = count + random.int(0...count)
    var ids: [String] = []
    while ids.count < count {
      let id = "i\(random.below(pool))"
      if !ids.contains(id) || random.chance(30) { ids.append(id) }
    }
    return ids
  }

  /// Where a set finds the first repeat: the reference.
  static func firstRepeat(_ ids: [String]) -> Int? {
    var seen = Set<String>()
    return ids.indices.first { !seen.insert(ids[$0]).inserted }
  }

  @Test("setToolbarItems: the first repeated id is the one reported, for every length up to itemsPerArray")
  func toolbarArrays() {
    let seed = SplitMix64.testSeed(default: 0x2026_1203)
    print("RepeatedIdTests.toolbarArrays: seed \(seed) (NAVD_TEST_SEED to replay)")
    var random = SplitMix64(seed: seed)
    let limit = ModelLimits.default.itemsPerArray
    let state = Self.scene(items: 2 * limit)
    for count in 1...limit {
      for _ in 0..<8 {
        let ids = Self.ids(count, &random)
        if let index = Self.firstRepeat(ids) {
          let error = expectFailure(
            state, [.setToolbarItems(ids, animated: false)], .duplicateItem, field: "ops[0].items[\(index)]")
          #expect(error?.value == ids[index], "\(ids)")
        } else {
          #expect(throws: Never.self, "\(ids)") { try state.applying(.setToolbarItems(ids, animated: false)) }
        }
      }
    }
  }

  @Test("setStack: the first repeated id is the one reported, for every depth up to stackDepth")
  func stacks() {
    let seed = SplitMix64.testSeed(default: 0x2026_1204)
    print("RepeatedIdTests.stacks: seed \(seed) (NAVD_TEST_SEED to replay)")
    var random = SplitMix64(seed: seed)
    for count in 1...ModelLimits.default.stackDepth {
      for _ in 0..<4 {
        let ids = Self.ids(count, &random)
        let items = ids.map { NavigationItem(id: $0) }
        if let index = Self.firstRepeat(ids) {
          let error = expectFailure(
            SceneState(), [.setStack(items, animated: false)], .duplicateItem, field: "ops[0].items[\(index)].id")
          #expect(error?.value == ids[index], "\(ids)")
        } else {
          #expect(throws: Never.self, "\(ids)") { try SceneState().applying(.setStack(items, animated: false)) }
        }
      }
    }
  }
}
