import NavModel
import NavWire

/// The io.navd methods as typed calls, on the shared pipelined connection.
extension NavClient {
  /// `GetServerInfo`: navd's version, uptime and counts.
  public func serverInfo() async throws -> ServerInfo {
    try await perform(GetServerInfoCall(), retryOnDrop: true)
  }

  /// `ListScenes`: every scene, sorted by name.
  public func scenes() async throws -> [SceneSummary] {
    try await perform(ListScenesCall(), retryOnDrop: true).scenes
  }

  /// `GetState`: the scene's state and its version. Throws `io.navd.SceneNotFound` for an unknown scene.
  public func state(scene: String = "main") async throws -> (version: UInt64, state: SceneState) {
    let (version, _, state) = try await stateWithEpoch(scene: scene)
    return (version, state)
  }

  /// `GetState` with the epoch its version belongs to (nil from a navd that does not say).
  public func stateWithEpoch(scene: String = "main") async throws -> (
    version: UInt64, epoch: String?, state: SceneState
  ) {
    let reply = try await perform(GetStateCall(scene: scene), retryOnDrop: true)
    return (reply.version, reply.epoch, reply.state)
  }

  /// `GetLayout`: the resolved layout document (what a front end draws) and its version.
  ///
  /// With `width`, items that do not fit move to the layout's overflow.
  public func layout(scene: String = "main", width: Double? = nil) async throws -> (version: UInt64, layout: JSONValue)
  {
    try await layout(scene: scene, metrics: LayoutMetrics(width: width))
  }

  /// `GetLayout` with every layout metric of SEMANTICS R7 (width, compact, bar positions).
  public func layout(scene: String = "main", metrics: LayoutMetrics) async throws -> (
    version: UInt64, layout: JSONValue
  ) {
    let reply = try await perform(GetLayoutCall(scene: scene, metrics: metrics), retryOnDrop: true)
    return (reply.version, reply.layout)
  }

  /// `Mutate`: applies `ops` atomically and returns the new version and the conflict report.
  ///
  /// Every mutation carries this client's `clientId` and a `mutationId` (a fresh random one
  /// unless given). If the connection drops before the reply, the client reconnects once and
  /// sends the same (clientId, mutationId) again: navd applies it at most once and answers a
  /// retry from memory (`replayed`). Rejections arrive as `NavClientError.remote`
  /// (`isConflict` for `io.navd.Conflict`).
  ///
  /// `epoch` is the epoch `baseVersion` came from (a `GetState` reply's); when navd is in
  /// another epoch (it restarted without the scene's history) the base counts as expired.
  public func mutate(
    scene: String = "main", ops: [Op], baseVersion: UInt64? = nil, epoch: String? = nil, mutationId: String? = nil,
    policy: MutationPolicy = .lastWriterWins
  ) async throws -> MutationReply {
    let call = MutateCall(
      scene: scene, ops: ops, baseVersion: baseVersion, epoch: epoch, mutationId: mutationId ?? Self.randomID(),
      clientId: clientId, policy: policy)
    return try await perform(call, retryOnDrop: true)
  }

  /// `DeleteScene`: deletes the scene and its whole history; the reply holds its last version
  /// and epoch. With `ifVersion`, only when the scene is at that version (else `io.navd.Conflict`).
  /// Not retried after a dropped connection: a second deletion could end a history created since.
  public func deleteScene(_ scene: String, ifVersion: UInt64? = nil) async throws -> DeletedScene {
    try await perform(DeleteSceneCall(scene: scene, ifVersion: ifVersion), retryOnDrop: false)
  }

  /// `Export`: every scene the caller may read (or the ones named), each a consistent snapshot,
  /// as the stream's frames (`ExportFrame`: a scene's header, its state's JSON text in pieces,
  /// then the end).
  public func export(scenes: [String]? = nil) -> Replies {
    Replies(
      call: ExportCall(scenes: scenes).varlinkCall, socketPath: socketPath, connectTimeout: timeout, backoff: backoff,
      follow: .never)
  }

  /// `Import`: one piece of a scene's state document (JSON text from `offset`); the call with
  /// `last` replaces the scene by the whole document at `version` in a new epoch. Not retried
  /// after a dropped connection: navd keeps the pieces per connection, so the scene starts
  /// again at offset 0.
  public func importScene(
    _ scene: String, version: UInt64, offset: Int, text: String, last: Bool
  ) async throws -> ImportReply {
    try await perform(
      ImportCall(scene: scene, version: version, offset: offset, text: text, last: last), retryOnDrop: false)
  }

  /// `Import` of a whole scene: its state document's JSON text in pieces of at most
  /// `ExportFrame.chunkBytes`, cut on character boundaries; the last reply (epoch, version,
  /// created).
  public func importScene(_ scene: String, version: UInt64, stateText: [UInt8]) async throws -> ImportReply {
    let pieces = ExportFrame.frames(name: scene, epoch: "", version: version, stateText: stateText).compactMap {
      frame -> String? in
      guard case .state(let text) = frame else { return nil }
      return text
    }
    var offset = 0
    var reply = ImportReply(received: 0)
    for (index, text) in (pieces.isEmpty ? [""] : pieces).enumerated() {
      reply = try await importScene(
        scene, version: version, offset: offset, text: text, last: index == max(pieces.count, 1) - 1)
      offset = reply.received
    }
    return reply
  }

  /// `Activate`: a front end activates a shown, enabled bar button item (as drawn with `metrics`).
  ///
  /// `item: "@back"` activates the back button, which pops the top item as a mutation of this
  /// client (`expectTop`: the top item the front end showed; only for `@back`). Not retried
  /// after a dropped connection: navd might already have delivered the action.
  public func activate(
    scene: String = "main", item: String, width: Double? = nil, metrics: LayoutMetrics? = nil,
    expectTop: String? = nil
  ) async throws -> ActivationResult {
    let call = ActivateCall(
      scene: scene, item: item, metrics: metrics ?? LayoutMetrics(width: width), expectTop: expectTop,
      clientId: clientId)
    return try await perform(call, retryOnDrop: false)
  }

  /// Calls any method (`org.varlink.service.GetInfo`, a newer io.navd method, …) and returns
  /// the reply's parameters as an object. Not retried after a dropped connection.
  ///
  /// For methods that stream (`more`), use `replies(method:parameters:)`.
  public func call(method: String, parameters: [String: JSONValue] = [:]) async throws -> JSONValue {
    .object(try await perform(method, parameters, retryOnDrop: false))
  }

  /// Makes a typed call and decodes its reply; a reply of the wrong shape is `.protocolViolation`.
  func perform<Call: NavCall>(_ call: Call, retryOnDrop: Bool) async throws -> Call.Reply
  where Call.Reply: NavReply {
    let parameters = try await perform(
      Call.method.qualifiedName, call.parameters.objectValue ?? [:], retryOnDrop: retryOnDrop)
    do {
      return try Call.Reply(parameters: .object(parameters))
    } catch {
      throw NavClientError.protocolViolation(error.description)
    }
  }
}
