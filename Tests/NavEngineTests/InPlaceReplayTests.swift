import NavModel
import NavTestSupport
import Testing

@testable import NavEngine

/// The op log's fast paths against the simple ones they replace: folding and
/// rebuilding replay in place (`SceneState.replay`) rather than through
/// `applying`, and an entry shares the previous stack's ids when no op
/// changes the stack (`Op.changesStack`) rather than building them anew.
@Suite("OpLog in-place replay and shared stacks")
struct InPlaceReplayTests {
  @Test("Replaying in place gives the state applying gives, and leaves other holders of the state as they were")
  func replayMatchesApplying() throws {
    let seed = SplitMix64.testSeed(default: 20_261_130)
    var random = RandomMutations(seed: seed)
    var state = SceneState.empty
    var committed = 0
    for _ in 0..<3000 {
      let ops = random.ops(seeing: state)
      guard let applied = try? state.applying(ops) else { continue }
      let before = state
      var replayed = state  // shares its arrays with `before`: replay must copy what it changes
      try replayed.replay(ops)
      #expect(replayed == applied.state, "seed \(seed): replaying \(ops) in place differs from applying them")
      #expect(before == state, "seed \(seed): replaying in place changed a state that shared its storage")
      state = applied.state
      committed += 1
    }
    #expect(committed >= 1000, "seed \(seed): only \(committed) of 3000 random mutations applied")
  }

  @Test("An entry's stack is the stack after its ops, whether built or shared (CONFLICTS.md S2)")
  func sharedStackMatchesBuilt() throws {
    let seed = SplitMix64.testSeed(default: 20_261_131)
    var random = RandomMutations(seed: seed)
    var state = SceneState.empty
    var stack: [String] = []
    var log = OpLog(capacity: 64, byteLimit: .max, version: 0, state: state)
    var version: UInt64 = 0
    for _ in 0..<3000 {
      let ops = random.ops(seeing: state)
      guard let applied = try? state.applying(ops) else { continue }
      version += 1
      let entry = LogEntry(
        version: version, client: "c", mutationId: nil, ops: ops, opsBytes: 10, applied: applied, previousStack: stack)
      let built = applied.state.navigationBar.items.map(\.id)
      #expect(entry.stack == built, "seed \(seed): version \(version) (\(ops)) kept stack \(entry.stack), not \(built)")
      var accesses = FieldAccesses()  // the simple way: every op's accesses, concatenated
      for op in ops {
        accesses.writes += op.fieldAccesses.writes
        accesses.edits += op.fieldAccesses.edits
        accesses.creations += op.fieldAccesses.creations
      }
      #expect(entry.accesses == accesses, "seed \(seed): version \(version) (\(ops))")
      log.append(entry)
      state = applied.state
      stack = entry.stack
    }
    // The log folded thousands of entries in place; every version it holds rebuilds exactly.
    #expect(log.floorVersion > 0, "seed \(seed)")
    #expect(log.state(at: version) == state, "seed \(seed): the log's newest state differs from the applied one")
    #expect(log.stack(at: version) == stack, "seed \(seed)")
  }
}
