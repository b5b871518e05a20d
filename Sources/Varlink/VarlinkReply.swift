import NavModel

/// One Varlink reply: `{"parameters": {…}, "continues": true?, "error": "iface.Name"?}`.
///
/// The server encodes straight to bytes (`encode(into:)`), NUL-terminated, so a reply
/// costs one JSON write and no intermediate `String`. An error reply never carries
/// `continues`: it always ends the call.
public struct VarlinkReply: Sendable, Hashable {
  /// The reply's (or the error's) parameters.
  public var parameters: [String: JSONValue]
  /// More replies follow for this call (only for calls made with `more`).
  public var continues: Bool
  /// Fully qualified error name when the call failed.
  public var error: String?

  /// Creates a reply; `continues` is ignored when `error` is set.
  public init(parameters: [String: JSONValue] = [:], continues: Bool = false, error: String? = nil) {
    self.parameters = parameters
    self.continues = error == nil ? continues : false
    self.error = error
  }

  /// An error reply.
  public static func error(_ name: String, _ parameters: [String: JSONValue] = [:]) -> VarlinkReply {
    VarlinkReply(parameters: parameters, error: name)
  }

  /// Appends the reply as a NUL-terminated frame.
  public func encode(into out: inout [UInt8]) {
    Self.encode(parameters: .object(parameters), continues: continues, error: error, into: &out)
  }

  /// The reply as a NUL-terminated frame.
  public func encoded() -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(128)
    encode(into: &out)
    return out
  }

  /// Appends a reply frame built from a parameters *value* without first copying it into
  /// a dictionary. `null` parameters are written as `{}`; any other non-object is a
  /// programming error (asserted) and is also written as `{}`.
  public static func encode(parameters: JSONValue, continues: Bool, error: String?, into out: inout [UInt8]) {
    out.append(contentsOf: #"{"parameters":"#.utf8)
    switch parameters {
    case .object: JSONWriter.write(parameters, into: &out)
    case .null: out.append(contentsOf: "{}".utf8)
    default:
      assertionFailure("Varlink reply parameters must be an object, got \(parameters.typeName)")
      out.append(contentsOf: "{}".utf8)
    }
    if let error {
      out.append(contentsOf: #","error":"#.utf8)
      JSONWriter.writeString(error, into: &out)
    } else if continues {
      out.append(contentsOf: #","continues":true"#.utf8)
    }
    out.append(UInt8(ascii: "}"))
    out.append(0)
  }

  /// Appends a continuing reply frame whose parameters are an object already encoded as JSON
  /// (a stream frame encoded once and shared by every subscriber of a view), with the same
  /// key order as every other reply: `{"parameters":…,"continues":true}`.
  public static func encodeContinuing(encodedParameters: some Collection<UInt8>, into out: inout [UInt8]) {
    out.append(contentsOf: #"{"parameters":"#.utf8)
    out.append(contentsOf: encodedParameters)
    out.append(contentsOf: #","continues":true}"#.utf8)
    out.append(0)
  }

  /// Encodes a reply frame; convenience over `encode(parameters:continues:error:into:)`.
  public static func encoded(parameters: JSONValue, continues: Bool = false, error: String? = nil) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(128)
    encode(parameters: parameters, continues: continues, error: error, into: &out)
    return out
  }

  /// A final reply frame of a typed reply, its parameters written by `encodeParameters(into:)`:
  /// the same bytes as `encoded(parameters: reply.parameters)`.
  public static func encoded(_ reply: some VarlinkReplyParameters) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(128)
    out.append(literal: #"{"parameters":"#)
    reply.encodeParameters(into: &out)
    out.append(UInt8(ascii: "}"))
    out.append(0)
    return out
  }

  /// Parses a reply (clients). Unknown unprefixed keys are a protocol error, as for calls;
  /// reverse-domain keys are ignored; `continues` together with `error` is rejected.
  public init(from message: JSONValue) throws(VarlinkProtocolError) {
    guard case .object(let members) = message else {
      throw VarlinkProtocolError(.notAnObject, "a reply must be a JSON object, got \(message.typeName)")
    }
    var parameters: [String: JSONValue] = [:]
    var continues = false
    var error: String?
    for (key, value) in members {
      switch key {
      case "parameters":
        switch value {
        case .null: break
        case .object(let object): parameters = object
        default:
          throw VarlinkProtocolError(
            .wrongType(key: key), "\"parameters\" must be an object or null, got \(value.typeName)")
        }
      case "continues":
        switch value {
        case .bool(let b): continues = b
        case .null: continues = false
        default:
          throw VarlinkProtocolError(.wrongType(key: key), "\"continues\" must be a boolean, got \(value.typeName)")
        }
      case "error":
        switch value {
        case .string(let name): error = name
        case .null: error = nil
        default:
          throw VarlinkProtocolError(.wrongType(key: key), "\"error\" must be a string, got \(value.typeName)")
        }
      default:
        if key.contains(".") { continue }
        throw VarlinkProtocolError(.unknownKey(key), "unknown top-level key \"\(key)\" in reply")
      }
    }
    if error != nil, continues {
      throw VarlinkProtocolError(.continuesWithError, "an error reply cannot continue")
    }
    self.init(parameters: parameters, continues: continues, error: error)
  }

  /// Parses a reply from one frame's bytes (without the NUL).
  public init(frame: some Collection<UInt8>, maxDepth: Int = JSONParser.defaultMaxDepth) throws(VarlinkProtocolError) {
    try self.init(from: try VarlinkProtocolError.parse(frame, maxDepth: maxDepth))
  }
}
