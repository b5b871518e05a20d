import NavModel

/// One Varlink method call: `{"method": …, "parameters": {…}, "oneway"|"more"|"upgrade": true}`.
///
/// Parsing follows the Varlink rules as systemd applies them: missing, `null` and `{}`
/// parameters are the same; flags set to `false` are normal; at most one flag may be
/// true; an unknown top-level key is a protocol error unless it contains a dot
/// (reverse-domain vendor extensions are ignored); a wrongly typed field is a
/// protocol error.
public struct VarlinkCall: Sendable, Hashable {
  /// Fully qualified method name, `interface.Method`.
  public var method: String
  /// The call's input parameters (empty when the call had none).
  public var parameters: [String: JSONValue]
  /// The server must not reply at all.
  public var oneway: Bool
  /// The client accepts several replies (`continues: true` until the last).
  public var more: Bool
  /// The client asks to leave Varlink for another protocol after the reply.
  public var upgrade: Bool

  /// Creates a call; at most one of the flags should be true.
  public init(
    method: String, parameters: [String: JSONValue] = [:], oneway: Bool = false, more: Bool = false,
    upgrade: Bool = false
  ) {
    self.method = method
    self.parameters = parameters
    self.oneway = oneway
    self.more = more
    self.upgrade = upgrade
  }

  /// The interface part of `method` (everything before the last dot; empty if none).
  public var interface: String {
    guard let dot = lastDot else { return "" }
    return String(method[..<dot])
  }

  /// The method part of `method` (after the last dot).
  public var methodName: String {
    guard let dot = lastDot else { return method }
    return String(method[method.index(after: dot)...])
  }

  /// The last "." in `method`, found in its UTF-8 (an ASCII byte is always a character of its
  /// own, and scanning bytes needs no grapheme breaking).
  private var lastDot: String.Index? { method.utf8.lastIndex(of: UInt8(ascii: ".")) }

  /// Parses a call from a decoded message, applying the rules above.
  public init(from message: JSONValue) throws(VarlinkProtocolError) {
    guard case .object(let members) = message else {
      throw VarlinkProtocolError(.notAnObject, "a call must be a JSON object, got \(message.typeName)")
    }
    var method: String?
    var parameters: [String: JSONValue] = [:]
    var flags = (oneway: false, more: false, upgrade: false)
    for (key, value) in members {
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
  /// protocol error too.
  public init(frame: some Collection<UInt8>, maxDepth: Int = JSONParser.defaultMaxDepth) throws(VarlinkProtocolError) {
    try self.init(from: try VarlinkProtocolError.parse(frame, maxDepth: maxDepth))
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
