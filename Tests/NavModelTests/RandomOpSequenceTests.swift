import NavModel
import NavTestSupport
import Testing

/// Seeded random op sequences, valid and invalid, against the applier's promises.
///
/// Replay a failure with `NAVD_TEST_SEED=<seed> swift test --filter RandomOpSequenceTests`;
/// every failure message carries the seed, the sequence and the batch.
@Suite("Random op sequences")
struct RandomOpSequenceTests {
  static let defaultSeed: UInt64 = 0x6E61_7664_6F70_7301
  static let sequences = 2_000

  @Test("R6 R4 R5 R41 R66 random op sequences never crash; a failing batch changes nothing; valid states round-trip")
  func randomSequences() throws {
    let seed = SplitMix64.testSeed(default: Self.defaultSeed)
    var generator = OpGenerator(rng: SplitMix64(seed: seed))
    var tally = (batches: 0, succeeded: 0, failed: 0, ops: 0)
    var codes: [NavError.Code: Int] = [:]
    var stopped = false
    sequences: for sequence in 0..<Self.sequences {
      var state = generator.rng.pick([SceneState.empty, Fixtures.scene, Fixtures.scene, Fixtures.richScene])
      for batch in 0..<(1 + generator.rng.below(5)) {
        let context = "seed \(seed) (NAVD_TEST_SEED=\(seed)), sequence \(sequence), batch \(batch)"
        let ops = generator.batch(for: state)
        tally.batches += 1
        tally.ops += ops.count
        guard checkWireForm(ops, generator: generator, context: context) else {
          stopped = true
          break sequences
        }
        do {
          let result = try state.applying(ops)
          tally.succeeded += 1
          guard check(result.state, after: ops, context: context) else {
            stopped = true
            break sequences
          }
          state = result.state
        } catch {
          tally.failed += 1
          codes[error.code, default: 0] += 1
          guard checkFailure(error, of: ops, on: state, context: context) else {
            stopped = true
            break sequences
          }
        }
      }
    }
    // After the first broken promise the run stops (one clear failure, not thousands);
    // the statistics below only mean something for a full run.
    guard !stopped else { return }
    // The generator must reach both outcomes and a spread of errors, or the test proves little.
    #expect(tally.succeeded > tally.batches / 4, "\(tally)")
    #expect(tally.failed > tally.batches / 10, "\(tally)")
    let expectedCodes: [NavError.Code] = [
      .invalidMutation, .itemNotFound, .duplicateItem, .itemAlreadyOnStack, .cannotPopRoot, .limitExceeded, .conflict,
    ]
    for code in expectedCodes { #expect(codes[code, default: 0] > 0, "no \(code) in \(codes)") }
  }

  /// The ops read back from their wire form (value and bytes), unless the generator made a
  /// value JSON cannot carry exactly (NaN, a tag beyond 2^53).
  func checkWireForm(_ ops: [Op], generator: OpGenerator, context: String) -> Bool {
    var ok = true
    for (i, op) in ops.enumerated() where op == op && !generator.inexact.contains(i) {
      do {
        let decoded = try Op(json: op.json, path: "ops[\(i)]")
        let reparsed = try Op(json: try JSONParser.parse(JSONWriter.string(op.json)), path: "ops[\(i)]")
        if decoded != op || reparsed != op {
          Issue.record("\(context): op \(i) does not survive its wire form:\n\(op)\n\(decoded)")
          ok = false
        }
      } catch {
        Issue.record("\(context): op \(i) wire form does not decode: \(error)\n\(op)")
        ok = false
      }
    }
    return ok
  }

  /// A successful batch leaves a state that keeps every invariant and round-trips exactly.
  func check(_ state: SceneState, after ops: [Op], context: String) -> Bool {
    let problems = Self.invariantViolations(state)
    if !problems.isEmpty {
      Issue.record("\(context): state breaks invariants after \(ops): \(problems)")
      return false
    }
    do {
      let decoded = try SceneState(json: state.json)
      if decoded != state {
        Issue.record("\(context): JSON round trip changed the state after \(ops)")
        return false
      }
      let bytes = JSONWriter.string(state.json)
      if try SceneState(json: try JSONParser.parse(bytes)) != state {
        Issue.record("\(context): byte round trip changed the state after \(ops)")
        return false
      }
    } catch {
      Issue.record("\(context): state does not decode after \(ops): \(error)")
      return false
    }
    return true
  }

  /// A failing batch fails at op k because ops 0..<k succeed and op k alone fails the same way on their result.
  func checkFailure(_ error: NavError, of ops: [Op], on state: SceneState, context: String) -> Bool {
    guard let k = error.opIndex else {
      // Only the batch as a whole may fail without an op index: no ops, or too many.
      let wholeBatch = error.field == "ops" && (ops.isEmpty || ops.count > ModelLimits.default.opsPerMutation)
      if !wholeBatch { Issue.record("\(context): error without opIndex: \(error)") }
      return wholeBatch
    }
    guard ops.indices.contains(k) else {
      Issue.record("\(context): opIndex \(k) outside a batch of \(ops.count): \(error)")
      return false
    }
    do {
      let intermediate = k == 0 ? state : try state.applying(Array(ops[..<k])).state
      do {
        _ = try intermediate.applying(ops[k])
        Issue.record("\(context): op \(k) failed in the batch (\(error)) but succeeds alone: \(ops[k])")
        return false
      } catch let alone {
        let sameField = alone.field == error.field?.replacingOccurrences(of: "ops[\(k)]", with: "ops[0]")
        if alone.code != error.code || !sameField {
          Issue.record("\(context): op \(k) fails differently alone: \(alone) vs \(error)")
          return false
        }
      }
    } catch {
      Issue.record("\(context): the ops before failing op index \(error.opIndex ?? -1) fail on their own: \(error)")
      return false
    }
    return true
  }

  /// Every rule a reachable state must keep (R3, R4, R5, R41, R51, R66).
  static func invariantViolations(_ state: SceneState) -> [String] {
    var problems: [String] = []
    let limits = ModelLimits.default
    let registry = state.barButtonItems
    let stackIDs = state.navigationBar.items.map(\.id)
    if Set(stackIDs).count != stackIDs.count { problems.append("R3 duplicate stack ids \(stackIDs)") }
    if stackIDs.count > limits.stackDepth { problems.append("R66 stack depth \(stackIDs.count)") }
    if registry.count > limits.barButtonItemsPerScene { problems.append("R66 \(registry.count) items") }
    if Set(registry.items.map(\.id)).count != registry.count { problems.append("R3 duplicate item ids") }
    func checkArray(_ ids: [String], _ name: String) {
      if Set(ids).count != ids.count { problems.append("R5 \(name) repeats an id: \(ids)") }
      if ids.count > limits.itemsPerArray { problems.append("R66 \(name) has \(ids.count) ids") }
      for id in ids where !registry.contains(id) { problems.append("R4 \(name) names missing \(id)") }
    }
    for item in state.navigationBar.items {
      checkArray(item.leftBarButtonItems, "\(item.id).left")
      checkArray(item.rightBarButtonItems, "\(item.id).right")
      if !Set(item.leftBarButtonItems).isDisjoint(with: item.rightBarButtonItems) {
        problems.append("R5 \(item.id) both sides")
      }
      if let back = item.backBarButtonItem, !registry.contains(back) {
        problems.append("R4 \(item.id).back names missing \(back)")
      }
    }
    checkArray(state.toolbar.items, "toolbar")
    for item in registry.items {
      if item.systemItem != nil, item.title != nil || item.image != nil || item.customView != nil {
        problems.append("R41 system item \(item.id) has a title, image or custom view")
      }
      if item.possibleTitles.count > limits.possibleTitles { problems.append("R66 \(item.id) possibleTitles") }
    }
    for appearance in [
      state.navigationBar.appearance, state.toolbar.appearance, state.appearanceDefaults.navigationBar,
      state.appearanceDefaults.toolbar,
    ] {
      var sorted = appearance
      sorted.backgroundImages = []
      for entry in appearance.backgroundImages {
        sorted.setBackgroundImage(entry.image, position: entry.position, metrics: entry.metrics)
      }
      if sorted.backgroundImages != appearance.backgroundImages {
        problems.append("R51 background images not one per pair, in order")
      }
    }
    return problems
  }
}
