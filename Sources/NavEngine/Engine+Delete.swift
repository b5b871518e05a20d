import NavModel

/// Deleting a scene (`DeleteScene`, PROTOCOL.md §3): its history ends durably and its
/// slot goes, so the name no longer counts toward `maxScenes` or its creator's quota, and
/// its engine (state, op log, remembered ids) is released. A later mutation to the name
/// creates a new scene at version 0 in a new epoch. `main` always exists: deleting it
/// leaves an empty `main` in a new epoch.
extension Engine {
  /// Deletes the scene `name` (`SceneEngine.delete`): `SceneNotFound` when it does not
  /// exist, `Conflict` when `ifVersion` is not its version, `StorageFailed` when the store
  /// refuses; each leaves everything as it was.
  public func deleteScene(_ name: String, ifVersion: UInt64?) async -> Result<SceneEngine.Deletion, NavError> {
    let scene: SceneEngine
    do {
      scene = try self.scene(name)
    } catch {
      return .failure(error)
    }
    let result = await scene.delete(ifVersion: ifVersion)
    guard case .success(let deletion) = result else { return result }
    retired.withLock { $0.add(deletion.counters) }
    slots.withLock { slots in
      // Mutations and waiters still holding the old slot find it gone, or another scene's
      // (`created`, `stopWaiting`), and leave it alone.
      guard slots[name]?.scene === scene else { return }
      slots[name] = name == Self.mainScene ? Slot(scene: newScene(name), exists: true) : nil
    }
    return result
  }
}
