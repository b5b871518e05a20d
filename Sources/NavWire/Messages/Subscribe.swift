import NavModel

/// Which document a subscription or read follows (the Subscribe `view` parameter).
public enum DocumentKind: String, Sendable, Hashable, CaseIterable {
  /// The scene's raw state, as `GetState` returns it.
  case state
  /// The resolved layout a front end draws, as `GetLayout` returns it.
  case layout
}

/// `Subscribe(scene, view?, width?, compact?, navigationBarPosition?, toolbarPosition?, sinceVersion?, epoch?,
/// waitForScene?)`;
/// each reply is a `SubscribeFrame`.
public struct SubscribeCall: NavCall {
  /// Each frame of the stream.
  public typealias Reply = SubscribeFrame
  /// `Subscribe`.
  public static let method = NavMethod.subscribe

  /// The scene to follow.
  public var scene: String
  /// The document to follow (always sent).
  public var view: DocumentKind
  /// The layout view's metrics (SEMANTICS R7); not sent, and `.defaults`, for the state view.
  public var metrics: LayoutMetrics
  /// Resume after this version (of `epoch`) instead of starting with a snapshot.
  public var sinceVersion: UInt64?
  /// The epoch `sinceVersion` came from.
  public var epoch: String?
  /// A scene that does not exist yet is followed from its empty document at version 0
  /// instead of being `SceneNotFound` (PROTOCOL §9.21); sent only when true.
  public var waitForScene: Bool

  /// A call; nil fields are not sent.
  public init(
    scene: String, view: DocumentKind = .layout, metrics: LayoutMetrics = .defaults, sinceVersion: UInt64? = nil,
    epoch: String? = nil, waitForScene: Bool = false
  ) {
    self.scene = scene
    self.view = view
    self.metrics = metrics
    self.sinceVersion = sinceVersion
    self.epoch = epoch
    self.waitForScene = waitForScene
  }

  /// Reads the parameters; a layout metric with `view: "state"` is an InvalidParameter naming it.
  public init(parameters: JSONValue) throws(CallError) {
    let reader = try ParameterReader(
      parameters,
      known: ParameterReader.metricsParameters.union(["scene", "view", "sinceVersion", "epoch", "waitForScene"]))
    scene = try reader.string("scene")
    metrics = try reader.layoutMetrics()
    view = try reader.optionalEnum("view", DocumentKind.self) ?? .layout
    if view == .state {
      if let misplaced = ParameterReader.metricsParameters.sorted().first(where: { reader.parameters[$0] != nil }) {
        throw .invalid(misplaced)
      }
    }
    sinceVersion = try reader.optionalVersion("sinceVersion")
    epoch = try reader.optionalString("epoch")
    waitForScene = try reader.optionalBool("waitForScene") ?? false
  }

  /// The call's parameters.
  public var parameters: JSONValue {
    var members = view == .layout ? metrics.parameters : [:]
    members["scene"] = .string(scene)
    members["view"] = .string(view.rawValue)
    if let sinceVersion { members["sinceVersion"] = sinceVersion.json }
    if let epoch { members["epoch"] = .string(epoch) }
    if waitForScene { members["waitForScene"] = true }
    return .object(members)
  }
}

/// One reply of a `Subscribe` stream (PROTOCOL §3 Subscribe).
public enum SubscribeFrame: NavReply {
  /// The whole document: the first frame, unless the stream resumes.
  case snapshot(Snapshot)
  /// One version; several committed together without events (PROTOCOL §6 "Gap-free");
  /// or (`coalesced`) several the subscriber fell behind on.
  case update(Update)
  /// Events (activations) at the current version; the document does not change.
  case events(Events)
  /// A frame of a kind this version does not know (a newer navd); clients skip it.
  case unknown(JSONValue)

  /// `{"kind": "snapshot", "version", "epoch", "view", "document"}`.
  public struct Snapshot: Sendable, Hashable {
    /// The document's version.
    public var version: UInt64
    /// The history `version` belongs to; nil from a navd that does not say.
    public var epoch: String?
    /// The view and its metrics (PROTOCOL §9.2), e.g. `layout@320.0`.
    public var view: String?
    /// The document at `version`.
    public var document: JSONValue

    /// A snapshot.
    public init(version: UInt64, epoch: String?, view: String?, document: JSONValue) {
      self.version = version
      self.epoch = epoch
      self.view = view
      self.document = document
    }
  }

  /// `{"kind": "update", "fromVersion", "toVersion", "patch", "animated", "events", "coalesced"?}`.
  public struct Update: Sendable, Hashable {
    /// The version the patch applies to.
    public var fromVersion: UInt64
    /// The version the patch gives.
    public var toVersion: UInt64
    /// RFC 6902 patch from the document at `fromVersion` to the one at `toVersion`.
    public var patch: [PatchOperation]
    /// Whether front ends should animate the change.
    public var animated: Bool
    /// The mutation's events (push, pop, setStack).
    public var events: [JSONValue]
    /// Several versions in one, because the subscriber fell behind (their events are lost).
    public var coalesced: Bool

    /// An update.
    public init(
      fromVersion: UInt64, toVersion: UInt64, patch: [PatchOperation], animated: Bool = false, events: [JSONValue] = [],
      coalesced: Bool = false
    ) {
      self.fromVersion = fromVersion
      self.toVersion = toVersion
      self.patch = patch
      self.animated = animated
      self.events = events
      self.coalesced = coalesced
    }
  }

  /// `{"kind": "events", "version", "events"}`.
  public struct Events: Sendable, Hashable {
    /// The scene's version (unchanged by the events).
    public var version: UInt64
    /// The events (`{"type": "activate", …}`).
    public var events: [JSONValue]

    /// An events frame.
    public init(version: UInt64, events: [JSONValue]) {
      self.version = version
      self.events = events
    }
  }

  /// Reads one `Subscribe` reply.
  public init(parameters: JSONValue) throws(MalformedReply) {
    let reader = try ReplyReader(parameters, context: "Subscribe reply")
    switch SubscribeFrameKind(rawValue: try reader.string("kind")) {
    case .snapshot:
      self = .snapshot(
        Snapshot(
          version: try reader.version("version"), epoch: try reader.optionalString("epoch"),
          view: try reader.optionalString("view"), document: try reader.value("document")))
    case .update:
      let patchValue = try reader.value("patch")
      let patch: [PatchOperation]
      do {
        patch = try JSONPatch.decode(patchValue)
      } catch {
        throw MalformedReply("Subscribe reply: \"patch\": \(error.description)")
      }
      self = .update(
        Update(
          fromVersion: try reader.version("fromVersion"), toVersion: try reader.version("toVersion"), patch: patch,
          animated: try reader.bool("animated", default: false), events: try reader.array("events", default: []),
          coalesced: try reader.bool("coalesced", default: false)))
    case .events:
      self = .events(Events(version: try reader.version("version"), events: try reader.array("events")))
    case nil:
      self = .unknown(parameters)
    }
  }

  /// The frame's parameters.
  public var parameters: JSONValue {
    switch self {
    case .snapshot(let snapshot):
      var members: [String: JSONValue] = [
        "kind": .string(SubscribeFrameKind.snapshot.rawValue), "version": snapshot.version.json,
        "document": snapshot.document,
      ]
      if let epoch = snapshot.epoch { members["epoch"] = .string(epoch) }
      if let view = snapshot.view { members["view"] = .string(view) }
      return .object(members)
    case .update(let update):
      var members: [String: JSONValue] = [
        "kind": .string(SubscribeFrameKind.update.rawValue), "fromVersion": update.fromVersion.json,
        "toVersion": update.toVersion.json, "patch": JSONPatch.encode(update.patch), "animated": .bool(update.animated),
        "events": .array(update.events),
      ]
      if update.coalesced { members["coalesced"] = true }
      return .object(members)
    case .events(let events):
      return [
        "kind": .string(SubscribeFrameKind.events.rawValue), "version": events.version.json,
        "events": .array(events.events),
      ]
    case .unknown(let parameters):
      return parameters
    }
  }
}
