import NavEngine
import NavModel

/// The export/import form of navd's state (Protocol/STORAGE.md, "Export format"): each
/// scene's state at its newest version, with that version and its epoch.
public struct SceneArchive: Sendable, Equatable {
  /// Identifies the document; `formatVersion` changes only incompatibly.
  public static let format = "navd-export"
  /// The document's version (1).
  public static let formatVersion = 1

  /// One scene as exported.
  public struct Scene: Sendable, Equatable {
    /// The scene's name.
    public var name: String
    /// Its history (PROTOCOL.md, "Epochs").
    public var epoch: String
    /// The version of `state`.
    public var version: UInt64
    /// The state document at `version`.
    public var state: SceneState

    /// A scene.
    public init(name: String, epoch: String, version: UInt64, state: SceneState) {
      self.name = name
      self.epoch = epoch
      self.version = version
      self.state = state
    }
  }

  /// The scenes, by name.
  public var scenes: [Scene]

  /// An archive of `scenes`.
  public init(scenes: [Scene]) { self.scenes = scenes }

  /// The JSON document.
  public var json: JSONValue {
    [
      "format": .string(Self.format), "formatVersion": .number(Double(Self.formatVersion)),
      "scenes": .array(
        scenes.map { scene in
          [
            "name": .string(scene.name), "epoch": .string(scene.epoch), "version": .number(Double(scene.version)),
            "state": scene.state.json,
          ]
        }),
    ]
  }

  /// Reads a document, each scene's state checked against every rule (`SceneState.validated`);
  /// the error names the scene, the field and (for a rule) the rule that is broken.
  public init(json: JSONValue) throws(StoreError) {
    try Self.checkHeader(format: json["format"], formatVersion: json["formatVersion"])
    guard let list = json["scenes"]?.arrayValue else { throw StoreError(.io, "\"scenes\" must be an array") }
    var scenes: [Scene] = []
    var seen: Set<String> = []
    for (index, element) in list.enumerated() {
      let scene = try Scene(json: element, index: index)
      guard seen.insert(scene.name).inserted else {
        throw StoreError(.io, "scenes[\(index)]: scene \"\(scene.name)\" appears twice")
      }
      scenes.append(scene)
    }
    self.scenes = scenes
  }

  /// Checks the document's `format` and `formatVersion` members (nil: absent).
  public static func checkHeader(format: JSONValue?, formatVersion: JSONValue?) throws(StoreError) {
    guard format?.stringValue == Self.format else {
      throw StoreError(.io, "not a navd export: \"format\" must be \"\(Self.format)\"")
    }
    guard formatVersion?.numberValue == Double(Self.formatVersion) else {
      throw StoreError(
        .tooNew,
        "this export has formatVersion \(formatVersion.map(JSONWriter.string) ?? "(none)"); "
          + "this navd reads \(Self.formatVersion)")
    }
  }
}

extension SceneArchive.Scene {
  /// Reads element `index` of the document's `scenes`, its state checked against every rule
  /// (`SceneState.validated`); the error names the scene, the field and (for a rule) the rule.
  public init(json element: JSONValue, index: Int) throws(StoreError) {
    let field = "scenes[\(index)]"
    guard let name = element["name"]?.stringValue, !name.isEmpty else {
      throw StoreError(.io, "\(field).name must be a non-empty string")
    }
    do {
      try Validation().id(name, field: "\(field).name")
    } catch {
      throw StoreError(.io, "\(field).name: \(error.message)")
    }
    guard let epoch = element["epoch"]?.stringValue, !epoch.isEmpty else {
      throw StoreError(.io, "\(field).epoch must be a non-empty string")
    }
    guard let version = element["version"]?.numberValue, version >= 0, version == version.rounded(),
      version < 9e15
    else { throw StoreError(.io, "\(field).version must be a whole number of at least 0") }
    let state: SceneState
    do {
      // Every rule a mutation is held to: an import is a way in, not a way around them.
      state = try SceneState(json: element["state"] ?? .null, path: "\(field).state").validated(
        path: "\(field).state")
    } catch {
      let at = error.field.map { error.message.hasPrefix($0) ? "" : "\($0): " } ?? "\(field).state: "
      throw StoreError(.io, "scene \"\(name)\": \(at)\(error.message)")
    }
    self.init(name: name, epoch: epoch, version: UInt64(version), state: state)
  }
}
