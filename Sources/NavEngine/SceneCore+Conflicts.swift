import NavModel

/// The conflict rules of Protocol/CONFLICTS.md, judged against the op log
/// overlaid with the versions planned earlier in the same group.
extension SceneCore {
  /// Field writes: a field this mutation writes that another client wrote or
  /// edited, or whose item another client created, after `base` is a conflict. Returns what last-writer-wins overwrites,
  /// or the Conflict error under fail-on-conflict.
  func fieldConflicts(_ request: MutationRequest, since base: UInt64, plan: GroupPlan) -> Result<[Overwrite], NavError>
  {
    var lastTouch: [FieldKey: (version: UInt64, client: String)] = [:]
    var lastCreation: [FieldKey.Target: (version: UInt64, client: String)] = [:]
    plan.forEachEntry(after: base, log: log) { entry in
      guard entry.client != request.client else { return }
      for key in entry.accesses.writes { lastTouch[key] = (entry.version, entry.client) }
      for key in entry.accesses.edits { lastTouch[key] = (entry.version, entry.client) }
      for target in entry.accesses.creations { lastCreation[target] = (entry.version, entry.client) }
    }
    guard !lastTouch.isEmpty || !lastCreation.isEmpty else { return .success([]) }
    var seen = Set<FieldKey>()
    var conflicts: [(FieldKey, UInt64, String)] = []
    for op in request.ops {
      for key in op.fieldAccesses.writes where seen.insert(key).inserted {
        let touches = [lastTouch[key], lastCreation[key.target]].compactMap { $0 }
        if let latest = touches.max(by: { $0.version < $1.version }) {
          conflicts.append((key, latest.version, latest.client))
        }
      }
    }
    guard !conflicts.isEmpty else { return .success([]) }
    conflicts.sort { $0.0 < $1.0 }
    if request.policy == .failOnConflict {
      let names = conflicts.map(\.0.description).joined(separator: ", ")
      return .failure(
        NavError(
          .conflict, "changed by another client since baseVersion \(base): \(names); nothing was applied",
          field: conflicts[0].0.description, extra: conflictExtra(conflicts.map { ($0.0, $0.1) }, plan: plan)))
    }
    return .success(
      conflicts.map { key, writtenAt, writer in
        Overwrite(field: key, previousValue: key.value(in: plan.state), writtenAt: writtenAt, writtenBy: writer)
      })
  }

  /// Stack intent: pops and pops-to in a based mutation must find the screens
  /// the client saw at its base version (`baseStack`). navd never pops someone else's screen,
  /// under either policy (CONFLICTS.md, "Structure").
  func stackIntentConflict(_ ops: [Op], baseStack: [String], plan: GroupPlan) -> NavError? {
    var expected = baseStack
    var actual = plan.state.navigationBar.items.map(\.id)
    for (index, op) in ops.enumerated() {
      switch op {
      case .pop(let expectTop, _):
        if expectTop == nil, let seen = expected.last, actual.last != seen {
          let top = actual.last.map { "\"\($0)\"" } ?? "nothing"
          var error = NavError(
            .conflict,
            "pop would remove \(top), but the top was \"\(seen)\" at baseVersion; nothing was popped",
            field: "ops[\(index)]", value: seen, extra: conflictExtra([], plan: plan))
          error.opIndex = index
          return error
        }
        if !expected.isEmpty { expected.removeLast() }
        if !actual.isEmpty { actual.removeLast() }
      case .popTo(let id, _):
        if let e = expected.firstIndex(of: id), let a = actual.firstIndex(of: id) {
          if expected[(e + 1)...] != actual[(a + 1)...] {
            var error = NavError(
              .conflict,
              "popTo \"\(id)\" would remove screens pushed by another client since baseVersion; nothing was popped",
              field: "ops[\(index)]", value: id, extra: conflictExtra([], plan: plan))
            error.opIndex = index
            return error
          }
          expected.removeSubrange((e + 1)...)
          actual.removeSubrange((a + 1)...)
        }
      case .push(let item, _):
        expected.append(item.id)
        actual.append(item.id)
      case .setStack(let items, _):
        expected = items.map(\.id)
        actual = expected
      default:
        continue
      }
    }
    return nil
  }
}
