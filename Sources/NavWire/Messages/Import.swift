import NavModel

/// `Import(scene, version, offset, text, last)`: one piece of one scene's state document, as
/// JSON text; the call with `last` replaces the scene by the whole document, in a new epoch
/// (PROTOCOL.md §3 Import). A plain call with a plain reply, so any Varlink client drives it.
public struct ImportCall: NavCall {
  /// What navd answers.
  public typealias Reply = ImportReply
  /// `Import`.
  public static let method = NavMethod.importScene

  /// The scene the document replaces.
  public var scene: String
  /// The version the scene has once imported (the export's).
  public var version: UInt64
  /// Where `text` starts in the document, in bytes of UTF-8: 0 starts the scene afresh.
  public var offset: Int
  /// The next piece of the state document's JSON text.
  public var text: String
  /// Whether this is the document's last piece: navd then checks and imports it.
  public var last: Bool

  /// A call.
  public init(scene: String, version: UInt64, offset: Int, text: String, last: Bool) {
    self.scene = scene
    self.version = version
    self.offset = offset
    self.text = text
    self.last = last
  }

  /// Reads the call's parameters.
  public init(parameters: JSONValue) throws(CallError) {
    let reader = try ParameterReader(parameters, known: ["scene", "version", "offset", "text", "last"])
    scene = try reader.string("scene")
    guard let version = try reader.optionalVersion("version") else { throw .invalid("version") }
    self.version = version
    guard let offset = try reader.optionalVersion("offset"), offset <= UInt64(Int.max) else {
      throw .invalid("offset")
    }
    self.offset = Int(offset)
    text = try reader.string("text")
    guard let last = try reader.optionalBool("last") else { throw .invalid("last") }
    self.last = last
  }

  /// The call's parameters.
  public var parameters: JSONValue {
    [
      "scene": .string(scene), "version": version.json, "offset": offset.json, "text": .string(text),
      "last": .bool(last),
    ]
  }
}

/// `Import`'s reply: the bytes of the scene's document navd holds so far; on the last piece,
/// the imported scene's epoch and version and whether the import created it.
public struct ImportReply: NavReply {
  /// Bytes of the document received (the next call's `offset`).
  public var received: Int
  /// The new history's epoch, once imported.
  public var epoch: String?
  /// The scene's version, once imported.
  public var version: UInt64?
  /// Whether the import created the scene (once imported).
  public var created: Bool?

  /// A reply.
  public init(received: Int, epoch: String? = nil, version: UInt64? = nil, created: Bool? = nil) {
    self.received = received
    self.epoch = epoch
    self.version = version
    self.created = created
  }

  /// Reads an `Import` reply.
  public init(parameters: JSONValue) throws(MalformedReply) {
    let reader = try ReplyReader(parameters, context: "Import reply")
    received = try reader.int("received")
    epoch = try reader.optionalString("epoch")
    version = try reader.optionalVersion("version")
    created = parameters["created"]?.boolValue
  }

  /// The reply's parameters.
  public var parameters: JSONValue {
    var members: [String: JSONValue] = ["received": received.json]
    if let epoch { members["epoch"] = .string(epoch) }
    if let version { members["version"] = version.json }
    if let created { members["created"] = .bool(created) }
    return .object(members)
  }
}
