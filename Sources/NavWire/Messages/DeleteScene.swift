import NavModel
import Varlink

/// `DeleteScene(scene, ifVersion?)`: ends a scene's history (PROTOCOL.md §3 DeleteScene).
public struct DeleteSceneCall: NavCall {
  /// What navd answers.
  public typealias Reply = DeletedScene
  /// `DeleteScene`.
  public static let method = NavMethod.deleteScene

  /// The scene to delete.
  public var scene: String
  /// When given, the scene must be at this version (else `Conflict`).
  public var ifVersion: UInt64?

  /// The call for `scene`.
  public init(scene: String, ifVersion: UInt64? = nil) {
    self.scene = scene
    self.ifVersion = ifVersion
  }

  /// Reads `scene` and `ifVersion`.
  public init(parameters: JSONValue) throws(CallError) {
    let reader = try ParameterReader(parameters, known: ["scene", "ifVersion"])
    scene = try reader.string("scene")
    ifVersion = try reader.optionalVersion("ifVersion")
  }

  /// `{"scene": …, "ifVersion"?: …}`.
  public var parameters: JSONValue {
    var members: [String: JSONValue] = ["scene": .string(scene)]
    if let ifVersion { members["ifVersion"] = ifVersion.json }
    return .object(members)
  }
}

/// `DeleteScene`'s reply: the version and epoch of the history that ended.
public struct DeletedScene: NavReply {
  /// The version the scene had when it was deleted.
  public var version: UInt64
  /// The epoch of the deleted history.
  public var epoch: String

  /// A reply.
  public init(version: UInt64, epoch: String) {
    self.version = version
    self.epoch = epoch
  }

  /// Reads a `DeleteScene` reply.
  public init(parameters: JSONValue) throws(MalformedReply) {
    let reader = try ReplyReader(parameters, context: "DeleteScene reply")
    version = try reader.version("version")
    epoch = try reader.string("epoch")
  }

  /// The reply's parameters.
  public var parameters: JSONValue { ["version": version.json, "epoch": .string(epoch)] }
}

/// `io.navd.SceneDeleted`: the final reply of every stream of a deleted scene (`Subscribe`,
/// waiting or not, and `WatchActions`), after everything already queued for it.
public struct SceneDeletedError: VarlinkError, Hashable {
  /// `io.navd.SceneDeleted`.
  public static let name = "io.navd.SceneDeleted"
  /// The deleted scene.
  public var scene: String
  /// The last version of its history.
  public var version: UInt64
  /// One sentence for a person.
  public var message: String

  /// The error for `scene`, deleted at `version`.
  public init(scene: String, version: UInt64) {
    self.scene = scene
    self.version = version
    self.message =
      "scene \(scene) was deleted at version \(version) (DeleteScene); this stream ends; "
      + "a write creates the scene anew in a new epoch"
  }

  /// The error reply's parameters.
  public var parameters: JSONValue { ["scene": .string(scene), "version": version.json, "message": .string(message)] }

  /// `io.navd.SceneDeleted`.
  public var errorName: String { Self.name }
  /// `parameters`.
  public var errorParameters: JSONValue { parameters }
}
