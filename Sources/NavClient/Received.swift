import NavModel
import NavWire

/// A typed reply together with its parameters exactly as navd sent them: for a client that
/// reads the reply and also shows it (navctl's `--json` prints `parameters`).
public struct Received<Reply: NavReply>: Sendable {
  /// The reply, decoded.
  public let reply: Reply
  /// The reply's parameters object as received (members this client does not know included).
  public let parameters: JSONValue
}

extension NavClient {
  /// Any io.navd call, typed: the reply decoded (a reply of the wrong shape is
  /// `.protocolViolation`), with the parameters navd sent. Not retried after a dropped
  /// connection: the call may have been carried out.
  public func send<Call: NavCall>(_ call: Call) async throws -> Received<Call.Reply> {
    let parameters = JSONValue.object(
      try await perform(Call.method.qualifiedName, call.parameters.objectValue ?? [:], retryOnDrop: false))
    do {
      return Received(reply: try Call.Reply(parameters: parameters), parameters: parameters)
    } catch {
      throw NavClientError.protocolViolation(error.description)
    }
  }

  /// The frames of a typed streaming call (`WatchActions`, `Export`, …) as parameter objects,
  /// each read with `Call.Reply(parameters:)` by the caller; reconnecting as `follow` says.
  public func replies<Call: NavCall>(_ call: Call, follow: FollowPolicy = .never) -> Replies {
    Replies(call: call.varlinkCall, socketPath: socketPath, connectTimeout: timeout, backoff: backoff, follow: follow)
  }
}
