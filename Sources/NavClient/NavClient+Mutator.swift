import NavModel
import NavWire

/// The Replicache-style mutator: compute ops from the latest state, retry on conflict.
extension NavClient {
  /// Runs `body` on the scene's latest state and commits the ops it returns, re-running it on
  /// fresh state whenever another client got there first (CONFLICTS.md §8).
  ///
  /// Each attempt fetches the state (`GetState`), sends the ops with that version as
  /// `baseVersion` under `failOnConflict`, and on `io.navd.Conflict` starts over, at most
  /// `maxAttempts` times in all; then the last Conflict is thrown. Every attempt carries a
  /// fresh `mutationId` (and each is itself retried once, with that id, if the connection
  /// drops). A scene that does not exist yet is seen as the empty scene at version 0, so the
  /// first mutation creates it. `body` should be a pure function of the state: it may run
  /// several times; an error it throws ends the mutation.
  @discardableResult
  public func mutate(
    scene: String = "main", maxAttempts: Int = 5, _ body: @Sendable (SceneState) throws -> [Op]
  ) async throws -> MutationReply {
    precondition(maxAttempts >= 1, "maxAttempts must be at least 1")
    var attempt = 1
    while true {
      let (version, epoch, state) = try await latestState(scene: scene)
      let ops = try body(state)
      do {
        return try await mutate(scene: scene, ops: ops, baseVersion: version, epoch: epoch, policy: .failOnConflict)
      } catch let error as NavClientError where error.isConflict && attempt < maxAttempts {
        attempt += 1
      }
    }
  }

  private func latestState(scene: String) async throws -> (version: UInt64, epoch: String?, state: SceneState) {
    do {
      return try await stateWithEpoch(scene: scene)
    } catch let error as NavClientError where error.remoteName == NavErrorName.sceneNotFound.rawValue {
      return (0, nil, SceneState.empty)
    }
  }
}
