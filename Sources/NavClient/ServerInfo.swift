import NavModel

/// What `GetServerInfo` says about the running navd.
public struct ServerInfo: Sendable, Hashable {
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
  /// Subscriptions across all scenes.
  public var subscribers: Int

  init(_ parameters: [String: JSONValue]) throws(NavClientError) {
    let reader = ReplyReader(parameters, context: "GetServerInfo reply")
    version = try reader.string("version")
    protocolVersion = try reader.string("protocolVersion")
    pid = try reader.int("pid")
    uptimeSeconds = try reader.double("uptimeSeconds")
    scenes = try reader.int("scenes")
    connections = try reader.int("connections")
    subscribers = try reader.int("subscribers")
  }
}

/// One scene as `ListScenes` reports it.
public struct SceneSummary: Sendable, Hashable {
  /// The scene's name.
  public var name: String
  /// Its current version.
  public var version: UInt64
  /// Subscribers following the scene right now.
  public var subscribers: Int

  init(_ value: JSONValue) throws(NavClientError) {
    let reader = try ReplyReader(value, context: "ListScenes reply: scene")
    name = try reader.string("name")
    version = try reader.version("version")
    subscribers = try reader.int("subscribers")
  }
}
