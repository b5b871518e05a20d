import NavModel
import Varlink

/// Why a call's parameters were refused: a bad parameter as such (InvalidParameter),
/// or a value inside one that breaks a rule (a `NavError`, such as a malformed op).
public enum CallError: Error, VarlinkError, Hashable {
  /// `org.varlink.service.InvalidParameter`.
  case invalidParameter(InvalidParameter)
  /// An io.navd error (InvalidMutation, LimitExceeded, …).
  case rejected(NavError)

  /// Shorthand for `.invalidParameter(InvalidParameter(parameter:))`.
  public static func invalid(_ parameter: String) -> CallError {
    .invalidParameter(InvalidParameter(parameter: parameter))
  }

  /// The Varlink error name of the reply that answers it.
  public var errorName: String {
    switch self {
    case .invalidParameter: VarlinkServiceNames.invalidParameter
    case .rejected(let error): error.errorName
    }
  }

  /// The Varlink error reply's parameters.
  public var errorParameters: JSONValue {
    switch self {
    case .invalidParameter(let error): error.parameters
    case .rejected(let error): error.parameters
    }
  }
}

/// A reply that does not have the shape its method promises: which reply and which field.
///
/// Clients report it as a protocol violation; the text names the method and the field.
public struct MalformedReply: Error, Sendable, Hashable, CustomStringConvertible {
  /// `GetState reply: "version" must be a non-negative integer, got string`.
  public var description: String

  /// A malformed-reply error with `description`.
  public init(_ description: String) { self.description = description }
}
