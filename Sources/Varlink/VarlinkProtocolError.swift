import NavModel

/// A message that breaks the Varlink framing rules (not an application error).
///
/// The Varlink specification and systemd treat these as fatal for the connection:
/// the peer is out of sync or not speaking Varlink, so there is nobody to answer.
/// The server logs the reason once and closes; a client drops the connection.
public struct VarlinkProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was wrong, for tests and logs.
  public enum Kind: Hashable, Sendable {
    /// The frame is not valid JSON (includes invalid UTF-8 and too-deep nesting).
    case invalidJSON
    /// The message is valid JSON but not an object.
    case notAnObject
    /// A call without a `method` string.
    case missingMethod
    /// A known key holds the wrong JSON type (`key` names it).
    case wrongType(key: String)
    /// More than one of `oneway`, `more`, `upgrade` is true.
    case conflictingFlags
    /// A top-level key the protocol does not define and that is not reverse-domain prefixed.
    case unknownKey(String)
    /// A reply that says both `error` and `continues: true`.
    case continuesWithError
  }

  /// What was wrong.
  public var kind: Kind
  /// Human-readable detail (for the log line).
  public var detail: String

  /// Creates an error of `kind` with a log-friendly `detail`.
  public init(_ kind: Kind, _ detail: String) {
    self.kind = kind
    self.detail = detail
  }

  /// `Varlink protocol error: detail`, for the log.
  public var description: String { "Varlink protocol error: \(detail)" }
}

extension VarlinkProtocolError {
  /// Parses one frame's bytes as JSON; invalid JSON (bad UTF-8, too deep, trailing
  /// bytes) is a protocol error, since nobody can be answered in that case.
  static func parse(_ frame: some Collection<UInt8>, maxDepth: Int) throws(VarlinkProtocolError) -> JSONValue {
    do {
      return try JSONParser.parse(frame, maxDepth: maxDepth)
    } catch {
      throw VarlinkProtocolError(.invalidJSON, error.description)
    }
  }
}
