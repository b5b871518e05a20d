import NavModel

/// A Varlink error reply as a typed value: what a handler fails a call with
/// (`CallContext.fail`), each error a type with its name and fields.
public protocol VarlinkError: Sendable {
  /// The qualified error name, e.g. `org.varlink.service.InvalidParameter`.
  var errorName: String { get }
  /// The error reply's parameters object.
  var errorParameters: JSONValue { get }
}

extension VarlinkError {
  /// The whole error reply frame, NUL included.
  public var replyFrame: [UInt8] { VarlinkReply.encoded(parameters: errorParameters, error: errorName) }
}

/// `org.varlink.service.MethodNotFound`: the interface has no method of that name.
public struct MethodNotFound: VarlinkError, Hashable {
  /// The method the call named.
  public var method: String

  /// The error for `method`.
  public init(method: String) { self.method = method }

  /// `org.varlink.service.MethodNotFound`.
  public var errorName: String { VarlinkServiceNames.methodNotFound }
  /// `{"method": …}`.
  public var errorParameters: JSONValue { ["method": .string(method)] }
}

/// `org.varlink.service.ExpectedMore`: the method only streams, and the call lacked `"more": true`.
public struct ExpectedMore: VarlinkError, Hashable {
  /// The error.
  public init() {}

  /// `org.varlink.service.ExpectedMore`.
  public var errorName: String { VarlinkServiceNames.expectedMore }
  /// No parameters.
  public var errorParameters: JSONValue { [:] }
}

/// `io.navd.ServerStopping`: the final reply of every stream, and the answer to every call still
/// waiting, when navd stops (PROTOCOL.md "Stopping and restarting"). Sent by the daemon, not the
/// engine, so it has no `NavError.Code`.
public struct ServerStopping: VarlinkError, Hashable {
  /// `io.navd.ServerStopping`.
  public static let name = "io.navd.ServerStopping"
  /// One sentence for a person.
  public var message: String
  /// Whether a new navd takes the socket over (subscribe again with `sinceVersion` and `epoch`).
  public var restarting: Bool

  /// The error navd sends when it stops (`restarting: false`) or restarts.
  public init(message: String, restarting: Bool) {
    self.message = message
    self.restarting = restarting
  }

  /// `io.navd.ServerStopping`.
  public var errorName: String { Self.name }
  /// `{"message": …, "restarting": …}`.
  public var errorParameters: JSONValue { ["message": .string(message), "restarting": .bool(restarting)] }
}
