import NavModel

/// The ops a mutating command sends, built from a snapshot of the scene's state.
///
/// Commands that default to the top item, or define an item only when it does
/// not exist yet, need the state; the builder is pure, so it can be run again
/// on fresh state after a conflict (NavClient's mutate-with-closure).
public struct MutationPlan: Sendable {
  /// Whether `build` reads the state. When false, `build(.empty)` gives the ops and no `GetState` is needed.
  public var needsState: Bool
  /// Builds the ops; errors found against the state are navd-style errors (exit 1).
  public var build: @Sendable (SceneState) throws(NavError) -> MutationBuild

  /// A plan that reads the state.
  public init(needsState: Bool, build: @escaping @Sendable (SceneState) throws(NavError) -> MutationBuild) {
    self.needsState = needsState
    self.build = build
  }

  /// A plan whose ops do not depend on the state.
  public static func fixed(_ ops: [Op]) -> MutationPlan {
    MutationPlan(needsState: false) { _ in MutationBuild(ops: ops) }
  }

  /// The ops for `state` (pass `.empty` when the scene does not exist yet: a mutation creates it, R1).
  public func ops(for state: SceneState) throws(NavError) -> MutationBuild { try build(state) }
}

/// The ops of one mutation and the ids navctl made up for the user.
public struct MutationBuild: Sendable, Hashable {
  /// Sent in one `Mutate`; empty means there is nothing to change (send nothing, exit 0).
  public var ops: [Op]
  /// Ids generated because the user gave none; printed one per line so scripts can capture them.
  public var generatedIds: [String]

  /// Ops and the ids generated for them.
  public init(ops: [Op], generatedIds: [String] = []) {
    self.ops = ops
    self.generatedIds = generatedIds
  }
}
