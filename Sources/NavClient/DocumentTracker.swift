import NavModel
import NavWire
import Varlink

/// The client's copy of a subscribed document: applies each patch, checks that versions follow
/// on, and asks for a resync (a fresh snapshot) when they do not or a patch does not apply.
///
/// A pure state machine; `StreamDriver` does the IO.
struct DocumentTracker: StreamReducer {
  let scene: String
  let view: DocumentKind
  /// The layout metrics (SEMANTICS R7) of the layout view.
  let metrics: LayoutMetrics
  /// Subscribe with `waitForScene`: a scene that does not exist yet is followed from its empty document.
  let waitForScene: Bool
  /// The current document and its version; nil until the first snapshot (or a checkpoint).
  private(set) var current: DocumentCheckpoint?
  /// A gap or a bad patch was seen: the next opening call asks for a snapshot.
  private(set) var needsSnapshot = false
  /// How many resyncs happened (for tests and diagnostics).
  private(set) var resyncs = 0

  var reconnects: Bool { true }

  init(
    scene: String, view: DocumentKind, metrics: LayoutMetrics, since checkpoint: DocumentCheckpoint?,
    waitForScene: Bool = false
  ) {
    self.scene = scene
    self.view = view
    self.metrics = metrics
    self.waitForScene = waitForScene
    current = checkpoint
  }

  /// Subscribe, resuming from the current version unless a snapshot is needed.
  func openingCall() -> VarlinkCall {
    var call = SubscribeCall(
      scene: scene, view: view, metrics: view == .layout ? metrics : .defaults, waitForScene: waitForScene)
    if let current, !needsSnapshot {
      call.sinceVersion = current.version
      call.epoch = current.epoch
    }
    return call.varlinkCall
  }

  mutating func received(_ reply: VarlinkReply) throws(NavClientError) -> StreamStep<DocumentUpdate> {
    let frame: SubscribeFrame
    do {
      frame = try SubscribeFrame(parameters: .object(reply.parameters))
    } catch {
      throw .protocolViolation(error.description)
    }
    let step = digest(frame)
    guard case .yield(var update) = step else { return step }
    update.frame = .object(reply.parameters)
    return .yield(update)
  }

  private mutating func digest(_ frame: SubscribeFrame) -> StreamStep<DocumentUpdate> {
    switch frame {
    case .snapshot(let snapshot):
      current = DocumentCheckpoint(version: snapshot.version, document: snapshot.document, epoch: snapshot.epoch)
      needsSnapshot = false
      return .yield(
        DocumentUpdate(
          version: snapshot.version, document: snapshot.document, isSnapshot: true, epoch: snapshot.epoch))
    case .update(let update):
      return apply(update)
    case .events(let events):
      guard let current else { return .skip }
      return .yield(
        DocumentUpdate(
          version: current.version, document: current.document, events: events.events, epoch: current.epoch))
    case .unknown:
      // A kind this client does not know: a newer navd; ignore it, as Varlink clients ignore new fields.
      return .skip
    }
  }

  private mutating func apply(_ update: SubscribeFrame.Update) -> StreamStep<DocumentUpdate> {
    guard let current, !needsSnapshot, update.fromVersion == current.version, update.toVersion > update.fromVersion
    else {
      return resync()
    }
    let document: JSONValue
    do {
      document = try PatchApplier.apply(update.patch, to: current.document)
    } catch {
      return resync()
    }
    self.current = DocumentCheckpoint(version: update.toVersion, document: document, epoch: current.epoch)
    return .yield(
      DocumentUpdate(
        version: update.toVersion, document: document, patch: update.patch, events: update.events,
        animated: update.animated, isSnapshot: false, coalesced: update.coalesced, epoch: current.epoch))
  }

  private mutating func resync() -> StreamStep<DocumentUpdate> {
    needsSnapshot = true
    resyncs += 1
    return .restart
  }
}
