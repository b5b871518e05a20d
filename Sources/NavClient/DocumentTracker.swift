import NavModel
import NavWire

/// The client's copy of a subscribed document: applies each patch, checks that versions follow
/// on, and asks for a resync (a fresh snapshot) when they do not or a patch does not apply.
///
/// A pure state machine; `StreamDriver` does the IO.
struct DocumentTracker: StreamReducer {
  let scene: String
  let view: DocumentKind
  /// The layout metrics (SEMANTICS R7) of the layout view.
  let metrics: LayoutMetrics
  /// The current document and its version; nil until the first snapshot (or a checkpoint).
  private(set) var current: DocumentCheckpoint?
  /// A gap or a bad patch was seen: the next opening call asks for a snapshot.
  private(set) var needsSnapshot = false
  /// How many resyncs happened (for tests and diagnostics).
  private(set) var resyncs = 0

  var reconnects: Bool { true }

  init(scene: String, view: DocumentKind, metrics: LayoutMetrics, since checkpoint: DocumentCheckpoint?) {
    self.scene = scene
    self.view = view
    self.metrics = metrics
    current = checkpoint
  }

  /// Subscribe, resuming from the current version unless a snapshot is needed.
  func openingCall() -> VarlinkCall {
    var parameters: [String: JSONValue] = ["scene": .string(scene), "view": .string(view.rawValue)]
    if view == .layout { parameters.merge(metrics.parameters) { _, new in new } }
    if let current, !needsSnapshot {
      parameters["sinceVersion"] = .number(Double(current.version))
      if let epoch = current.epoch { parameters["epoch"] = .string(epoch) }
    }
    return VarlinkCall(method: NavMethod.subscribe.qualifiedName, parameters: parameters, more: true)
  }

  mutating func received(_ reply: VarlinkReply) throws(NavClientError) -> StreamStep<DocumentUpdate> {
    let reader = ReplyReader(reply.parameters, context: "Subscribe reply")
    switch try reader.string("kind") {
    case "snapshot":
      let version = try reader.version("version")
      let document = try reader.value("document")
      let epoch = try reader.optionalString("epoch")
      current = DocumentCheckpoint(version: version, document: document, epoch: epoch)
      needsSnapshot = false
      return .yield(DocumentUpdate(version: version, document: document, isSnapshot: true, epoch: epoch))
    case "update":
      return try update(reader)
    case "events":
      guard let current else { return .skip }
      return .yield(
        DocumentUpdate(
          version: current.version, document: current.document, events: try reader.array("events"),
          epoch: current.epoch))
    default:
      // A kind this client does not know: a newer navd; ignore it, as Varlink clients ignore new fields.
      return .skip
    }
  }

  private mutating func update(_ reader: ReplyReader) throws(NavClientError) -> StreamStep<DocumentUpdate> {
    let fromVersion = try reader.version("fromVersion")
    let toVersion = try reader.version("toVersion")
    let patchValue = try reader.value("patch")
    let patch: [PatchOperation]
    do {
      patch = try JSONPatch.decode(patchValue)
    } catch {
      throw .protocolViolation("Subscribe reply: \"patch\": \(error.description)")
    }
    guard let current, !needsSnapshot, fromVersion == current.version, toVersion > fromVersion else {
      return resync()
    }
    let document: JSONValue
    do {
      document = try PatchApplier.apply(patch, to: current.document)
    } catch {
      return resync()
    }
    self.current = DocumentCheckpoint(version: toVersion, document: document, epoch: current.epoch)
    return .yield(
      DocumentUpdate(
        version: toVersion, document: document, patch: patch, events: try reader.array("events", default: []),
        animated: try reader.bool("animated", default: false), isSnapshot: false,
        coalesced: try reader.bool("coalesced", default: false), epoch: current.epoch))
  }

  private mutating func resync() -> StreamStep<DocumentUpdate> {
    needsSnapshot = true
    resyncs += 1
    return .restart
  }
}
