import NavModel
import NavWire

/// The replies of any streaming call (`"more": true`), as parameter objects, until the final one.
///
/// No reconnection: a dropped connection throws `.disconnected`. For Subscribe and
/// WatchActions prefer `updates` and `actions`, which resume.
public struct Replies: AsyncSequence, Sendable {
  /// Each element is one reply's parameters object.
  public typealias Element = JSONValue

  let call: VarlinkCall
  let socketPath: String
  let connectTimeout: Duration?

  /// Makes the call on a new connection.
  public func makeAsyncIterator() -> Iterator {
    Iterator(
      driver: StreamDriver(
        RawStream(call: call), socketPath: socketPath, connectTimeout: connectTimeout, backoff: .standard))
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

/// Passes replies through unchanged and ends with the one that does not continue.
struct RawStream: StreamReducer {
  let call: VarlinkCall

  var reconnects: Bool { false }

  func openingCall() -> VarlinkCall { call }

  func received(_ reply: VarlinkReply) throws(NavClientError) -> StreamStep<JSONValue> {
    reply.continues ? .yield(.object(reply.parameters)) : .finish(.object(reply.parameters))
  }
}
