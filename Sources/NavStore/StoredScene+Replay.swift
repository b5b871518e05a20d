import NavEngine
import NavModel

extension StoredScene {
  /// The scene's state at its newest version: the snapshot with every log entry applied.
  ///
  /// A log entry that no longer applies (a damaged or hand-edited file) stops the replay:
  /// the error names it, and `partial` holds the state and version reached before it.
  public func replayed(limits: ModelLimits = .default) -> (
    state: SceneState, version: UInt64, failure: StoreError?
  ) {
    var state = snapshot
    var version = snapshotVersion
    for entry in log {
      do {
        state = try state.applying(entry.ops, limits: limits).state
        version = entry.version
      } catch {
        return (
          state, version,
          StoreError(
            .corrupt,
            "scene \"\(name)\": version \(entry.version) does not apply to version \(version): \(error.message)")
        )
      }
    }
    return (state, version, nil)
  }
}
