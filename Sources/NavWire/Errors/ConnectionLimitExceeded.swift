import NavModel

/// `io.navd.LimitExceeded` as navd answers a connection it turns away before
/// serving it (PROTOCOL.md §2, "When navd turns a connection away"): `field` is
/// `connections`, and `value` is the count that passed the limit, as a number.
public struct ConnectionLimitExceeded: Sendable, Hashable {
  /// `connections`, `connectionsPerUser` or `fileDescriptors`.
  public var limit: String
  /// The limit's value.
  public var max: Int
  /// The count the connection would have made.
  public var value: Int
  /// One sentence for people.
  public var message: String

  /// The refusal.
  public init(limit: String, max: Int, value: Int, message: String) {
    self.limit = limit
    self.max = max
    self.value = value
    self.message = message
  }

  /// The error's parameters.
  public var parameters: JSONValue {
    [
      "limit": .string(limit), "field": "connections", "max": max.json, "value": value.json,
      "message": .string(message),
    ]
  }

  /// The whole reply frame, NUL included.
  public var frame: [UInt8] {
    VarlinkReply.encoded(parameters: parameters, error: NavErrorName.limitExceeded.rawValue)
  }
}
