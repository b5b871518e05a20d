import NavEngine
import NavModel

/// Reads an export document (STORAGE.md §5) in bounded pieces, one scene at a time, so that
/// memory follows the largest scene and not the file: `navctl import` of an export of any size.
///
/// The document is the same one `SceneArchive(json:)` reads, with the same checks and
/// messages (each scene through `SceneArchive.Scene(json:index:)`); only the top level and
/// the `scenes` array are walked here, byte by byte, and each scene's object is handed whole
/// to the JSON parser. A scene's object longer than `maxSceneBytes` is refused by name.
public struct ExportReader {
  /// How many bytes one read asks for.
  public static let pieceBytes = 64 * 1024
  /// A top-level member other than `scenes` (`format`, …) is at most this long.
  static let maxMemberBytes = 64 * 1024

  /// The longest scene object read, in bytes of JSON text.
  public let maxSceneBytes: Int
  private let read: (Int) throws -> [UInt8]
  private var buffer: [UInt8] = []
  private var position = 0
  /// Bytes of the document before `buffer`.
  private var consumed = 0

  /// A reader of the bytes `read(n)` returns: at most n each call, none at the end.
  public init(maxSceneBytes: Int, read: @escaping (Int) throws -> [UInt8]) {
    self.maxSceneBytes = maxSceneBytes
    self.read = read
  }

  /// Reads the whole document, calling `body` with each scene in order once it is read and
  /// checked; throws at the first problem (a scene before it has been handed over).
  ///
  /// The format members are checked where they stand when they come before `scenes` (as
  /// navd writes them), else at the end.
  public mutating func scenes(_ body: (SceneArchive.Scene) async throws -> Void) async throws {
    var header: [String: JSONValue] = [:]
    var sawScenes = false
    var headerChecked = false
    try expect(UInt8(ascii: "{"), "the document must be a JSON object")
    var first = true
    while true {
      try skipWhitespace()
      if try peek() == UInt8(ascii: "}") {
        position += 1
        break
      }
      if !first { try expect(UInt8(ascii: ","), "expected , or } between the document's members") }
      first = false
      try skipWhitespace()
      let key = try memberKey()
      guard header[key] == nil, !(key == "scenes" && sawScenes) else {
        throw invalid("the document has the member \"\(key)\" twice")
      }
      if key == "scenes" {
        sawScenes = true
        if header["format"] != nil, header["formatVersion"] != nil {
          try SceneArchive.checkHeader(format: header["format"], formatVersion: header["formatVersion"])
          headerChecked = true
        }
        try await sceneArray(body)
      } else {
        header[key] = try value(limit: Self.maxMemberBytes, what: "the member \"\(key)\"")
      }
    }
    try skipWhitespace()
    guard try peek() == nil else { throw invalid("unexpected bytes after the document") }
    if !headerChecked { try SceneArchive.checkHeader(format: header["format"], formatVersion: header["formatVersion"]) }
    guard sawScenes else { throw StoreError(.io, "\"scenes\" must be an array") }
  }

  /// The `scenes` array, each element read and checked, then handed to `body`.
  private mutating func sceneArray(_ body: (SceneArchive.Scene) async throws -> Void) async throws {
    try skipWhitespace()
    guard try peek() == UInt8(ascii: "[") else { throw StoreError(.io, "\"scenes\" must be an array") }
    position += 1
    var names: Set<String> = []
    var index = 0
    while true {
      try skipWhitespace()
      if try peek() == UInt8(ascii: "]") {
        position += 1
        return
      }
      if index > 0 {
        try expect(UInt8(ascii: ","), "expected , or ] between scenes")
        try skipWhitespace()
      }
      let element = try value(limit: maxSceneBytes, what: "scenes[\(index)]", depth: 2)
      let scene = try SceneArchive.Scene(json: element, index: index)
      guard names.insert(scene.name).inserted else {
        throw StoreError(.io, "scenes[\(index)]: scene \"\(scene.name)\" appears twice")
      }
      try await body(scene)
      index += 1
    }
  }

  /// A member's name and the colon after it.
  private mutating func memberKey() throws -> String {
    guard try peek() == UInt8(ascii: "\"") else { throw invalid("expected a member name") }
    guard case .string(let key) = try value(limit: Self.maxMemberBytes, what: "a member name") else {
      throw invalid("expected a member name")
    }
    try skipWhitespace()
    try expect(UInt8(ascii: ":"), "expected : after \"\(key)\"")
    try skipWhitespace()
    return key
  }

  /// One JSON value at most `limit` bytes long, found by its brackets and quotes, then parsed
  /// (`depth`: how deep in the document it is, for the parser's nesting limit).
  private mutating func value(limit: Int, what: String, depth: Int = 1) throws -> JSONValue {
    let start = offset
    var text: [UInt8] = []
    var nesting = 0
    var inString = false
    var escaped = false
    var done = false
    // The bytes of the buffer are scanned in place and taken a run at a time.
    while !done, try peek() != nil {
      var index = position
      while index < buffer.count {
        let byte = buffer[index]
        if !inString, nesting == 0, index > position || !text.isEmpty, Self.endsScalar(byte) {
          done = true
          break
        }
        index += 1
        if inString {
          if escaped {
            escaped = false
          } else if byte == UInt8(ascii: "\\") {
            escaped = true
          } else if byte == UInt8(ascii: "\"") {
            inString = false
            if nesting == 0 {
              done = true
              break
            }
          }
          continue
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): nesting += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"): nesting -= 1
        default: break
        }
        if nesting <= 0, byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
          done = true
          break
        }
      }
      text.append(contentsOf: buffer[position..<index])
      position = index
      guard text.count <= limit else {
        throw StoreError(.io, "\(what) is longer than \(limit) bytes, the most navctl reads of one")
      }
    }
    do {
      return try JSONParser.parse(text, maxDepth: JSONParser.defaultMaxDepth - depth)
    } catch {
      throw invalid(error.reason, at: start + error.offset)
    }
  }

  /// Whether `byte` ends a number or literal (`true`, `null`).
  private static func endsScalar(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: " "), UInt8(ascii: "\n"),
      UInt8(ascii: "\r"), UInt8(ascii: "\t"):
      true
    default: false
    }
  }

  /// Where the reader is in the document, in bytes.
  private var offset: Int { consumed + position }

  private func invalid(_ reason: String, at offset: Int? = nil) -> StoreError {
    StoreError(.io, "invalid JSON at byte \(offset ?? self.offset): \(reason)")
  }

  private mutating func expect(_ byte: UInt8, _ reason: String) throws {
    try skipWhitespace()
    guard try peek() == byte else { throw invalid(reason) }
    position += 1
  }

  private mutating func skipWhitespace() throws {
    while let byte = try peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
  }

  /// The next byte, reading a piece when the buffer is spent; nil at the end.
  private mutating func peek() throws -> UInt8? {
    if position == buffer.count {
      consumed += buffer.count
      buffer = try read(Self.pieceBytes)
      position = 0
      if buffer.isEmpty { return nil }
    }
    return buffer[position]
  }
}
