import NavModel

/// Planning one mutation inside a commit group: idempotency, conflicts, the ops.
/// Reads the installed state, log and memory through `GroupPlan`; changes nothing installed.
extension SceneCore {
  /// Plans `request` after everything already in `plan`, appending its result.
  mutating func plan(_ request: MutationRequest, into plan: inout GroupPlan) {
    let (result, dependsOnGroup) = deleted ? (.failure(deletedWhileQueued), false) : judge(request, in: &plan)
    plan.results.append(result)
    plan.dependsOnGroup.append(dependsOnGroup)
    counters.planned(result, policy: request.policy)
  }

  /// The request's result, and whether it was judged with versions of this group in view.
  private func judge(_ request: MutationRequest, in plan: inout GroupPlan) -> (Result<MutationOutcome, NavError>, Bool)
  {
    var memoryKey: MutationMemory.Key?
    if let mutationId = request.mutationId {
      guard !mutationId.isEmpty else {
        return (.failure(NavError(.invalidMutation, "mutationId must not be empty", field: "mutationId")), false)
      }
      guard mutationId.utf8.count <= 128 else {
        return (
          .failure(
            NavError(
              .limitExceeded, "mutationId is \(mutationId.utf8.count) bytes; the limit is 128", field: "mutationId",
              value: mutationId, limit: "mutationIdBytes", max: 128)), false
        )
      }
      memoryKey = MutationMemory.Key(client: request.client, mutationId: request.scopedMutationId ?? mutationId)
    }
    // The ops' wire form, encoded once (ahead, for a large request): `EncodedOps`.
    let wire = request.encodedOps ?? EncodedOps(request.ops)
    let encoded = wire.bytes
    let digest = wire.digest
    if let key = memoryKey {
      let inGroup = plan.rememberedInGroup(key)
      if let remembered = inGroup ?? memory.lookup(key) {
        guard remembered.opsDigest == digest else {
          return (
            .failure(
              NavError(
                .invalidMutation,
                "mutationId \"\(request.mutationId ?? "")\" was already used by this client for different ops",
                field: "mutationId", value: request.mutationId ?? "")), inGroup != nil
          )
        }
        var outcome = remembered.outcome
        outcome.replayed = true
        return (.success(outcome), inGroup != nil)
      }
    }
    guard !request.ops.isEmpty else {
      return (.failure(NavError(.invalidMutation, "ops must hold at least one op", field: "ops")), false)
    }
    let dependsOnGroup = plan.hasVersions
    switch commitVersion(request, encodedOps: encoded, digest: digest, key: memoryKey, in: &plan) {
    case .success(let outcome): return (.success(outcome), true)
    case .failure(let error): return (.failure(error), dependsOnGroup)
    }
  }

  /// Judges conflicts and applies the ops on top of `plan`, adding the version on success.
  private func commitVersion(
    _ request: MutationRequest, encodedOps: [UInt8], digest: UInt64, key: MutationMemory.Key?,
    in plan: inout GroupPlan
  ) -> Result<MutationOutcome, NavError> {
    let opsBytes = encodedOps.count
    var overwritten: [Overwrite] = []
    var expired = false
    if let base = request.baseVersion {
      let sameHistory = request.epoch == nil || request.epoch == epoch
      guard base <= plan.version || !sameHistory else {
        return .failure(
          NavError(
            .invalidMutation, "baseVersion \(base) is newer than the scene's version \(plan.version)",
            field: "baseVersion", value: "\(base)", extra: ["currentVersion": .number(Double(plan.version))]))
      }
      if base < plan.version || !sameHistory {
        if sameHistory, let baseStack = plan.stack(at: base, log: log) {
          if let error = stackIntentConflict(request.ops, baseStack: baseStack, plan: plan) { return .failure(error) }
          switch fieldConflicts(request, since: base, plan: plan) {
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
              field: "baseVersion", value: "\(base)", extra: conflictExtra([], plan: plan)))
        } else {
          expired = true
        }
      }
    }
    var applied: AppliedMutation
    do {
      applied = try plan.state.applying(request.ops, limits: configuration.limits)
    } catch {
      return .failure(error)
    }
    let version = plan.version + 1
    let outcome = MutationOutcome(
      version: version, overwritten: overwritten, baseVersionExpired: expired, replayed: false)
    let entry = LogEntry(
      version: version, client: request.client, mutationId: request.scopedMutationId, ops: request.ops,
      opsBytes: opsBytes,
      applied: applied, previousStack: plan.stack)
    let snapshot = plan.snapshots.record(version: version, opsBytes: opsBytes, configuration: configuration)
    plan.versions.append(
      GroupPlan.Version(
        entry: entry, outcome: outcome, opsDigest: digest, encodedOps: encodedOps,
        snapshot: snapshot ? applied.state : nil))
    // Swapped, not assigned: the new state moves into the plan without a copy (a retain of
    // each of its arrays), and the old one is released with `applied`.
    swap(&plan.state, &applied.state)
    plan.version = version
    plan.recordBytes += opsBytes
    if let key {
      plan.remember(
        key, MutationMemory.Entry(opsDigest: digest, outcome: outcome, bytes: MutationMemory.footprint(key, outcome)))
    }
    return .success(outcome)
  }

  /// The version and values of `keys` as planned so far, for a Conflict error's parameters.
  func conflictExtra(_ conflicts: [(FieldKey, UInt64)], plan: GroupPlan) -> [String: JSONValue] {
    [
      "currentVersion": .number(Double(plan.version)),
      "conflicts": .array(
        conflicts.map { key, writtenAt in
          [
            "field": .string(key.description), "currentValue": key.value(in: plan.state),
            "version": .number(Double(writtenAt)),
          ]
        }),
    ]
  }
}

extension SceneEngine {
  /// A digest of the ops' wire form (`encoded`) that is stable across
  /// processes (FNV-1a 64), so a retry after a restart is recognised.
  static func digest(_ encoded: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in encoded { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    return hash
  }
}
