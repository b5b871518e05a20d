import NavModel

/// `GetServerInfo()`: no parameters.
public struct GetServerInfoCall: NavCall {
  /// What navd answers.
  public typealias Reply = ServerInfo
  /// `GetServerInfo`.
  public static let method = NavMethod.getServerInfo

  /// The call.
  public init() {}

  /// Accepts only an empty parameters object.
  public init(parameters: JSONValue) throws(CallError) { _ = try ParameterReader(parameters, known: []) }

  /// `{}`.
  public var parameters: JSONValue { [:] }
}

/// What `GetServerInfo` says about the running navd.
public struct ServerInfo: NavReply {
  /// navd's release version.
  public var version: String
  /// The io.navd protocol version it speaks (`"1.0"`).
  public var protocolVersion: String
  /// navd's process id.
  public var pid: Int
  /// Seconds since navd started.
  public var uptimeSeconds: Double
  /// Number of scenes it holds.
  public var scenes: Int
  /// Open client connections.
  public var connections: Int
  /// Subscriptions and action watchers across all scenes.
  public var subscribers: Int

  /// A reply with every field.
  public init(
    version: String, protocolVersion: String, pid: Int, uptimeSeconds: Double, scenes: Int, connections: Int,
    subscribers: Int
  ) {
    self.version = version
    self.protocolVersion = protocolVersion
    self.pid = pid
    self.uptimeSeconds = uptimeSeconds
    self.scenes = scenes
    self.connections = connections
    self.subscribers = subscribers
  }

  /// Reads a `GetServerInfo` reply.
  public init(parameters: JSONValue) throws(MalformedReply) {
    let reader = try ReplyReader(parameters, context: "GetServerInfo reply")
    version = try reader.string("version")
    protocolVersion = try reader.string("protocolVersion")
    pid = try reader.int("pid")
    uptimeSeconds = try reader.double("uptimeSeconds")
    scenes = try reader.int("scenes")
    connections = try reader.int("connections")
    subscribers = try reader.int("subscribers")
  }

  /// The reply's parameters.
  public var parameters: JSONValue {
    [
      "version": .string(version), "protocolVersion": .string(protocolVersion), "pid": pid.json,
      "uptimeSeconds": .number(uptimeSeconds), "scenes": scenes.json, "connections": connections.json,
      "subscribers": subscribers.json,
    ]
  }
}
