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

  /// Starts a new subscription.
  public func makeAsyncIterator() -> Iterator {
    Iterator(
      driver: StreamDriver(tracker, socketPath: socketPath, connectTimeout: connectTimeout, backoff: backoff))
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
