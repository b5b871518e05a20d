import NavModel

/// Applying one mutation inside a commit group: idempotency, conflicts, the ops.
extension SceneEngine {
  func apply(_ request: MutationRequest) -> Result<MutationOutcome, NavError> {
    var memoryKey: MutationMemory.Key?
    if let mutationId = request.mutationId {
      guard !mutationId.isEmpty else {
        return .failure(NavError(.invalidMutation, "mutationId must not be empty", field: "mutationId"))
      }
      guard mutationId.utf8.count <= 128 else {
        return .failure(
          NavError(
            .limitExceeded, "mutationId is \(mutationId.utf8.count) bytes; the limit is 128", field: "mutationId",
            value: mutationId, limit: "mutationIdBytes", max: 128))
      }
      let key = MutationMemory.Key(client: request.client, mutationId: mutationId)
      if let remembered = memory.lookup(key) {
        guard remembered.opsDigest == Self.digest(request.ops) else {
          return .failure(
            NavError(
              .invalidMutation, "mutationId \"\(mutationId)\" was already used by this client for different ops",
              field: "mutationId", value: mutationId))
        }
        var outcome = remembered.outcome
        outcome.replayed = true
        return .success(outcome)
      }
      memoryKey = key
    }
    guard !request.ops.isEmpty else {
      return .failure(NavError(.invalidMutation, "ops must hold at least one op", field: "ops"))
    }
    var overwritten: [Overwrite] = []
    var expired = false
    if let base = request.baseVersion {
      let sameHistory = request.epoch == nil || request.epoch == epoch
      guard base <= version || !sameHistory else {
        return .failure(
          NavError(
            .invalidMutation, "baseVersion \(base) is newer than the scene's version \(version)", field: "baseVersion",
            value: "\(base)", extra: ["currentVersion": .number(Double(version))]))
      }
      if base < version || !sameHistory {
        if sameHistory, let baseStack = log.stack(at: base) {
          if let error = stackIntentConflict(request.ops, baseStack: baseStack) { return .failure(error) }
          switch fieldConflicts(request, since: base) {
          case .failure(let error): return .failure(error)
          case .success(let found): overwritten = found
          }
        } else if request.policy == .failOnConflict {
          return .failure(
            NavError(
              .conflict,
              sameHistory
                ? "baseVersion \(base) is older than the op log (oldest version held: \(log.floorVersion)); conflicts cannot be judged"
                : "baseVersion \(base) belongs to epoch \(request.epoch ?? "") but the scene is at epoch \(epoch) (navd restarted without it); conflicts cannot be judged",
              field: "baseVersion", value: "\(base)", extra: conflictExtra([])))
        } else {
          expired = true
        }
      }
    }
    let applied: AppliedMutation
    do {
      applied = try state.applying(request.ops, limits: configuration.limits)
    } catch {
      return .failure(error)
    }
    version += 1
    state = applied.state
    var accesses = FieldAccesses()
    for op in request.ops {
      let a = op.fieldAccesses
      accesses.writes += a.writes
      accesses.edits += a.edits
      accesses.creations += a.creations
    }
    log.append(
      LogEntry(
        version: version, client: request.client, mutationId: request.mutationId, ops: request.ops,
        accesses: accesses, stack: state.navigationBar.items.map(\.id), events: applied.events,
        animated: applied.animated))
    let outcome = MutationOutcome(
      version: version, overwritten: overwritten, baseVersionExpired: expired, replayed: false)
    if let memoryKey {
      memory.remember(memoryKey, MutationMemory.Entry(opsDigest: Self.digest(request.ops), outcome: outcome))
    }
    return .success(outcome)
  }

  /// A digest of the ops' wire form that is stable across processes (FNV-1a 64),
  /// so a retry after a restart is recognised once ids are persisted.
  static func digest(_ ops: [Op]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in JSONWriter.bytes(.array(ops.map(\.json))) {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
    return hash
  }

  /// The current version and values of `keys`, for a Conflict error's parameters.
  func conflictExtra(_ conflicts: [(FieldKey, UInt64)]) -> [String: JSONValue] {
    [
      "currentVersion": .number(Double(version)),
      "conflicts": .array(
        conflicts.map { key, writtenAt in
          [
            "field": .string(key.description), "currentValue": key.value(in: state),
            "version": .number(Double(writtenAt)),
          ]
        }),
    ]
  }
}
