import NavModel
import Varlink

extension ConnectionRefusal {
  /// `io.navd.LimitExceeded` as navd answers a connection it turns away before
  /// serving it (PROTOCOL.md §2, "When navd turns a connection away"): `field` is
  /// `connections`, and `value` is the count that passed the limit, as text like every
  /// io.navd error's `value` (the IDL's `value: ?string`).
  public var limitExceededParameters: JSONValue {
    [
      "limit": .string(limit), "field": "connections", "max": max.json, "value": .string(String(value)),
      "message": .string(message),
    ]
  }

  /// The whole `io.navd.LimitExceeded` reply frame, NUL included.
  public var limitExceededFrame: [UInt8] {
    VarlinkReply.encoded(parameters: limitExceededParameters, error: NavErrorName.limitExceeded.rawValue)
  }
}
