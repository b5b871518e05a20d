/// The result of applying ops: the new state and what happened.
public struct AppliedMutation: Sendable, Hashable {
  /// The scene after the ops.
  public var state: SceneState
  /// Push, pop and setStack events, in op order (R61).
  public var events: [SceneEvent]
  /// True when any op that carries the flag has it set (SEMANTICS R14).
  public var animated: Bool

  /// A result of applying ops.
  public init(state: SceneState, events: [SceneEvent], animated: Bool) {
    self.state = state
    self.events = events
    self.animated = animated
  }
}

extension SceneState {
  /// Applies a batch of ops atomically: all of them, or (on the first error) none.
  ///
  /// Pure: `self` is never changed; errors carry the failing op's index and a
  /// field path from the request root (`ops[3].item.title`).
  public func applying(_ ops: [Op], limits: ModelLimits = .default) throws(NavError) -> AppliedMutation {
    let validation = Validation(limits: limits)
    guard !ops.isEmpty else { throw NavError(.invalidMutation, "ops must hold at least one op", field: "ops") }
    try validation.count(ops.count, limit: "opsPerMutation", max: limits.opsPerMutation, field: "ops")
    // One applier for the batch: its state is a copy, so a failing op leaves `self` as it was.
    var applier = OpApplier(state: self, validation: validation)
    for (index, op) in ops.enumerated() {
      do {
        applier.opIndex = index
        try applier.apply(op)
      } catch {
        var error = error
        error.opIndex = index
        throw error
      }
    }
    return AppliedMutation(state: applier.state, events: applier.events, animated: ops.contains { $0.animated })
  }

  /// Applies ops that applied cleanly before (the op log's replay), in place: unlike
  /// `applying`, no copy is kept for atomicity, so when `self` holds its arrays alone
  /// the ones the ops change are edited, not copied. Applying ops is pure, so replaying
  /// them cannot fail; if it does, `self` may hold some of them (callers treat that as a bug).
  /// Values are not checked again (`Validation.trusting`): they met the limits when first
  /// applied, and limits lowered since must not make the log's history unreplayable.
  public mutating func replay(_ ops: [Op]) throws(NavError) {
    // Swapped in and out, never copied: the applier's state holds this state's storage alone,
    // and gives it back without a retain of each of its arrays (assigning `applier.state`
    // back copied it, and the applier's end released the copy again: once per Mutate when
    // the op log is full).
    var applier = OpApplier(state: SceneState(), validation: .trusting)
    swap(&applier.state, &self)
    defer { swap(&self, &applier.state) }
    for (index, op) in ops.enumerated() {
      applier.opIndex = index
      try applier.apply(op)
    }
  }

  /// Applies one op (see `applying(_:limits:)`).
  public func applying(_ op: Op, limits: ModelLimits = .default) throws(NavError) -> AppliedMutation {
    try applying([op], limits: limits)
  }
}
