import NavModel

/// One step of a subscription: the document after it, and what changed.
///
/// `document` is always complete — the client applied `patch` to the previous document — so a
/// consumer may ignore patches and redraw, or use them to animate.
public struct DocumentUpdate: Sendable, Hashable {
  /// The scene version `document` is at.
  public var version: UInt64
  /// The whole document at `version`.
  public var document: JSONValue
  /// RFC 6902 patch from the previous update's document to this one (empty for snapshots and events).
  public var patch: [PatchOperation]
  /// Events of this step (pushed, popped, activated, …) as navd sent them.
  public var events: [JSONValue]
  /// Whether front ends should animate the change.
  public var animated: Bool
  /// The document was replaced wholesale: the first reply, or a resync after a gap or a reconnect
  /// whose `sinceVersion` navd no longer held. `patch` is empty; diff against your own copy if needed.
  public var isSnapshot: Bool
  /// navd merged several versions into this one update because the subscriber fell behind.
  public var coalesced: Bool
  /// The history `version` belongs to (from the last snapshot); nil when navd did not say.
  public var epoch: String?
  /// The `Subscribe` reply this step came from, as navd sent it (`navctl watch --json` prints it);
  /// `.null` for updates made in tests. Not part of equality: two updates that say the same are
  /// equal however navd phrased them.
  public var frame: JSONValue = .null

  /// Creates an update (tests, fakes).
  public init(
    version: UInt64, document: JSONValue, patch: [PatchOperation] = [], events: [JSONValue] = [],
    animated: Bool = false, isSnapshot: Bool = false, coalesced: Bool = false, epoch: String? = nil
  ) {
    self.epoch = epoch
    self.version = version
    self.document = document
    self.patch = patch
    self.events = events
    self.animated = animated
    self.isSnapshot = isSnapshot
    self.coalesced = coalesced
  }

  /// Equal when everything but `frame` is.
  public static func == (a: DocumentUpdate, b: DocumentUpdate) -> Bool {
    a.version == b.version && a.document == b.document && a.patch == b.patch && a.events == b.events
      && a.animated == b.animated && a.isSnapshot == b.isSnapshot && a.coalesced == b.coalesced
      && a.epoch == b.epoch
  }

  /// Hashes everything but `frame`, as `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(version)
    hasher.combine(document)
    hasher.combine(patch)
    hasher.combine(events)
    hasher.combine(animated)
    hasher.combine(isSnapshot)
    hasher.combine(coalesced)
    hasher.combine(epoch)
  }

  /// Where to resume a later subscription from (`updates(…, since:)`).
  public var checkpoint: DocumentCheckpoint { DocumentCheckpoint(version: version, document: document, epoch: epoch) }
}

/// A document and its version, from which a new subscription resumes with `sinceVersion`.
///
/// A version alone is not enough to resume: the patches navd sends apply to the document,
/// and the version means something only in its epoch (a navd that restarted without the
/// scene's history starts a new one, and then answers with a snapshot).
public struct DocumentCheckpoint: Sendable, Hashable {
  /// The scene version the document is at.
  public var version: UInt64
  /// The whole document at `version`.
  public var document: JSONValue
  /// The epoch `version` belongs to; nil when unknown (navd then trusts the version).
  public var epoch: String?

  /// A checkpoint of `document` at `version` (of the same scene, view and width).
  public init(version: UInt64, document: JSONValue, epoch: String? = nil) {
    self.version = version
    self.document = document
    self.epoch = epoch
  }
}
