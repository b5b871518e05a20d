import CNavSys
import NavModel
import Varlink

/// Restarts that keep clients: the loop stops accepting, lets calls finish and output
/// drain, then gives the listener and every connection it can carry to its caller
/// (which passes them to the next process); the others get the final reply.
extension ServerLoop {
  func beginHandOver(finalReply: [UInt8], timeout: Duration, receipt: HandOverReceipt) {
    guard handOver == nil, drainDeadline == nil else { return }
    handOver = PendingHandOver(finalReply: finalReply, deadline: .now + timeout, receipt: receipt)
    tickFasterWhileStopping()
    if listenFD >= 0 { try? epoll.remove(listenFD) }
    log.info("handing over: finishing calls in progress", [("connections", "\(connections.count)")])
    for connection in Array(connections.values) {
      connection.machine.handOverRequested()
      markDirty(connection)
    }
  }

  /// Hands over once every connection is ready (or at the deadline, carrying those that
  /// are); returns whether it did.
  func progressHandOver(now: ContinuousClock.Instant) -> Bool {
    guard let pending = handOver else { return false }
    let readiness = connections.values.map { ($0, $0.machine.handOverReadiness) }
    let waiting = readiness.contains { if case .notYet = $0.1 { return true } else { return false } }
    guard !waiting || now >= pending.deadline else { return false }
    handOver = nil
    var carried: [CarriedConnection] = []
    for (connection, state) in readiness {
      switch state {
      case .idle:
        carried.append(CarriedConnection(fd: connection.fd, resume: nil))
        release(connection)
      case .streaming(let source):
        if let call = connection.handlerCall, let extra = source.handOverParameters() {
          let resume = VarlinkCall(
            method: call.method, parameters: call.parameters.merging(extra) { $1 }, more: true)
          carried.append(CarriedConnection(fd: connection.fd, resume: resume))
          source.cancelled()
          release(connection)
        } else {
          drive(connection, connection.machine.serverStopping(finalReply: pending.finalReply))
        }
      case .notYet, .cannotCarry:
        drive(connection, connection.machine.serverStopping(finalReply: pending.finalReply))
      }
      if connection.attached { markDirty(connection) }
    }
    log.info("handing over", [("carried", "\(carried.count)"), ("ending", "\(connections.count)")])
    pending.receipt.fulfil(HandOver(listenerFD: listenFD, connections: carried))
    // The listener now belongs to the caller: neither closed nor unlinked here.
    listenFD = -1
    ownedSocketFile = nil
    drainDeadline = pending.deadline
    return true
  }

  /// Forgets a carried connection without closing its socket.
  private func release(_ connection: Connection) {
    guard connections.removeValue(forKey: connection.id) != nil else { return }
    handler.connectionClosed(connection.id)
    connection.attached = false
    if connection.registered { try? epoll.remove(connection.fd) }
    connection.registered = false
    connection.context = nil
    if connection.countsTowardLimit {
      counters.open.subtract(1, ordering: .relaxed)
    } else {
      counters.rejecting.subtract(1, ordering: .relaxed)
    }
    log.debug("connection handed over", connection.logFields)
  }

  /// Serves the connections a predecessor handed over; a stream's call is replayed as if
  /// the client had just sent it.
  func adoptConnections() {
    for adopted in configuration.adopted {
      _ = cnav_set_nonblocking(adopted.fd)
      guard let connection = register(adopted.fd) else { continue }
      if let call = adopted.resume {
        drive(connection, connection.machine.bytesReceived(call.encoded(), now: .now))
      }
      markDirty(connection)
    }
  }
}
