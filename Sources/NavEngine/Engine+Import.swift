import NavModel

/// Importing a scene (`Import`, PROTOCOL.md §3): its whole state replaces the scene's
/// history, durably, in a new epoch; a name that is not a scene yet takes a `maxScenes` slot
/// as a mutation creating it would.
extension Engine {
  /// What an import made: the new history's epoch and version, and whether it created the scene.
  public struct ImportedScene: Sendable, Equatable {
    /// The new history's epoch.
    public var epoch: String
    /// The imported version: the scene's version from now on.
    public var version: UInt64
    /// Whether the scene did not exist before.
    public var created: Bool
  }

  /// Replaces the scene `name` by `state` at `version` in a new epoch (creating it when it
  /// does not exist), once the store has it (`SceneEngine.replace`); subscribers get a
  /// snapshot of it. `state` must be validated already (`SceneState.validated`). Refusals
  /// (`maxScenes`, a bad name, `StorageFailed`) change nothing.
  public func importScene(_ name: String, state: SceneState, version: UInt64, requester: SceneRequester? = nil) async
    -> Result<ImportedScene, NavError>
  {
    let entered: (scene: SceneEngine, creating: Bool)
    do {
      entered = try enter(name, requester: requester)
    } catch {
      return .failure(error)
    }
    let old = entered.scene
    let epoch = SceneEngine.newEpoch()
    let replacement = SceneEngine(
      name: name, state: state, version: version, epoch: epoch, snapshotStored: true, configuration: configuration,
      store: store, executor: executor, now: now)
    let result = await old.replace(
      with: replacement, record: .imported(scene: name, epoch: epoch, version: version, state: state)
    ) {
      slots.withLock { slots in
        // Mutations and waiters still holding the old slot find another scene's and leave it alone.
        slots[name] = Slot(scene: replacement, exists: true, owner: slots[name]?.owner)
      }
    }
    switch result {
    case .success(let counters):
      retired.withLock { $0.add(counters) }
      return .success(ImportedScene(epoch: epoch, version: version, created: entered.creating))
    case .failure(let error):
      if entered.creating {
        slots.withLock { slots in
          guard var slot = slots[name], slot.scene === old else { return }
          slot.creating -= 1
          slots[name] = slot.isHeld ? slot : nil
        }
      }
      return .failure(error)
    }
  }
}
