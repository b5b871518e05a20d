import NavModel
import NavWire
import Varlink

/// Subscriptions; each iteration runs on its own connection.
extension NavClient {
  /// Follows a scene's document (`Subscribe`): a snapshot, then one update per committed version
  /// (the event-free versions of one commit group come as one update: PROTOCOL §6 "Gap-free").
  ///
  /// - Parameters:
  ///   - view: the state document or the resolved layout (default).
  ///   - width: for the layout view, the bar width to resolve overflow at.
  ///   - since: a document you already have (from an earlier update's `checkpoint`): navd sends
  ///     only the updates after it when its op log still holds that version, else a snapshot.
  ///   - waitForScene: when the scene does not exist yet, start with its empty document at
  ///     version 0 and follow it once a mutation creates it (PROTOCOL.md §9.21), instead of
  ///     throwing `io.navd.SceneNotFound`. Off by default, so a mistyped scene name fails at
  ///     once rather than showing an empty bar forever; a front end that may start before the
  ///     app that creates its scene turns it on.
  ///   - follow: whether to reconnect and resume when navd goes away, and for how long.
  public func updates(
    scene: String = "main", view: DocumentKind = .layout, width: Double? = nil, since: DocumentCheckpoint? = nil,
    waitForScene: Bool = false, follow: FollowPolicy = .forever
  ) -> DocumentUpdates {
    updates(
      scene: scene, view: view, metrics: LayoutMetrics(width: width), since: since, waitForScene: waitForScene,
      follow: follow)
  }

  /// `updates(scene:view:width:since:waitForScene:)` with every layout metric of SEMANTICS R7
  /// (width, compact, bar positions) for the layout view.
  public func updates(
    scene: String = "main", view: DocumentKind = .layout, metrics: LayoutMetrics, since: DocumentCheckpoint? = nil,
    waitForScene: Bool = false, follow: FollowPolicy = .forever
  ) -> DocumentUpdates {
    DocumentUpdates(
      tracker: DocumentTracker(
        scene: scene, view: view, metrics: metrics, since: since, waitForScene: waitForScene),
      socketPath: socketPath, connectTimeout: timeout, backoff: backoff, follow: follow)
  }

  /// Every activation of the scene's bar button items (`WatchActions`).
  public func actions(scene: String = "main", follow: FollowPolicy = .forever) -> Activations {
    Activations(scene: scene, socketPath: socketPath, connectTimeout: timeout, backoff: backoff, follow: follow)
  }

  /// Makes any call with `"more": true` and yields each reply's parameters (navctl's `call --more`).
  ///
  /// With a `follow` policy that reconnects, the same call is made again on a new connection
  /// when navd goes away (right for `WatchActions`, which has nothing to resume; a `Subscribe`
  /// made this way starts over with a snapshot: `updates` resumes instead).
  public func replies(method: String, parameters: [String: JSONValue] = [:], follow: FollowPolicy = .never)
    -> Replies
  {
    Replies(
      call: VarlinkCall(method: method, parameters: parameters, more: true), socketPath: socketPath,
      connectTimeout: timeout, backoff: backoff, follow: follow)
  }
}
