import NavModel

/// What the call-rejected log line says of one error reply: one sentence and the fields its
/// parameters carry. The server knows the Varlink envelope only; the service it serves says
/// what its errors' parameters mean (`ServerConfiguration.rejectionSummary`).
public struct RejectionSummary: Sendable {
  /// The sentence after `call rejected: `.
  public var message: String
  /// Fields for the record, after `method` and `error` and before the client's.
  public var fields: [(key: String, value: String)]

  /// A summary.
  public init(message: String, fields: [(key: String, value: String)] = []) {
    self.message = message
    self.fields = fields
  }

  /// Any Varlink service's error: its name as the sentence, and each string parameter by name,
  /// in key order (org.varlink.service's are `interface`, `method` and `parameter`).
  public static func generic(error: String, parameters: JSONValue) -> RejectionSummary {
    let members = (parameters.objectValue ?? [:]).sorted { $0.key < $1.key }
    return RejectionSummary(
      message: error, fields: members.compactMap { key, value in value.stringValue.map { (key, $0) } })
  }
}
