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

/// `org.varlink.service.InvalidParameter`: a call parameter that is unknown, missing,
/// of the wrong JSON type or out of range; `parameter` names it.
public struct InvalidParameter: Error, VarlinkError, Hashable {
  /// The parameter's name.
  public var parameter: String

  /// The error for `parameter`.
  public init(parameter: String) { self.parameter = parameter }

  /// The error reply's parameters.
  public var parameters: JSONValue { ["parameter": .string(parameter)] }

  /// `org.varlink.service.InvalidParameter`.
  public var errorName: String { VarlinkServiceNames.invalidParameter }
  /// `parameters`.
  public var errorParameters: JSONValue { parameters }

  /// Reads the error reply's parameters; nil when `parameter` is missing.
  public init?(parameters: JSONValue) {
    guard let name = parameters["parameter"]?.stringValue else { return nil }
    self.parameter = name
  }
}
