import NavModel

/// One Varlink method call: `{"method": …, "parameters": {…}, "oneway"|"more"|"upgrade": true}`.
///
/// Parsing follows the Varlink rules as systemd applies them: missing, `null` and `{}`
/// parameters are the same; flags set to `false` are normal; at most one flag may be
/// true; an unknown top-level key is a protocol error unless it contains a dot
/// (reverse-domain vendor extensions are ignored); a wrongly typed field is a
/// protocol error. Of several wrong keys, the first in sorted order is the one reported.
public struct VarlinkCall: Sendable {
  /// Fully qualified method name, `interface.Method`.
  public var method: String
  /// The call's input parameters (empty when the call had none).
  ///
  /// A call read from a frame keeps its parameters in the frame and builds this dictionary
  /// only when asked: typed decoders read them from `parametersDocument` instead.
  public var parameters: [String: JSONValue] {
    get {
      switch storage {
      case .members(let members): members
      case .document(let document, let object): object.map { document.value($0).objectValue ?? [:] } ?? [:]
      }
    }
    set { storage = .members(newValue) }
  }
  /// The server must not reply at all.
  public var oneway: Bool
  /// The client accepts several replies (`continues: true` until the last).
  public var more: Bool
  /// The client asks to leave Varlink for another protocol after the reply.
  public var upgrade: Bool
  /// The call's parameters already decoded by the service (`CallHandler.prepare`), nil
  /// until then: a large frame is decoded off the event loop, before the call is
  /// handled. Not part of equality: it is derived from the parameters.
  public var decoded: (any Sendable)?

  /// Where the parameters are: a dictionary, or an object in the call's frame (nil: none).
  enum Storage: Sendable {
    case members([String: JSONValue])
    case document(JSONDocument, object: JSONDocument.Index?)
  }

  var storage: Storage

  /// Creates a call; at most one of the flags should be true.
  public init(
    method: String, parameters: [String: JSONValue] = [:], oneway: Bool = false, more: Bool = false,
    upgrade: Bool = false
  ) {
    self.init(method: method, storage: .members(parameters), oneway: oneway, more: more, upgrade: upgrade)
  }

  /// A call whose parameters are kept in `storage` (a frame's, for `typed(_:)`).
  init(method: String, storage: Storage, oneway: Bool, more: Bool, upgrade: Bool) {
    self.method = method
    self.storage = storage
    self.oneway = oneway
    self.more = more
    self.upgrade = upgrade
  }

  /// The frame the parameters were read from and their object in it, for typed decoders
  /// (`MutateCall(call:)`); nil when the call has no parameters or was not read from a frame.
  public var parametersDocument: (document: JSONDocument, object: JSONDocument.Index)? {
    guard case .document(let document, let object?) = storage else { return nil }
    return (document, object)
  }

  /// Parameter `name`, read without building the whole dictionary; nil when absent.
  public func parameter(_ name: StaticString) -> JSONValue? {
    switch storage {
    case .members(let members): return members[name.description]
    case .document(let document, let object):
      guard let object, let value = document.member(name, of: object) else { return nil }
      return document.value(value)
    }
  }

  /// The interface part of `method` (everything before the last dot; empty if none).
  ///
  /// Read from the UTF-8 buffer (the bytes before an ASCII dot are whole characters):
  /// slicing the `String` at `lastDot` cost ~530 instructions per call (callgrind).
  public var interface: String {
    var bytes = method
    return bytes.withUTF8 { utf8 in
      guard let dot = utf8.lastIndex(of: UInt8(ascii: ".")) else { return "" }
      return String(decoding: UnsafeBufferPointer(rebasing: utf8[..<dot]), as: UTF8.self)
    }
  }

  /// The method part of `method` (after the last dot).
  public var methodName: String {
    guard let dot = lastDot else { return method }
    // An ASCII byte (or the end) after the dot starts a new character, so the cheap UTF-8
    // step lands where the character step would; a combining mark would join the dot.
    let next = method.utf8.index(after: dot)
    guard next == method.utf8.endIndex || method.utf8[next] < 0x80 else {
      return String(method[method.index(after: dot)...])
    }
    return String(method[next...])
  }

  /// The last "." in `method`, found in its UTF-8 (an ASCII byte is always a character of its
  /// own, and scanning bytes needs no grapheme breaking) as a buffer: the generic
  /// `utf8.lastIndex(of:)` costs several hundred instructions a call.
  private var lastDot: String.Index? {
    var bytes = method
    guard let offset = bytes.withUTF8({ $0.lastIndex(of: UInt8(ascii: ".")) }) else { return nil }
    return method.utf8.index(method.utf8.startIndex, offsetBy: offset)
  }

  /// Parses a call from a decoded message, applying the rules above.
  public init(from message: JSONValue) throws(VarlinkProtocolError) {
    guard case .object(let members) = message else {
      throw VarlinkProtocolError(.notAnObject, "a call must be a JSON object, got \(message.typeName)")
    }
    var method: String?
    var parameters: [String: JSONValue] = [:]
    var flags = (oneway: false, more: false, upgrade: false)
    // Sorted, so that of several wrong keys the same one is always reported (a dictionary's
    // order differs from one instance to the next).
    for (key, value) in members.sorted(by: { $0.key < $1.key }) {
      switch key {
      case "method":
        guard case .string(let name) = value else {
          throw VarlinkProtocolError(.wrongType(key: key), "\"method\" must be a string, got \(value.typeName)")
        }
        method = name
      case "parameters":
        switch value {
        case .null: break
        case .object(let object): parameters = object
        default:
          throw VarlinkProtocolError(
            .wrongType(key: key), "\"parameters\" must be an object or null, got \(value.typeName)")
        }
      case "oneway": flags.oneway = try Self.flag(key, value)
      case "more": flags.more = try Self.flag(key, value)
      case "upgrade": flags.upgrade = try Self.flag(key, value)
      default:
        // Vendor extensions live under reverse-domain keys ("com.example.trace"); ignore them.
        if key.contains(".") { continue }
        throw VarlinkProtocolError(.unknownKey(key), "unknown top-level key \"\(key)\" in call")
      }
    }
    guard let method else { throw VarlinkProtocolError(.missingMethod, "call has no \"method\"") }
    let trueFlags = [flags.oneway, flags.more, flags.upgrade].filter { $0 }.count
    guard trueFlags <= 1 else {
      throw VarlinkProtocolError(.conflictingFlags, "at most one of \"oneway\", \"more\", \"upgrade\" may be true")
    }
    self.init(
      method: method, parameters: parameters, oneway: flags.oneway, more: flags.more, upgrade: flags.upgrade)
  }

  /// Parses a call from one frame's bytes (without the NUL).
  ///
  /// Invalid JSON — bad UTF-8, nesting deeper than `maxDepth`, trailing bytes — is a
  /// protocol error too. A well-formed call is read straight from the frame and keeps its
  /// parameters there (`parametersDocument`); anything else is left to `init(from:)`, the
  /// reference, so the error is always the one it gives.
  public init(frame: some Collection<UInt8>, maxDepth: Int = JSONParser.defaultMaxDepth) throws(VarlinkProtocolError) {
    let document: JSONDocument
    do {
      document = try JSONDocument(parsing: Array(frame), maxDepth: maxDepth)
    } catch {
      throw VarlinkProtocolError(.invalidJSON, error.description)
    }
    if let call = Self.typed(document) {
      self = call
    } else {
      try self.init(from: try VarlinkProtocolError.parse(document.bytes, maxDepth: maxDepth))
    }
  }

  private static func flag(_ key: String, _ value: JSONValue) throws(VarlinkProtocolError) -> Bool {
    switch value {
    case .bool(let b): return b
    case .null: return false
    default:
      throw VarlinkProtocolError(.wrongType(key: key), "\"\(key)\" must be a boolean, got \(value.typeName)")
    }
  }

  /// The call as a NUL-terminated frame; false flags and empty parameters are left out.
  public func encoded() -> [UInt8] {
    var members: [String: JSONValue] = ["method": .string(method)]
    if !parameters.isEmpty { members["parameters"] = .object(parameters) }
    if oneway { members["oneway"] = true }
    if more { members["more"] = true }
    if upgrade { members["upgrade"] = true }
    var out = JSONWriter.bytes(.object(members))
    out.append(0)
    return out
  }
}
