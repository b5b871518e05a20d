/// A graceful stop in two steps, so that no acknowledged call is missing from a stream:
/// first every connection stops reading and dispatching while the calls in progress
/// finish (a mutation's update reaches the subscribers' queues before its reply); then
/// every stream gets what its source holds and the final reply, and every connection
/// closes once its output is written.
extension ServerLoop {
  func beginStop(finalReply: [UInt8], timeout: Duration) {
    guard pendingStop == nil, drainDeadline == nil, handOver == nil else { return }
    pendingStop = (finalReply, .now + timeout)
    tickFasterWhileStopping()
    closeListener()
    log.info("stopping: no new connections; finishing calls in progress", [("connections", "\(connections.count)")])
    for connection in Array(connections.values) {
      connection.machine.handOverRequested()
      markDirty(connection)
    }
  }

  /// Ends the streams once no call is in progress (or at the deadline); returns whether it did.
  func progressStop(now: ContinuousClock.Instant) -> Bool {
    guard let (finalReply, deadline) = pendingStop else { return false }
    guard now >= deadline || !connections.values.contains(where: \.machine.hasCallInProgress) else { return false }
    pendingStop = nil
    drainDeadline = deadline
    for connection in Array(connections.values) {
      drive(connection, connection.machine.serverStopping(finalReply: finalReply))
      if connection.attached { markDirty(connection) }
    }
    return true
  }

  /// Ticks at a quarter of `stopStallTimeout` from now on: a client that does not read is
  /// closed within that bound of it, not of the usual tick (up to a second).
  func tickFasterWhileStopping() {
    tickInterval = max(.milliseconds(10), min(tickInterval, configuration.stopStallTimeout / 4))
    nextTick = min(nextTick, .now + tickInterval)
  }
}
