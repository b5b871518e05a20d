import NavModel

/// `Activate(scene, item, width?, compact?, navigationBarPosition?, toolbarPosition?, expectTop?, clientId?)`.
public struct ActivateCall: NavCall {
  /// What navd answers.
  public typealias Reply = ActivationResult
  /// `Activate`.
  public static let method = NavMethod.activate
  /// The `item` that names the back button (SEMANTICS R60).
  public static let backButtonItem = "@back"

  /// The scene the item is shown in.
  public var scene: String
  /// The bar button item's id, or `@back`.
  public var item: String
  /// The layout metrics the front end drew with.
  public var metrics: LayoutMetrics
  /// Only for `@back`: the top item the front end showed.
  public var expectTop: String?
  /// Only for `@back`: who pops (1…128 bytes); nil: navd derives one from the connection.
  public var clientId: String?

  /// A call; nil fields and default metrics are not sent.
  public init(
    scene: String, item: String, metrics: LayoutMetrics = .defaults, expectTop: String? = nil, clientId: String? = nil
  ) {
    self.scene = scene
    self.item = item
    self.metrics = metrics
    self.expectTop = expectTop
    self.clientId = clientId
  }

  /// Reads the parameters (`expectTop` with an item other than `@back` is navd's to refuse).
  public init(parameters: JSONValue) throws(CallError) {
    let reader = try ParameterReader(
      parameters, known: ParameterReader.metricsParameters.union(["scene", "item", "expectTop", "clientId"]))
    scene = try reader.string("scene")
    item = try reader.string("item")
    metrics = try reader.layoutMetrics()
    expectTop = try reader.optionalString("expectTop")
    clientId = try reader.optionalString("clientId")
    if let clientId { try checkIdentifier(clientId, field: "clientId") }
  }

  /// The call's parameters.
  public var parameters: JSONValue {
    var members = metrics.parameters
    members["scene"] = .string(scene)
    members["item"] = .string(item)
    if let expectTop { members["expectTop"] = .string(expectTop) }
    if let clientId { members["clientId"] = .string(clientId) }
    return .object(members)
  }
}

/// navd's answer to `Activate`.
public struct ActivationResult: NavReply {
  /// The item's action, if it has one.
  public var action: String?
  /// How many `WatchActions` callers it was delivered to.
  public var watchers: Int
  /// For the back button (`@back`): the version of the pop it committed.
  public var version: UInt64?

  /// A reply.
  public init(action: String?, watchers: Int, version: UInt64? = nil) {
    self.action = action
    self.watchers = watchers
    self.version = version
  }

  /// Reads an `Activate` reply.
  public init(parameters: JSONValue) throws(MalformedReply) {
    let reader = try ReplyReader(parameters, context: "Activate reply")
    action = try reader.optionalString("action")
    watchers = try reader.int("watchers")
    version = try reader.optionalVersion("version")
  }

  /// The reply's parameters (`action` is always there, `null` when the item has none).
  public var parameters: JSONValue {
    var members: [String: JSONValue] = ["action": action.map { .string($0) } ?? .null, "watchers": watchers.json]
    if let version { members["version"] = version.json }
    return .object(members)
  }
}
