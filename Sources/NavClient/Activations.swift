import NavModel
import NavWire
import Varlink

/// The activations of a scene's bar button items, as they happen (`WatchActions`).
///
/// Each iteration opens its own connection. When navd goes away it reconnects with backoff;
/// activations made while disconnected are not replayed (navd keeps no log of them).
/// Cancelling the consuming task, or leaving the loop, closes the connection.
public struct Activations: AsyncSequence, Sendable {
  /// Each element is one activation.
  public typealias Element = Activation

  let scene: String
  let socketPath: String
  let connectTimeout: Duration?
  let backoff: Backoff.Configuration
  let follow: FollowPolicy

  /// Starts watching.
  public func makeAsyncIterator() -> Iterator {
    Iterator(
      driver: StreamDriver(
        ActionWatcher(scene: scene), socketPath: socketPath, connectTimeout: connectTimeout, backoff: backoff,
        follow: follow))
  }

  /// Pulls activations from one watch.
  public struct Iterator: AsyncIteratorProtocol {
    let driver: StreamDriver<ActionWatcher>

    /// The next activation; nil after cancellation.
    public mutating func next() async throws -> Activation? {
      try await driver.next()
    }
  }
}

/// `WatchActions` replies as `Activation`s.
struct ActionWatcher: StreamReducer {
  let scene: String

  var reconnects: Bool { true }

  func openingCall() -> VarlinkCall { WatchActionsCall(scene: scene).varlinkCall }

  /// `watching` (the watch is registered) and `dropped` (activations navd could not
  /// queue while this watcher was not reading) carry no activation.
  func received(_ reply: VarlinkReply) throws(NavClientError) -> StreamStep<Activation> {
    let frame: WatchFrame
    do {
      frame = try WatchFrame(parameters: .object(reply.parameters))
    } catch {
      throw .protocolViolation(error.description)
    }
    switch frame {
    case .activation(let activation): return .yield(activation)
    case .watching, .dropped, .unknown: return .skip
    }
  }
}
