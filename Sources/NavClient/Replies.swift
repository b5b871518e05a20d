import NavModel
import NavWire
import Varlink

/// The replies of any streaming call (`"more": true`), as parameter objects, until the final one.
///
/// Without a reconnecting `FollowPolicy`, a dropped connection throws `.disconnected`. For
/// Subscribe prefer `updates`, which resumes.
public struct Replies: AsyncSequence, Sendable {
  /// Each element is one reply's parameters object.
  public typealias Element = JSONValue

  let call: VarlinkCall
  let socketPath: String
  let connectTimeout: Duration?
  let backoff: Backoff.Configuration
  let follow: FollowPolicy

  /// Makes the call on a new connection.
  public func makeAsyncIterator() -> Iterator {
    Iterator(
      driver: StreamDriver(
        RawStream(call: call), socketPath: socketPath, connectTimeout: connectTimeout, backoff: backoff,
        follow: follow))
  }

  /// Pulls the replies of one call.
  public struct Iterator: AsyncIteratorProtocol {
    let driver: StreamDriver<RawStream>

    /// The next reply's parameters; nil after the final reply or cancellation. An error reply throws `.remote`.
    public mutating func next() async throws -> JSONValue? {
      try await driver.next()
    }
  }
}

/// Passes replies through unchanged and ends with the one that does not continue; reconnects
/// (makes the same call again) only as its `FollowPolicy` says.
struct RawStream: StreamReducer {
  let call: VarlinkCall

  var reconnects: Bool { true }

  func openingCall() -> VarlinkCall { call }

  func received(_ reply: VarlinkReply) throws(NavClientError) -> StreamStep<JSONValue> {
    reply.continues ? .yield(.object(reply.parameters)) : .finish(.object(reply.parameters))
  }
}
