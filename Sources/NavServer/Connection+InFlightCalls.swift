extension Connection {
  /// The calls of one connection that were dispatched and whose replies are not yet
  /// queued for writing, oldest first.
  ///
  /// Calls may end in any order (a read can finish before an earlier write is stored),
  /// but Varlink matches replies to calls by position, so an answer that arrives before
  /// an earlier call's is held here until every earlier one has been taken. Holds at most
  /// `Limits.maxCallsInFlight` calls; the bytes of the answers it holds count towards the
  /// connection's output limits (`bufferedBytes`).
  struct InFlightCalls {
    /// One dispatched call and, once it has ended, its reply (empty for oneway).
    struct Call {
      let serial: UInt64
      let oneway: Bool
      let more: Bool
      /// Runs alone: dispatched only with nothing in flight, and nothing after it until it ends.
      let alone: Bool
      var reply: [UInt8]?
    }

    private var calls: [Call] = []
    /// Bytes of the replies held for calls that ended before an earlier one.
    private(set) var bufferedBytes = 0

    /// Calls dispatched and not yet taken.
    var count: Int { calls.count }
    var isEmpty: Bool { calls.isEmpty }
    /// Serials of the calls in flight, oldest first (tests, logs).
    var serials: [UInt64] { calls.map(\.serial) }

    /// Whether a call that runs alone (one made with `more`, or one the service does not
    /// let overlap) is among them: nothing is dispatched after it until it has ended.
    var holdsLoneCall: Bool { calls.contains { $0.alone && $0.reply == nil } }

    /// The unanswered call `serial`, if it is in flight.
    func unanswered(_ serial: UInt64) -> Call? {
      guard let index = calls.firstIndex(where: { $0.serial == serial }), calls[index].reply == nil else { return nil }
      return calls[index]
    }

    /// Records that call `serial` was dispatched (serials increase).
    mutating func dispatched(serial: UInt64, oneway: Bool, more: Bool, alone: Bool) {
      calls.append(Call(serial: serial, oneway: oneway, more: more, alone: alone || more, reply: nil))
    }

    /// Records call `serial`'s reply (dropped for oneway). False when the call is not in
    /// flight or already answered: a late or duplicate answer.
    mutating func answered(serial: UInt64, reply: [UInt8]) -> Bool {
      guard let index = calls.firstIndex(where: { $0.serial == serial }), calls[index].reply == nil else {
        return false
      }
      let kept = calls[index].oneway ? [] : reply
      calls[index].reply = kept
      if index > 0 { bufferedBytes += kept.count }
      return true
    }

    /// Removes the oldest call if it has ended and returns its reply, in call order.
    mutating func takeAnswered() -> [UInt8]? {
      guard let reply = calls.first?.reply else { return nil }
      calls.removeFirst()
      // The new oldest call's reply, if any, was counted as held back: it no longer is.
      if let next = calls.first?.reply { bufferedBytes -= next.count }
      return reply
    }

    /// Removes call `serial`, which is the only one in flight, when its stream starts.
    mutating func streamStarted(serial: UInt64) {
      precondition(
        calls.count == 1 && calls[0].serial == serial,
        "connection: stream of call \(serial) started with calls \(serials) in flight")
      calls.removeAll(keepingCapacity: true)
    }
  }
}
