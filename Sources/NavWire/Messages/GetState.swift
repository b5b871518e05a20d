import NavModel

/// `GetState(scene)`.
public struct GetStateCall: NavCall {
  /// What navd answers.
  public typealias Reply = StateReply
  /// `GetState`.
  public static let method = NavMethod.getState

  /// The scene to read.
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

/// `GetState`'s reply: the state document, its version and epoch.
public struct StateReply: NavReply {
  /// The scene's version.
  public var version: UInt64
  /// The history `version` belongs to; nil from a navd that does not say.
  public var epoch: String?
  /// The state at `version`.
  public var state: SceneState

  /// A reply.
  public init(version: UInt64, epoch: String?, state: SceneState) {
    self.version = version
    self.epoch = epoch
    self.state = state
  }

  /// Reads a `GetState` reply; a state document that does not decode is malformed.
  public init(parameters: JSONValue) throws(MalformedReply) {
    let reader = try ReplyReader(parameters, context: "GetState reply")
    version = try reader.version("version")
    epoch = try reader.optionalString("epoch")
    let document = try reader.object("state")
    do {
      state = try SceneState(json: document, path: "state")
    } catch {
      throw MalformedReply("GetState reply: \(error.description)")
    }
  }

  /// The reply's parameters.
  public var parameters: JSONValue {
    var members: [String: JSONValue] = ["version": version.json, "state": state.json]
    if let epoch { members["epoch"] = .string(epoch) }
    return .object(members)
  }
}
