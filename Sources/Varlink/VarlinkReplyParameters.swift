import NavModel

/// A reply's parameters as a typed value that can write itself: what a server sends
/// (`CallContext.reply`) without knowing the interface the reply belongs to.
public protocol VarlinkReplyParameters: Sendable {
  /// The reply's parameters object.
  var parameters: JSONValue { get }
  /// Appends the parameters object as JSON: the bytes `JSONWriter` writes for `parameters`.
  /// A reply sent once per call writes them without building the value first.
  func encodeParameters(into out: inout [UInt8])
}

extension VarlinkReplyParameters {
  /// Writes `parameters` with `JSONWriter`.
  public func encodeParameters(into out: inout [UInt8]) { JSONWriter.write(parameters, into: &out) }
}
