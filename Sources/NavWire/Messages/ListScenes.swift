import NavModel

/// `ListScenes()`: no parameters.
public struct ListScenesCall: NavCall {
  /// What navd answers.
  public typealias Reply = SceneList
  /// `ListScenes`.
  public static let method = NavMethod.listScenes

  /// The call.
  public init() {}

  /// Accepts only an empty parameters object.
  public init(parameters: JSONValue) throws(CallError) { _ = try ParameterReader(parameters, known: []) }

  /// `{}`.
  public var parameters: JSONValue { [:] }
}

/// `ListScenes`' reply: every scene, sorted by name.
public struct SceneList: NavReply {
  /// The scenes.
  public var scenes: [SceneSummary]

  /// A reply listing `scenes`.
  public init(scenes: [SceneSummary]) { self.scenes = scenes }

  /// Reads a `ListScenes` reply.
  public init(parameters: JSONValue) throws(MalformedReply) {
    let reader = try ReplyReader(parameters, context: "ListScenes reply")
    scenes = []
    for element in try reader.array("scenes") { scenes.append(try SceneSummary(parameters: element)) }
  }

  /// The reply's parameters.
  public var parameters: JSONValue { ["scenes": .array(scenes.map(\.parameters))] }
}

/// One scene as `ListScenes` reports it (the IDL's `SceneSummary`).
public struct SceneSummary: NavReply {
  /// The scene's name.
  public var name: String
  /// Its current version.
  public var version: UInt64
  /// Its `Subscribe` streams plus its `WatchActions` streams (PROTOCOL §9.19).
  public var subscribers: Int

  /// A summary.
  public init(name: String, version: UInt64, subscribers: Int) {
    self.name = name
    self.version = version
    self.subscribers = subscribers
  }

  /// Reads one element of `scenes`.
  public init(parameters: JSONValue) throws(MalformedReply) {
    let reader = try ReplyReader(parameters, context: "ListScenes reply: scene")
    name = try reader.string("name")
    version = try reader.version("version")
    subscribers = try reader.int("subscribers")
  }

  /// The element's JSON.
  public var parameters: JSONValue {
    ["name": .string(name), "version": version.json, "subscribers": subscribers.json]
  }
}
