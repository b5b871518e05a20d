import CNavSys
import NavModel
import Varlink

#if canImport(Glibc)
  import Glibc
#endif

extension ServerLoop {
  /// Readiness on a client socket: read what is there, note a hang-up, flush later.
  func handleSocketEvent(_ connection: Connection, _ event: Epoll.Event) {
    markDirty(connection)
    if event.isReadable || event.isHangUp { readAvailable(connection) }
    if event.isHangUp, !connection.machine.isClosed {
      // Both directions are gone: nobody can read replies. Stop watching (EPOLLHUP is
      // reported regardless of interest and would spin the loop) and treat it as EOF.
      connection.hungUp = true
      if !connection.machine.inputClosed { drive(connection, connection.machine.peerClosed()) }
    }
  }

  /// Reads until EAGAIN, EOF, or the state machine stops wanting input; at most 16
  /// chunks per pass so one busy client cannot starve the others (epoll is level-triggered).
  private func readAvailable(_ connection: Connection) {
    var chunks = 0
    while connection.machine.readsInput(), chunks < 16 {
      chunks += 1
      let result: IOResult<Int>
      do {
        result = try Syscall.read(connection.fd, into: readBuffer)
      } catch {
        let reason: CloseReason = error.errno == ECONNRESET ? .peerClosed : .ioError(error.description)
        drive(connection, connection.machine.closeRequested(reason))
        return
      }
      switch result {
      case .wouldBlock: return
      case .done(0):
        drive(connection, connection.machine.peerClosed())
        return
      case .done(let n):
        let bytes = UnsafeRawBufferPointer(rebasing: readBuffer[..<n])
        drive(connection, connection.machine.bytesReceived(bytes, now: .now))
        if n < readBuffer.count { return }
      }
    }
  }

  /// Performs `action` and every follow-up step the state machine asks for.
  ///
  /// The action is consumed, not copied: copying it (a call, or a source behind an
  /// existential) cost ~230 instructions per step, three steps per subscriber per publish.
  func drive(_ connection: Connection, _ first: consuming Connection.StateMachine.Action) {
    var action = first
    while true {
      switch consume action {
      case .none:
        return
      case .dispatch(let call, let serial):
        action = route(call, serial: serial, on: connection)
        continue
      case .parse(let frame):
        parser.parse(frame, for: connection.id)
      case .pull(let serial):
        if let context = connection.context, context.serial == serial {
          context.dataSignalPending.store(false, ordering: .releasing)
        }
        let pulled = connection.machine.pullSource()
        action = connection.machine.sourceProduced(serial: serial, bytes: pulled.bytes, finished: pulled.finished)
        continue
      case .cancelSource(let source):
        source.cancelled()
      case .close(let reason, let source):
        source?.cancelled()
        close(connection, reason: reason)
        return
      }
      action = connection.machine.nextAction()
    }
  }

  /// Sends a call where it belongs and returns the state machine's next step.
  ///
  /// Order of checks: unknown interface → `InterfaceNotFound`; `upgrade` →
  /// `InvalidParameter(parameter: "upgrade")` (the server serves no upgradable method, and any
  /// non-error reply would tell the client the connection now speaks another protocol);
  /// `org.varlink.service` → answered here; everything else → the handler.
  private func route(_ call: VarlinkCall, serial: UInt64, on connection: Connection)
    -> Connection.StateMachine.Action
  {
    let interface = call.interface
    guard responder.serves(interface) else {
      return answer(call, serial, on: connection) {
        VarlinkReply.encoded(
          parameters: ["interface": .string(interface)], error: VarlinkServiceNames.interfaceNotFound)
      }
    }
    if call.upgrade {
      return answer(call, serial, on: connection) {
        InvalidParameter(parameter: "upgrade").replyFrame
      }
    }
    if interface == VarlinkServiceNames.interface {
      return answer(call, serial, on: connection) { responder.respond(to: call) }
    }
    let context = ConnectionCallContext(
      peer: connection.peer, connectionID: connection.id, serial: serial, oneway: call.oneway, method: call.method,
      inbox: inbox, log: log, counters: counters, rejectionSummary: configuration.rejectionSummary)
    connection.context = context
    connection.handlerCall = call
    handler.handle(call, context: context)
    return connection.machine.nextAction()
  }

  private func answer(
    _ call: VarlinkCall, _ serial: UInt64, on connection: Connection, _ frame: () -> [UInt8]
  ) -> Connection.StateMachine.Action {
    let bytes = frame()
    if let reply = try? VarlinkReply(frame: bytes.dropLast()), let error = reply.error {
      log.callRejected(
        method: call.method, error: error,
        summary: configuration.rejectionSummary(error, .object(reply.parameters)), peer: connection.peer,
        connection: connection.id)
    }
    return connection.machine.callReplied(serial: serial, frame: call.oneway ? [] : bytes)
  }

  /// Writes the output of every dirty connection that is not streaming; streaming ones
  /// join the fan-out, written after all replies (`settle`).
  func flushDirty() {
    guard !dirty.isEmpty else { return }
    assert(flushing.isEmpty, "flushDirty inside another flushDirty")
    swap(&flushing, &dirty)
    for connection in flushing {
      connection.isDirty = false
      // Closed or handed over since it was marked.
      guard connection.attached else { continue }
      if connection.machine.isStreaming {
        joinFanOut(connection)
      } else {
        flush(connection)
      }
    }
    flushing.removeAll(keepingCapacity: true)
  }

  /// Lists `connection` for this pass's `flushDirty` (once).
  func markDirty(_ connection: Connection) {
    guard !connection.isDirty else { return }
    connection.isDirty = true
    dirty.append(connection)
  }

  /// Writes every streaming connection touched this pass (signals already delivered,
  /// so each state machine is at rest: nothing to drive before writing).
  func flushFanOut() {
    guard !fanOut.isEmpty else { return }
    assert(visiting.isEmpty, "flushFanOut inside another visit")
    swap(&visiting, &fanOut)
    for connection in visiting {
      connection.inFanOut = false
      if connection.attached { flush(connection, atRest: true) }
    }
    visiting.removeAll(keepingCapacity: true)
  }

  /// Lists a streaming connection for this pass's fan-out step (once).
  func joinFanOut(_ connection: Connection) {
    guard !connection.inFanOut else { return }
    connection.inFanOut = true
    fanOut.append(connection)
  }

  /// Writes what is pending in one `send` (more only if the socket took everything and
  /// the state machine produced more) and updates the epoll interest. `atRest`: every
  /// event of the connection was already driven until `.none`, so asking the state
  /// machine for its next step first would find nothing (and cost a step per subscriber).
  private func flush(_ connection: Connection, atRest: Bool = false) {
    if !atRest { drive(connection, connection.machine.nextAction()) }
    var sends = 0
    while !connection.machine.isClosed, connection.machine.hasOutput, sends < 4 {
      sends += 1
      let pending = connection.machine.output.count
      let result = connection.machine.output.withUnsafeReadableBytes { bytes in
        Result { () throws(SystemCallError) in try Syscall.send(connection.fd, bytes) }
      }
      switch result {
      case .success(.wouldBlock):
        sends = .max
      case .success(.done(let n)):
        configuration.writeObserver?(connection.id)
        drive(connection, connection.machine.bytesWritten(n))
        if n < pending { sends = .max }
      case .failure(let error):
        drive(connection, connection.machine.closeRequested(CloseReason(sendFailure: error)))
      }
    }
    enforceOutputQuota(connection)
    applyInterest(connection)
  }

  /// Serves a quiet stream's signal in one step (`takesSignalForDirectWrite` said yes):
  /// pulls the source and sends the pulled buffer itself — usually the chunk the engine
  /// encoded once for every subscriber of the view — with no stop in the output buffer,
  /// no second visit in the fan-out and no epoll change when the socket takes it all.
  /// What the socket did not take is queued, and epoll then watches for writability.
  ///
  /// Delivering, queueing and writing separately (three state-machine steps, the output
  /// buffer, the fan-out list, the quota and epoll checks) cost ~770 instructions more
  /// per subscriber per publish (callgrind, 64 subscribers: 193,418 → 144,204 on the loop).
  /// Inlined into its one caller, `deliverSignals`: the call itself cost ~26 instructions
  /// per subscriber per publish.
  @inline(__always) func pullAndWrite(_ connection: Connection, serial: UInt64) {
    if let context = connection.context, context.serial == serial {
      context.dataSignalPending.store(false, ordering: .releasing)
    }
    let pulled = connection.machine.pullSource()
    // A finished stream, or more than the output may ever hold (which closes it), takes
    // the separate steps.
    guard !pulled.finished, pulled.bytes.count <= limits.outputHardLimitBytes else {
      drive(
        connection, connection.machine.sourceProduced(serial: serial, bytes: pulled.bytes, finished: pulled.finished))
      if connection.attached { joinFanOut(connection) }
      return
    }
    guard !pulled.bytes.isEmpty else { return }
    let result = pulled.bytes.withUnsafeBytes { bytes in
      Result { () throws(SystemCallError) in try Syscall.send(connection.fd, bytes) }
    }
    let written: Int
    switch result {
    case .success(.done(let n)):
      configuration.writeObserver?(connection.id)
      written = n
    case .success(.wouldBlock):
      written = 0
    case .failure(let error):
      drive(connection, connection.machine.closeRequested(CloseReason(sendFailure: error)))
      return
    }
    // All written: output was empty and stays so, which epoll and the quota already
    // reflect (every flush that empties the output applies both).
    if written == pulled.bytes.count, connection.outputCounted == 0 {
      connection.machine.sourceWrittenWhole(written)
      return
    }
    drive(connection, connection.machine.sourceWritten(serial: serial, bytes: pulled.bytes, written: written))
    enforceOutputQuota(connection)
    applyInterest(connection)
  }

  /// Makes epoll watch what the state machine needs: input unless paused or closed,
  /// output while bytes are waiting. A hung-up socket is removed from epoll instead.
  private func applyInterest(_ connection: Connection) {
    guard !connection.machine.isClosed, connection.registered else { return }
    if connection.hungUp {
      try? epoll.remove(connection.fd)
      connection.registered = false
      return
    }
    let desired = connection.machine.epollInterest()
    guard desired != connection.interest else { return }
    do {
      try epoll.modify(connection.fd, token: connection.id, interest: desired)
      connection.interest = desired
    } catch {
      drive(connection, connection.machine.closeRequested(.ioError(error.description)))
    }
  }

  /// Closes the socket, forgets the connection and logs the reason once.
  func close(_ connection: Connection, reason: CloseReason) {
    guard connections.removeValue(forKey: connection.id) != nil else { return }
    handler.connectionClosed(connection.id)
    connection.attached = false
    if connection.registered { try? epoll.remove(connection.fd) }
    connection.registered = false
    // Closing a Unix socket with unread input makes the peer's next read fail with
    // ECONNRESET instead of EOF, after the final reply it was sent: what it sent is read
    // and dropped first (it got ServerStopping for it).
    if case .serverStopping = reason { discardInput(connection.fd) }
    Syscall.close(connection.fd)
    connection.context = nil
    perUser.closed(connection.id)
    if connection.countsTowardLimit {
      counters.open.subtract(1, ordering: .relaxed)
    } else {
      counters.rejecting.subtract(1, ordering: .relaxed)
    }
    log.log(reason.logLevel, "connection closed: \(reason)", connection.logFields)
  }
}

extension ServerLoop {
  /// Reads what `fd` holds and drops it: at most 64 chunks, so a peer that keeps sending
  /// cannot hold the loop.
  private func discardInput(_ fd: Int32) {
    for _ in 0..<64 {
      guard case .done(let n) = try? Syscall.read(fd, into: readBuffer), n > 0 else { return }
    }
  }
}

extension Connection.StateMachine {
  /// What epoll should watch: input unless paused or closed, output while bytes wait.
  ///
  /// `mutating` only so that it runs in place on `connection.machine`: reading these
  /// properties through the class copied the whole state machine first (callgrind, 64
  /// subscribers: ~850 instructions per flush, 7.7% of navd).
  mutating func epollInterest() -> Epoll.Interest {
    Epoll.Interest(read: wantsInput, write: hasOutput)
  }
}
