import CNavSys
import NavModel
import Varlink

#if canImport(Glibc)
  import Glibc
#endif

extension ServerLoop {
  /// Accepts until the backlog is empty (EAGAIN). Past `maxConnections`, or past
  /// `maxConnectionsPerUser` for the peer's uid, the connection is still accepted — so
  /// the client is never left hanging in the backlog — answered its refusal (`io.navd.LimitExceeded`)
  /// (naming the limit) at once and closed (`ServerLoop+Reject.swift`).
  func acceptAll() {
    while !stopping, listenFD >= 0 {
      let fd: Int32
      do {
        switch try Syscall.accept(listenFD) {
        case .wouldBlock: return
        case .done(let accepted): fd = accepted
        }
      } catch {
        switch error.errno {
        case ECONNABORTED, EPROTO: continue
        case EMFILE, ENFILE:
          if shedWithSpareDescriptor(error) { continue }
          return
        default:
          log.error("accept failed: \(error)")
          return
        }
      }
      counters.accepted.add(1, ordering: .relaxed)
      register(fd)
    }
  }

  @discardableResult
  func register(_ fd: Int32) -> Connection? {
    // Without credentials the peer cannot be authorised later; use "nobody" values.
    let peer =
      (try? Syscall.peerCredentials(fd)) ?? PeerCredentials(pid: 0, uid: UInt32.max, gid: UInt32.max)
    let id = Self.nextConnectionID()
    let open = counters.open.load(ordering: .relaxed)
    let overLimit: [UInt8]?
    if open >= configuration.maxConnections {
      overLimit = limitExceededFrame(
        limit: "connections", max: configuration.maxConnections, value: open + 1,
        message: "\(configuration.product) serves at most \(configuration.maxConnections) connections at a time; "
          + "close idle connections and retry")
    } else if !perUser.admit(id, uid: peer.uid) {
      let max = perUser.maxConnections
      overLimit = limitExceededFrame(
        limit: "connectionsPerUser", max: max, value: max + 1,
        message: "\(configuration.product) serves at most \(max) connections of one user (uid \(peer.uid)) at a time; "
          + "close idle connections and retry")
    } else {
      overLimit = nil
    }
    let machine: Connection.StateMachine
    if let overLimit {
      counters.rejected.add(1, ordering: .relaxed)
      guard counters.rejecting.load(ordering: .relaxed) < configuration.maxRejectedConnections else {
        rejectAtOnce(fd, frame: overLimit, peer: peer)
        return nil
      }
      machine = Connection.StateMachine(limits: limits, rejectingWith: overLimit, now: .now)
    } else {
      machine = Connection.StateMachine(limits: limits)
    }
    let counts = overLimit == nil
    let connection = Connection(id: id, fd: fd, peer: peer, machine: machine, countsTowardLimit: counts)
    do {
      try epoll.add(fd, token: id, interest: connection.interest)
    } catch {
      log.error("epoll_ctl(ADD) failed for a new connection: \(error)")
      perUser.closed(id)
      Syscall.close(fd)
      return nil
    }
    connections[id] = connection
    if counts {
      counters.open.add(1, ordering: .relaxed)
      log.debug("connection accepted", connection.logFields)
    } else {
      counters.rejecting.add(1, ordering: .relaxed)
      markDirty(connection)  // its refusal is already queued: write it this pass
      log.info("connection over the limit; answered the refusal, closing after its first call", connection.logFields)
    }
    return connection
  }

  /// The service's refusal reply (`ServerConfiguration.refusal`) for a connection over `limit`.
  func limitExceededFrame(limit: String, max: Int, value: Int, message: String) -> [UInt8] {
    configuration.refusal(ConnectionRefusal(limit: limit, max: max, value: value, message: message))
  }

  /// Closes `connection` when its uid has more than `maxOutputBytesPerUser` queued in all
  /// and this connection is behind (more than the low-water mark waiting): the readers
  /// that keep up are spared, the ones holding the memory go.
  ///
  /// What waits counts the stream source's queue too (`ReplySource.queuedBytes`: a
  /// WatchActions watcher's activations, a subscriber's updates), read only while output
  /// waits: a stream with none pulls its queue as soon as it is signalled.
  func enforceOutputQuota(_ connection: Connection) {
    guard !connection.machine.isClosed else { return }
    let output = connection.machine.output.count
    let pending = output == 0 ? 0 : output + connection.machine.streamQueuedBytes
    // Unchanged and at most the low-water mark: the count stays and this one is spared
    // whatever the total, so the tables are not touched (most flushes of a subscriber
    // that keeps up: it wrote everything, as the last time).
    if pending == connection.outputCounted, pending <= limits.outputLowWaterBytes { return }
    connection.outputCounted = pending
    guard perUser.outputQueued(connection.id, bytes: pending), pending > limits.outputLowWaterBytes else { return }
    let reason =
      "uid \(connection.peer.uid) has more than \(perUser.maxOutputBytes) bytes of output queued on all its "
      + "connections (limit outputBytesPerUser); closing this one, which is not reading"
    drive(connection, connection.machine.closeRequested(.requested(reason)))
  }
}
