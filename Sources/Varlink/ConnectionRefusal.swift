import NavModel

/// Why a Varlink server turns a connection away before serving it: the limit it is
/// over, that limit's maximum, the count that passed it, and one sentence for people.
///
/// The server knows the limits; the service it serves names the error the client
/// reads (NavServer's `ServerConfiguration.refusal`): navd answers
/// `io.navd.LimitExceeded` (NavWire's `limitExceededFrame`, PROTOCOL.md §2).
public struct ConnectionRefusal: Sendable, Hashable {
  /// The limit: `connections`, `connectionsPerUser` or `fileDescriptors`.
  public var limit: String
  /// The limit's value.
  public var max: Int
  /// The count the connection would have made.
  public var value: Int
  /// What happened and what to do, for people.
  public var message: String

  /// A refusal.
  public init(limit: String, max: Int, value: Int, message: String) {
    self.limit = limit
    self.max = max
    self.value = value
    self.message = message
  }

  /// A generic server's refusal: `org.varlink.service.PermissionDenied` with the message.
  public static func permissionDenied(_ refusal: ConnectionRefusal) -> [UInt8] {
    VarlinkReply.encoded(parameters: ["message": .string(refusal.message)], error: VarlinkServiceNames.permissionDenied)
  }
}
