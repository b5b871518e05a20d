import NavModel
import Varlink

/// The parameters of one io.navd method, as a typed value with its codec.
///
/// `init(parameters:)` is what navd applies to a call (unknown, missing and mistyped
/// parameters are `InvalidParameter`; rule-breaking values are `NavError`s);
/// `parameters` is what a client sends. Decoding what was encoded gives the same value.
public protocol NavCall: Sendable, Hashable {
  /// What navd answers (for streaming methods: each frame).
  associatedtype Reply: NavReply
  /// The method these are the parameters of.
  static var method: NavMethod { get }
  /// Reads a call's parameters.
  init(parameters: JSONValue) throws(CallError)
  /// The call's parameters object.
  var parameters: JSONValue { get }
}

/// A reply (or stream frame) of an io.navd method, as a typed value with its codec: the
/// Varlink reply parameters it writes (`VarlinkReplyParameters`), and their reader.
public protocol NavReply: VarlinkReplyParameters, Hashable {
  /// Reads a reply's parameters; a missing or mistyped field is `MalformedReply`.
  init(parameters: JSONValue) throws(MalformedReply)
}

extension NavCall {
  /// The call as Varlink sends it (`more` for streaming methods).
  public var varlinkCall: VarlinkCall {
    VarlinkCall(
      method: Self.method.qualifiedName, parameters: parameters.objectValue ?? [:], more: Self.method.descriptor.streams
    )
  }
}
