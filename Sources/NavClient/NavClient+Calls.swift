import NavModel
import NavWire

/// The io.navd methods as typed calls, on the shared pipelined connection.
extension NavClient {
  /// `GetServerInfo`: navd's version, uptime and counts.
  public func serverInfo() async throws -> ServerInfo {
    try ServerInfo(try await perform(NavMethod.getServerInfo.qualifiedName, [:], retryOnDrop: true))
  }

  /// `ListScenes`: every scene, sorted by name.
  public func scenes() async throws -> [SceneSummary] {
    let reader = ReplyReader(
      try await perform(NavMethod.listScenes.qualifiedName, [:], retryOnDrop: true), context: "ListScenes reply")
    var scenes: [SceneSummary] = []
    for element in try reader.array("scenes") { scenes.append(try SceneSummary(element)) }
    return scenes
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
    let parameters = try await perform(NavMethod.getState.qualifiedName, ["scene": .string(scene)], retryOnDrop: true)
    let reader = ReplyReader(parameters, context: "GetState reply")
    let version = try reader.version("version")
    let epoch = try reader.optionalString("epoch")
    do {
      return (version, epoch, try SceneState(json: try reader.object("state"), path: "state"))
    } catch let error as NavError {
      throw NavClientError.protocolViolation("GetState reply: \(error.description)")
    }
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
    var parameters: [String: JSONValue] = ["scene": .string(scene)]
    parameters.merge(metrics.parameters) { _, new in new }
    let reader = ReplyReader(
      try await perform(NavMethod.getLayout.qualifiedName, parameters, retryOnDrop: true), context: "GetLayout reply")
    return (try reader.version("version"), try reader.object("layout"))
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
    var parameters: [String: JSONValue] = [
      "scene": .string(scene), "ops": .array(ops.map(\.json)), "clientId": .string(clientId),
      "mutationId": .string(mutationId ?? Self.randomID()), "policy": .string(policy.rawValue),
    ]
    if let baseVersion { parameters["baseVersion"] = .number(Double(baseVersion)) }
    if let epoch { parameters["epoch"] = .string(epoch) }
    return try MutationReply(try await perform(NavMethod.mutate.qualifiedName, parameters, retryOnDrop: true))
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
    var parameters: [String: JSONValue] = [
      "scene": .string(scene), "item": .string(item), "clientId": .string(clientId),
    ]
    parameters.merge((metrics ?? LayoutMetrics(width: width)).parameters) { _, new in new }
    if let expectTop { parameters["expectTop"] = .string(expectTop) }
    return try ActivationResult(try await perform(NavMethod.activate.qualifiedName, parameters, retryOnDrop: false))
  }

  /// Calls any method (`org.varlink.service.GetInfo`, a newer io.navd method, …) and returns
  /// the reply's parameters as an object. Not retried after a dropped connection.
  ///
  /// For methods that stream (`more`), use `replies(method:parameters:)`.
  public func call(method: String, parameters: [String: JSONValue] = [:]) async throws -> JSONValue {
    .object(try await perform(method, parameters, retryOnDrop: false))
  }
}

extension LayoutMetrics {
  /// The call parameters for these metrics; defaults are left out.
  var parameters: [String: JSONValue] {
    var parameters: [String: JSONValue] = [:]
    if let width { parameters["width"] = .number(width) }
    if compact { parameters["compact"] = true }
    if navigationBarPosition != .top { parameters["navigationBarPosition"] = .string(navigationBarPosition.rawValue) }
    if toolbarPosition != .bottom { parameters["toolbarPosition"] = .string(toolbarPosition.rawValue) }
    return parameters
  }
}
