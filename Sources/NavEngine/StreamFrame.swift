import NavModel

/// One frame of a `Subscribe` or `WatchActions` stream (Protocol/PROTOCOL.md §3),
/// as the engine's values; a `StreamEncoder` puts it on the wire.
public enum StreamFrame: Sendable, Equatable {
  /// A subscriber's first frame: the view's whole document at `version`.
  case snapshot(version: UInt64, epoch: String, view: DocumentView, document: JSONValue)
  /// One version, or (`coalesced`) several a subscriber fell behind on, as a patch.
  case update(
    fromVersion: UInt64, toVersion: UInt64, patch: [PatchOperation], animated: Bool, events: [SceneEvent],
    coalesced: Bool)
  /// Events at the current version (activations), for subscribers.
  case events(version: UInt64, events: [SceneEvent])
  /// A watcher's first frame, sent once its watch is registered.
  case watching(scene: String, version: UInt64)
  /// One activation, for watchers.
  case activation(scene: String, item: String, action: String?, tag: Int, version: UInt64)
  /// `count` activations a watcher did not read in time were lost, the last at `version`.
  case dropped(scene: String, count: Int, version: UInt64)

  /// The one update that replaces everything a subscriber missed between two documents.
  static func coalesced(from: VersionedDocument, to: VersionedDocument) -> StreamFrame {
    .update(
      fromVersion: from.version, toVersion: to.version, patch: PatchBuilder.diff(from.document, to.document),
      animated: false, events: [], coalesced: true)
  }
}

/// How stream frames become bytes: the wire's business, given to each
/// `Subscriber` by the service that creates it, so the engine sends values.
///
/// The engine encodes each frame once — with the first subscriber's encoder —
/// and queues the same bytes to every subscriber of the view, so all the
/// subscribers of one engine must use encoders that give the same bytes.
public protocol StreamEncoder: Sendable {
  /// The frame's reply parameters, encoded.
  func encode(_ frame: StreamFrame) -> [UInt8]
  /// Appends one streaming reply carrying `parameters` (bytes from `encode`) to `out`.
  func frame(_ parameters: [UInt8], into out: inout [UInt8])
  /// `frame` as one streaming reply, in a buffer of its own: exactly
  /// `frame(encode(frame), into:)` on an empty buffer, which is the default.
  /// An encoder may write the parameters straight into the reply instead of
  /// copying them into it (`WireStreamEncoder` does for updates).
  func encodeFramed(_ frame: StreamFrame) -> [UInt8]
}

extension StreamEncoder {
  /// The reference: the parameters encoded, then copied into the reply.
  public func encodeFramed(_ frame: StreamFrame) -> [UInt8] {
    let parameters = encode(frame)
    var out: [UInt8] = []
    out.reserveCapacity(parameters.count + 40)
    self.frame(parameters, into: &out)
    return out
  }
}

/// A frame encoded on first use, by the encoder of the first subscriber that
/// needs it, and shared as bytes by the others.
struct SharedFrame {
  let frame: StreamFrame
  private var encoded: [UInt8]?

  init(_ frame: StreamFrame) { self.frame = frame }

  /// The frame's bytes, encoded once.
  mutating func bytes(for subscriber: Subscriber) -> [UInt8] {
    if let encoded { return encoded }
    let bytes = subscriber.encode(frame)
    encoded = bytes
    return bytes
  }
}
