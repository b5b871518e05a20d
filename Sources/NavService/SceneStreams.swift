import NavEngine
import NavModel
import NavWire
import Synchronization

/// Every open stream (`Subscribe`, waiting or not, and `WatchActions`) by its subscriber's
/// id, so a deleted scene's streams can be ended (PROTOCOL.md §3 DeleteScene): the scene
/// says which subscribers it fed (`SceneEngine.Deletion.streams`), and each gets what was
/// queued for it, then `io.navd.SceneDeleted`.
///
/// A stream is kept from before its call reaches the scene until it ends, so one that
/// subscribed just before the deletion is found here whatever order the tasks run in.
/// Thread-safe: streams start and end on the loop, deletions finish on the scene's executor.
final class SceneStreams: Sendable {
  private let sources = Mutex<[UInt64: SubscriberSource]>([:])

  /// Keeps `source` until it ends.
  func register(_ source: SubscriberSource) {
    let id = source.subscriber.id
    sources.withLock { $0[id] = source }
    source.onEnd { [weak self] in self?.forget(id) }
  }

  /// Forgets a stream whose call failed before it started.
  func forget(_ id: UInt64) {
    _ = sources.withLock { $0.removeValue(forKey: id) }
  }

  /// Ends the streams of a deleted scene, each with `SceneDeleted` after what it holds.
  func end(_ deletion: SceneEngine.Deletion, scene: String) {
    let ended = sources.withLock { sources in deletion.streams.compactMap { sources[$0] } }
    let error = SceneDeletedError(scene: scene, version: deletion.version)
    let frame = error.replyFrame
    for source in ended { source.finish(with: frame) }
  }

  /// Streams kept (tests).
  var count: Int { sources.withLock { $0.count } }
}
