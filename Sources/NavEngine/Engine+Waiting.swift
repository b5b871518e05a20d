import NavModel

/// Subscribing to a scene that may not exist yet (`Subscribe` with
/// `waitForScene`, PROTOCOL.md §9.21).
///
/// A waiting subscriber follows the slot's `SceneEngine` — empty, at version
/// 0, in the epoch its first version will have — which is the engine the
/// first committed mutation installs into, so the subscriber's next frame
/// is the update from version 0 to 1. Waiting creates no scene: `scene(_:)`,
/// `sceneNames` and the `maxScenes` count do not see the slot, and a failed
/// mutation to it changes nothing a waiter can see. The slot lives while a
/// waiter or a creating mutation holds it.
extension Engine {
  /// Subscribes to the scene `name`, waiting for it when it does not exist:
  /// then the first frame is the snapshot of the empty document at version 0.
  ///
  /// Throws `SceneNotFound` for a name no mutation could create, and
  /// `LimitExceeded` (`maxWaitedScenes`) when that many other names are
  /// already waited for; the subscriber's other errors are `SceneEngine.subscribe`'s.
  public func subscribe(
    waitingFor name: String, _ subscriber: Subscriber, view: DocumentView, sinceVersion: UInt64?,
    epoch: String? = nil
  ) async throws(NavError) {
    do {
      try Validation(limits: configuration.limits).id(name, field: "scene")
    } catch {
      throw NavError(
        .sceneNotFound, "no scene \"\(name)\", and no mutation can create one by that name: \(error.message)",
        field: "scene", value: name)
    }
    let (scene, waits) = try wait(for: name)
    do {
      try await scene.subscribe(subscriber, view: view, sinceVersion: sinceVersion, epoch: epoch)
    } catch {
      if waits { stopWaiting(for: name, scene) }
      throw error
    }
    if waits {
      subscriber.addCancelHook { [weak self] in self?.stopWaiting(for: name, scene) }
    }
  }

  /// The scene's engine, and whether the caller now waits for it (it did not exist).
  private func wait(for name: String) throws(NavError) -> (SceneEngine, waits: Bool) {
    let result: Result<(SceneEngine, Bool), NavError> = slots.withLock { slots in
      let existing = slots[name]
      if let existing, existing.exists { return .success((existing.scene, false)) }
      if existing?.isWaited != true {
        let waited = slots.values.count(where: \.isWaited)
        guard waited < configuration.maxWaitedScenes else {
          return .failure(
            NavError(
              .limitExceeded, "subscribers already wait for \(waited) scenes that do not exist", field: "scene",
              value: name, limit: "maxWaitedScenes", max: configuration.maxWaitedScenes))
        }
      }
      var slot = existing ?? Slot(scene: newScene(name), exists: false)
      slot.waiting += 1
      slots[name] = slot
      return .success((slot.scene, true))
    }
    return try result.get()
  }

  /// A waiter left: the slot goes when nothing holds it any more.
  private func stopWaiting(for name: String, _ scene: SceneEngine) {
    slots.withLock { slots in
      guard var slot = slots[name], slot.scene === scene else {
        preconditionFailure("engine: the slot of scene \"\(name)\" left the registry while a subscriber waited for it")
      }
      slot.waiting -= 1
      slots[name] = slot.isHeld ? slot : nil
    }
  }

  /// Scenes that subscribers wait for and that do not exist yet (statistics: `GetServerInfo`'s subscribers).
  public var waitedScenes: [SceneEngine] { slots.withLock { $0.values.filter(\.isWaited).map(\.scene) } }
}
