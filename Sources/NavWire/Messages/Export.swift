import NavModel

/// `Export(scenes?)` — requires `more`: every scene (or the ones named), each a consistent
/// snapshot, in bounded frames (PROTOCOL.md §3 Export).
public struct ExportCall: NavCall {
  /// Each frame navd sends.
  public typealias Reply = ExportFrame
  /// `Export`.
  public static let method = NavMethod.export

  /// The scenes to export; nil: every scene the caller may read.
  public var scenes: [String]?

  /// The call.
  public init(scenes: [String]? = nil) { self.scenes = scenes }

  /// Reads `scenes`.
  public init(parameters: JSONValue) throws(CallError) {
    let reader = try ParameterReader(parameters, known: ["scenes"])
    guard let value = reader.value("scenes") else {
      scenes = nil
      return
    }
    guard case .array(let items) = value else { throw .invalid("scenes") }
    var names: [String] = []
    for item in items {
      guard case .string(let name) = item else { throw .invalid("scenes") }
      names.append(name)
    }
    scenes = names
  }

  /// `{"scenes"?: […]}`.
  public var parameters: JSONValue {
    guard let scenes else { return [:] }
    return ["scenes": .array(scenes.map(JSONValue.string))]
  }
}

/// One frame of an `Export` stream: a scene's header, a piece of its state's JSON text, or
/// the end (the final reply).
public enum ExportFrame: NavReply {
  /// A scene at `version` of `epoch`; its state follows in `chunks` `state` frames.
  case scene(name: String, epoch: String, version: UInt64, chunks: Int)
  /// The next piece of the current scene's state document, as JSON text (split on character
  /// boundaries: the pieces joined are the document).
  case state(text: String)
  /// The final reply: how many scenes were exported (`exported`).
  case end(scenes: Int)

  /// At most this many bytes of state text per frame.
  public static let chunkBytes = 64 << 10

  /// Reads a frame.
  public init(parameters: JSONValue) throws(MalformedReply) {
    let reader = try ReplyReader(parameters, context: "Export reply")
    switch try reader.string("kind") {
    case "scene":
      self = .scene(
        name: try reader.string("name"), epoch: try reader.string("epoch"), version: try reader.version("version"),
        chunks: try reader.int("chunks"))
    case "state": self = .state(text: try reader.string("text"))
    case "end": self = .end(scenes: try reader.int("exported"))
    case let kind: throw MalformedReply("Export reply: unknown kind \"\(kind)\"")
    }
  }

  /// The frame's parameters.
  public var parameters: JSONValue {
    switch self {
    case .scene(let name, let epoch, let version, let chunks):
      ["kind": "scene", "name": .string(name), "epoch": .string(epoch), "version": version.json, "chunks": chunks.json]
    case .state(let text): ["kind": "state", "text": .string(text)]
    case .end(let scenes): ["kind": "end", "exported": scenes.json]
    }
  }

  /// A scene's frames: its header, then its state's JSON text in pieces of at most
  /// `chunkBytes`, each ending on a character boundary.
  public static func frames(name: String, epoch: String, version: UInt64, stateText: [UInt8]) -> [ExportFrame] {
    var pieces: [String] = []
    var start = 0
    while start < stateText.count {
      var end = min(start + chunkBytes, stateText.count)
      // Never inside a UTF-8 sequence: back off continuation bytes (10xxxxxx).
      while end < stateText.count, end > start + 1, stateText[end] & 0xC0 == 0x80 { end -= 1 }
      pieces.append(String(decoding: stateText[start..<end], as: UTF8.self))
      start = end
    }
    return [.scene(name: name, epoch: epoch, version: version, chunks: pieces.count)] + pieces.map { .state(text: $0) }
  }
}
