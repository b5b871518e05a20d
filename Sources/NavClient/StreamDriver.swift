import NavModel
import NavWire
import Varlink

/// What a stream does with each reply: the protocol-specific half of a subscription.
protocol StreamReducer: Sendable {
  associatedtype Element: Sendable

  /// Whether to reconnect (with backoff) when navd goes away, rather than end with `.disconnected`.
  var reconnects: Bool { get }

  /// The call that (re)opens the stream, given everything received so far.
  func openingCall() -> VarlinkCall

  /// Digests one non-error reply.
  mutating func received(_ reply: VarlinkReply) throws(NavClientError) -> StreamStep<Element>
}

/// What a `StreamReducer` wants after a reply.
enum StreamStep<Element> {
  /// Hand this to the consumer.
  case yield(Element)
  /// Hand this to the consumer (if any) and end the sequence.
  case finish(Element?)
  /// Drop the connection and reopen at once with a fresh `openingCall()` (a resync).
  case restart
  /// Nothing for the consumer; wait for the next reply.
  case skip
}

/// Runs one streaming call on its own connection: connects, reconnects with backoff, and
/// feeds replies through the reducer, one `next()` at a time.
///
/// Pull-based: nothing is read ahead of the consumer beyond the connection's small buffer,
/// so a slow consumer leaves the data in navd, which coalesces it. Cancelling the consuming
/// task, or dropping the iterator, closes the connection.
actor StreamDriver<Reducer: StreamReducer> {
  private var reducer: Reducer
  private let socketPath: String
  private let connectTimeout: Duration?
  private var backoff: Backoff
  private var connection: ClientConnection?
  private var delayBeforeConnect: Duration?
  private var connectedOnce = false
  private var finished = false
  private let connectionObserver: StreamConnectionObserver?
  /// What `connectionObserver` was last told; nil before the first connection.
  private var reportedState: StreamConnectionState?
  private let follow: FollowPolicy
  /// When navd went away, while the stream has not had a reply since.
  private var lostSince: ContinuousClock.Instant?

  init(
    _ reducer: Reducer, socketPath: String, connectTimeout: Duration?, backoff: Backoff.Configuration,
    follow: FollowPolicy = .forever, connectionObserver: StreamConnectionObserver? = nil
  ) {
    self.reducer = reducer
    self.socketPath = socketPath
    self.connectTimeout = connectTimeout
    self.backoff = Backoff(backoff)
    self.connectionObserver = connectionObserver
    self.follow = follow
  }

  private var reconnects: Bool { reducer.reconnects && follow.reconnects }

  deinit {
    connection?.close()
  }

  /// The next element; nil when the stream ended or the consuming task was cancelled.
  ///
  /// The first connection failing throws (`.unreachable`: navd is not there at all); once
  /// connected, a reconnecting stream retries forever with backoff.
  func next() async throws -> Reducer.Element? {
    while !finished {
      if Task.isCancelled { return end() }
      let connection: ClientConnection
      if let current = self.connection {
        connection = current
      } else {
        guard let opened = try await open() else { continue }
        connection = opened
      }
      let reply: VarlinkReply?
      do {
        reply = try await connection.nextStreamReply()
      } catch {
        drop()
        if Task.isCancelled { return end() }
        if let error = error as? NavClientError, error == .disconnected, reconnects {
          lost()
          continue
        }
        finished = true
        throw error
      }
      guard let reply else {
        // navd ended the stream by itself (shutting down, say): like a disconnect.
        drop()
        guard reconnects else { return end() }
        lost()
        continue
      }
      if reply.error == ServerStopping.name, reconnects {
        // navd is stopping or restarting (PROTOCOL.md "Stopping and restarting"): resume
        // like after a disconnect, from the last version seen.
        drop()
        lost()
        continue
      }
      if let name = reply.error {
        end()
        throw NavClientError.remote(name: name, parameters: .object(reply.parameters))
      }
      backoff.reset()
      lostSince = nil
      let step: StreamStep<Reducer.Element>
      do {
        step = try reducer.received(reply)
      } catch {
        end()
        throw error
      }
      switch step {
      case .yield(let element): return element
      case .finish(let element):
        end()
        if let element { return element }
      case .restart: drop()
      case .skip: continue
      }
    }
    return nil
  }

  /// Waits out the backoff and connects; nil means "try again" (a transient failure was absorbed).
  private func open() async throws -> ClientConnection? {
    if let delay = delayBeforeConnect {
      delayBeforeConnect = nil
      try? await Task.sleep(for: delay)
      if Task.isCancelled { return nil }
    }
    let opened: ClientConnection
    do {
      opened = try await ClientConnection.connect(to: socketPath, deadline: Deadline(timeout: connectTimeout).instant)
    } catch let error as NavClientError where connectedOnce && reconnects && Self.isTransient(error) {
      if let lostSince, let limit = follow.giveUpAfter, ContinuousClock.now - lostSince >= limit {
        finished = true
        throw NavClientError.gone(socketPath: socketPath, after: limit)
      }
      delayBeforeConnect = backoff.next()
      return nil
    } catch is CancellationError {
      return nil
    } catch {
      finished = true
      throw error
    }
    opened.startStream(reducer.openingCall())
    if Task.isCancelled {
      opened.close()
      return nil
    }
    connection = opened
    connectedOnce = true
    report(.connected)
    return opened
  }

  /// Tells the observer of a change (only of a change: a failed reconnection attempt is still
  /// `.reconnecting`).
  private func report(_ state: StreamConnectionState) {
    guard let connectionObserver, reportedState != state else { return }
    reportedState = state
    connectionObserver(state)
  }

  private static func isTransient(_ error: NavClientError) -> Bool {
    switch error {
    case .unreachable, .disconnected, .timedOut, .system: true
    case .remote, .protocolViolation, .requestTooLarge, .gone: false
    }
  }

  /// navd went away: wait out the next backoff delay, and start the give-up clock if it is not running.
  private func lost() {
    report(.reconnecting)
    if lostSince == nil { lostSince = .now }
    delayBeforeConnect = backoff.next()
  }

  private func drop() {
    connection?.close()
    connection = nil
  }

  @discardableResult
  private func end() -> Reducer.Element? {
    finished = true
    drop()
    return nil
  }
}
