import NavModel

/// A scene's document as it changes: a snapshot, then one element per update (a committed
/// version, or the event-free versions of one commit group together: PROTOCOL §6 "Gap-free").
///
/// Each iteration opens its own subscription (its own connection). The iterator keeps the
/// current document, applies every patch, and checks version continuity; on a gap or a patch
/// that does not apply it resubscribes for a fresh snapshot and yields that. When navd goes
/// away it reconnects with jittered exponential backoff (50 ms doubling to 2 s) and resumes
/// with `sinceVersion` at its current version, so no version is skipped or repeated. If navd
/// cannot be reached at all on the first attempt, `next()` throws `.unreachable`.
/// Cancelling the consuming task, or leaving the loop, closes the connection.
public struct DocumentUpdates: AsyncSequence, Sendable {
  /// Each element is the document after one step.
  public typealias Element = DocumentUpdate

  let tracker: DocumentTracker
  let socketPath: String
  let connectTimeout: Duration?
  let backoff: Backoff.Configuration
  let follow: FollowPolicy
  var connectionObserver: StreamConnectionObserver? = nil

  /// The same updates, telling `observer` whenever the connection is lost (`.reconnecting`)
  /// and once it is open again (`.connected`), so a front end can show that it is not live.
  ///
  /// The first `.connected` comes when the first connection opens; after that only changes are
  /// reported. The observer runs on the iterating task, between `next()` calls' IO: keep it short.
  public func reportingConnection(to observer: @escaping StreamConnectionObserver) -> DocumentUpdates {
    var copy = self
    copy.connectionObserver = observer
    return copy
  }

  /// Starts a new subscription.
  public func makeAsyncIterator() -> Iterator {
    Iterator(
      driver: StreamDriver(
        tracker, socketPath: socketPath, connectTimeout: connectTimeout, backoff: backoff,
        follow: follow, connectionObserver: connectionObserver))
  }

  /// Pulls updates from one subscription.
  public struct Iterator: AsyncIteratorProtocol {
    let driver: StreamDriver<DocumentTracker>

    /// The next update; nil after cancellation. Throws `NavClientError` (a remote error such
    /// as `io.navd.SceneNotFound`, a protocol violation, or `.unreachable` on the first connect).
    public mutating func next() async throws -> DocumentUpdate? {
      try await driver.next()
    }
  }
}
