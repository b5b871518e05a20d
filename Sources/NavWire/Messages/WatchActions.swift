import NavModel

/// `WatchActions(scene)`; each reply is a `WatchFrame`.
public struct WatchActionsCall: NavCall {
  /// Each frame of the stream.
  public typealias Reply = WatchFrame
  /// `WatchActions`.
  public static let method = NavMethod.watchActions

  /// The scene whose activations to follow.
  public var scene: String

  /// The call for `scene`.
  public init(scene: String) { self.scene = scene }

  /// Reads `scene`.
  public init(parameters: JSONValue) throws(CallError) {
    scene = try ParameterReader(parameters, known: ["scene"]).string("scene")
  }

  /// `{"scene": …}`.
  public var parameters: JSONValue { ["scene": .string(scene)] }
}

/// An activation delivered by `WatchActions`: a front end activated a bar button item.
public struct Activation: Sendable, Hashable {
  /// The scene the item belongs to.
  public var scene: String
  /// The bar button item's id.
  public var item: String
  /// The item's action name, if it has one.
  public var action: String?
  /// The item's tag.
  public var tag: Int
  /// The scene's version when it was activated.
  public var version: UInt64

  /// An activation.
  public init(scene: String, item: String, action: String?, tag: Int, version: UInt64) {
    self.scene = scene
    self.item = item
    self.action = action
    self.tag = tag
    self.version = version
  }
}

/// One reply of a `WatchActions` stream (PROTOCOL §3 WatchActions).
public enum WatchFrame: NavReply {
  /// The first frame: the watch is registered; `version` is the scene's.
  case watching(scene: String, version: UInt64)
  /// One activation.
  case activation(Activation)
  /// `count` activations were lost while the watcher did not read, the last at `version`.
  case dropped(scene: String, count: Int, version: UInt64)
  /// A frame of a kind this version does not know (a newer navd); clients skip it.
  case unknown(JSONValue)

  /// Reads one `WatchActions` reply (a reply without `kind` is an activation, as before §9.18).
  public init(parameters: JSONValue) throws(MalformedReply) {
    let reader = try ReplyReader(parameters, context: "WatchActions reply")
    let kind = try reader.optionalString("kind")
    switch kind.map(WatchFrameKind.init(rawValue:)) ?? .activation {
    case .watching:
      self = .watching(scene: try reader.string("scene"), version: try reader.version("version"))
    case .activation:
      self = .activation(
        Activation(
          scene: try reader.string("scene"), item: try reader.string("item"),
          action: try reader.optionalString("action"), tag: try reader.int("tag"),
          version: try reader.version("version")))
    case .dropped:
      self = .dropped(
        scene: try reader.string("scene"), count: try reader.int("dropped"), version: try reader.version("version"))
    case nil:
      self = .unknown(parameters)
    }
  }

  /// The frame's parameters.
  public var parameters: JSONValue {
    switch self {
    case .watching(let scene, let version):
      ["kind": .string(WatchFrameKind.watching.rawValue), "scene": .string(scene), "version": version.json]
    case .activation(let activation):
      [
        "kind": .string(WatchFrameKind.activation.rawValue), "scene": .string(activation.scene),
        "item": .string(activation.item), "action": activation.action.map { .string($0) } ?? .null,
        "tag": activation.tag.json, "version": activation.version.json,
      ]
    case .dropped(let scene, let count, let version):
      [
        "kind": .string(WatchFrameKind.dropped.rawValue), "scene": .string(scene), "dropped": count.json,
        "version": version.json,
      ]
    case .unknown(let parameters):
      parameters
    }
  }
}
