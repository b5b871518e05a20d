import NavModel
import NavWire

/// Subscriptions; each iteration runs on its own connection.
extension NavClient {
  /// Follows a scene's document (`Subscribe`): a snapshot, then one update per committed version.
  ///
  /// - Parameters:
  ///   - view: the state document or the resolved layout (default).
  ///   - width: for the layout view, the bar width to resolve overflow at.
  ///   - since: a document you already have (from an earlier update's `checkpoint`): navd sends
  ///     only the updates after it when its op log still holds that version, else a snapshot.
  public func updates(
    scene: String = "main", view: DocumentKind = .layout, width: Double? = nil, since: DocumentCheckpoint? = nil
  ) -> DocumentUpdates {
    updates(scene: scene, view: view, metrics: LayoutMetrics(width: width), since: since)
  }

  /// `updates(scene:view:width:since:)` with every layout metric of SEMANTICS R7
  /// (width, compact, bar positions) for the layout view.
  public func updates(
    scene: String = "main", view: DocumentKind = .layout, metrics: LayoutMetrics, since: DocumentCheckpoint? = nil
  ) -> DocumentUpdates {
    DocumentUpdates(
      tracker: DocumentTracker(scene: scene, view: view, metrics: metrics, since: since), socketPath: socketPath,
      connectTimeout: timeout, backoff: backoff)
  }

  /// Every activation of the scene's bar button items (`WatchActions`).
  public func actions(scene: String = "main") -> Activations {
    Activations(scene: scene, socketPath: socketPath, connectTimeout: timeout, backoff: backoff)
  }

  /// Makes any call with `"more": true` and yields each reply's parameters (navctl's `call --more`).
  public func replies(method: String, parameters: [String: JSONValue] = [:]) -> Replies {
    Replies(
      call: VarlinkCall(method: method, parameters: parameters, more: true), socketPath: socketPath,
      connectTimeout: timeout)
  }
}
