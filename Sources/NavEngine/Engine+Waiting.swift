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
  /// `requester`: whose waited-scene quota a name that does not exist counts toward (nil: exempt).
  public func subscribe(
    waitingFor name: String, _ subscriber: Subscriber, view: DocumentView, sinceVersion: UInt64?,
    epoch: String? = nil, requester: SceneRequester? = nil
  ) async throws(NavError) {
    do {
      try Validation(limits: configuration.limits).id(name, field: "scene")
    } catch {
      throw NavError(
        .sceneNotFound, "no scene \"\(name)\", and no mutation can create one by that name: \(error.message)",
        field: "scene", value: name)
    }
    let waiter = requester.flatMap { $0.exempt ? nil : $0.uid }
    let (scene, waits) = try wait(for: name, requester: requester)
    do {
      try await scene.subscribe(subscriber, view: view, sinceVersion: sinceVersion, epoch: epoch)
    } catch {
      if waits { stopWaiting(for: name, scene, waiter: waiter) }
      throw error
    }
    if waits {
      subscriber.addCancelHook { [weak self] in self?.stopWaiting(for: name, scene, waiter: waiter) }
    }
  }

  /// The scene's engine, and whether the caller now waits for it (it did not exist).
  /// A name already waited for counts again toward a uid that does not wait for it yet.
  private func wait(for name: String, requester: SceneRequester?) throws(NavError) -> (SceneEngine, waits: Bool) {
    let requester = requester ?? SceneRequester(uid: 0, exempt: true)
    let result: Result<(SceneEngine, Bool), NavError> = slots.withLock { slots in
      let existing = slots[name]
      if let existing, existing.exists { return .success((existing.scene, false)) }
      let newName = existing?.isWaited != true
      let newForUser = !requester.exempt && existing?.waiters[requester.uid] == nil
      if newName || newForUser {
        let waited = newName ? slots.values.count(where: \.isWaited) : 0
        let own = requester.exempt ? 0 : slots.values.count { $0.isWaited && $0.waiters[requester.uid] != nil }
        if let refusal = requester.refusal(
          name: name, held: waited, own: own, limit: configuration.maxWaitedScenes, limitName: "maxWaitedScenes",
          perUser: configuration.maxWaitedScenesPerUser, perUserLimitName: "waitedScenesPerUser",
          what: "waited scenes (names subscribers wait for)")
        {
          return .failure(refusal)
        }
      }
      var slot = existing ?? Slot(scene: newScene(name), exists: false)
      if !requester.exempt { slot.waiters[requester.uid, default: 0] += 1 }
      slot.waiting += 1
      slots[name] = slot
      return .success((slot.scene, true))
    }
    return try result.get()
  }

  /// A waiter left: the slot goes when nothing holds it any more.
  private func stopWaiting(for name: String, _ scene: SceneEngine, waiter: UInt32?) {
    slots.withLock { slots in
      // Gone, or another scene's: the scene was deleted meanwhile (`deleteScene`).
      guard var slot = slots[name], slot.scene === scene else { return }
      if let waiter {
        let left = slot.waiters[waiter, default: 1] - 1
        slot.waiters[waiter] = left > 0 ? left : nil
      }
      slot.waiting -= 1
      slots[name] = slot.isHeld ? slot : nil
    }
  }

  /// Scenes that subscribers wait for and that do not exist yet (statistics: `GetServerInfo`'s subscribers).
  public var waitedScenes: [SceneEngine] { slots.withLock { $0.values.filter(\.isWaited).map(\.scene) } }
}
