import CNavSys
import NavModel
import Synchronization
import Varlink

#if canImport(Glibc)
  import Glibc
#endif

/// Process-wide source of connection ids (`CallContext.connectionID` is unique for the
/// life of the process, even with several servers in one process, as in tests).
private let connectionIDs = Atomic<UInt64>(16)

/// Everything the event-loop thread owns: epoll, the listener, the connections.
///
/// `@unchecked Sendable`: the instance is created on the thread calling `start()` and
/// then used only by the loop thread, except for `inbox` and `counters`, which are
/// themselves thread-safe. That hand-over happens before `Thread.start()`, which
/// publishes the memory to the new thread.
final class ServerLoop: @unchecked Sendable {
  let configuration: ServerConfiguration
  let inbox: LoopInbox
  let counters = ServerCounters()
  let log: Log
  let handler: any CallHandler
  let responder: VarlinkServiceResponder
  let limits: Connection.StateMachine.Limits
  let epoll: Epoll
  let executor: EventLoopExecutor
  /// Per-uid connection and output quotas (`PerUserLimits`).
  let perUser: PerUserLimits
  /// Parses large frames on a thread of its own (`ServerConfiguration.offLoopParseBytes`).
  let parser: FrameParser

  var listenFD: Int32
  /// (path, identity) of the socket file we bound, to remove it on stop if still ours.
  var ownedSocketFile: (path: String, identity: (UInt64, UInt64)?)?
  // The four tables below are visited per connection on every pass, by the loop thread
  // only and one access at a time: exempt from run-time exclusivity checks, as `Connection`'s.
  @exclusivity(unchecked) var connections: [UInt64: Connection] = [:]
  /// Connections that had events or messages this pass and must be flushed, each listed
  /// once (`Connection.isDirty`), in the order they were marked. A list of references
  /// rather than a set of ids: the set hashed each id twice per call and copied its
  /// storage at every flush (callgrind: ~1,500 instructions per round trip).
  @exclusivity(unchecked) var dirty: [Connection] = []
  /// The list `flushDirty` works through, kept (empty) between passes and swapped with
  /// `dirty`, as `visiting` is with `signalled` and `fanOut`.
  @exclusivity(unchecked) var flushing: [Connection] = []
  /// Streaming connections to pull and write once, at the end of the pass, after every
  /// call's reply (see `settle`); held as references, not ids, so a subscriber costs no
  /// lookup per pass.
  @exclusivity(unchecked) var fanOut: [Connection] = []
  /// Connections whose source signalled and whose state machine has not been told yet.
  @exclusivity(unchecked) var signalled: [Connection] = []
  /// The list `deliverSignals` and `flushFanOut` work through, kept (empty) between uses:
  /// swapped with `signalled` or `fanOut`, so taking a list allocates nothing (copying
  /// it and emptying the original in place allocated a new buffer each time).
  @exclusivity(unchecked) var visiting: [Connection] = []
  /// The inbox messages being processed this round; kept (empty) between rounds so its
  /// storage and the inbox's are swapped back and forth, never reallocated.
  /// Exempt from run-time exclusivity checks like the tables above (loop thread only).
  @exclusivity(unchecked) private var inboxBatch: [LoopInbox.Message] = []
  /// The `laterAfterIO` work this pass runs (`LoopInbox.deferredOnLoop`, taken after the
  /// pass's `epoll_wait`), kept (empty) between passes as `inboxBatch` is.
  @exclusivity(unchecked) private var afterIO: [@Sendable () -> Void] = []
  /// Accepting failed for want of descriptors even with the spare one released; the
  /// listener is not watched until the next tick (a readable listener would spin the loop).
  var acceptPaused = false
  var stopping = false
  /// Set by a graceful stop: the loop ends when every connection is closed or at this time.
  var drainDeadline: ContinuousClock.Instant?
  /// A hand-over in progress (until every connection is ready or its deadline).
  var handOver: PendingHandOver?
  /// A graceful stop waiting for the calls in progress (see `ServerLoop+Stop.swift`).
  var pendingStop: (finalReply: [UInt8], deadline: ContinuousClock.Instant)?
  /// Reserve descriptor released to accept-and-close when the process runs out of fds.
  var spareFD: Int32
  let readBuffer: UnsafeMutableRawBufferPointer
  /// Between ticks; shortened while stopping, so `stopStallTimeout` is enforced to within a quarter.
  var tickInterval: Duration
  /// Memory freed after a burst goes back to the kernel on the tick.
  private var heap = HeapTrimming()
  /// Whether the loop handled an event since the last tick: the heap's idle rule
  /// (`HeapTrimming`). A store per event, where the event is dispatched anyway;
  /// loop thread only, so exempt from run-time exclusivity checks like the tables above.
  @exclusivity(unchecked) private var hadTraffic = false
  var nextTick: ContinuousClock.Instant

  static let listenerToken: UInt64 = 1
  static let wakeToken: UInt64 = 2

  init(
    configuration: ServerConfiguration, interfaces: [InterfaceDescription], handler: any CallHandler, log: Log,
    executor: EventLoopExecutor
  ) throws {
    self.configuration = configuration
    self.executor = executor
    self.log = log
    self.handler = handler
    responder = VarlinkServiceResponder(configuration: configuration, served: interfaces)
    limits = .init(configuration)
    perUser = PerUserLimits(
      maxConnections: configuration.maxConnectionsPerUser, maxOutputBytes: configuration.maxOutputBytesPerUser,
      exemptUID: geteuid())
    inbox = try LoopInbox()
    parser = FrameParser(handler: handler, inbox: inbox, maxDepth: configuration.maxJSONDepth)
    epoll = try Epoll()
    switch configuration.listener {
    case .path(let path):
      listenFD = try SocketPath.bindListener(
        path: path, mode: configuration.socketMode, group: configuration.socketGroup)
      ownedSocketFile = (path, SocketPath.identity(of: path))
    case .fileDescriptor(let fd, _):
      listenFD = fd
      _ = cnav_set_nonblocking(fd)
    }
    spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
    // Attached before the thread starts, so no task started after `start()` returns runs elsewhere.
    executor.attach(inbox)
    readBuffer = .allocate(byteCount: max(4096, configuration.readChunkBytes), alignment: 16)
    // Ticks drive the timeouts (and the heartbeat); a quarter of the shortest keeps the
    // error under 25%.
    let shortest =
      [configuration.partialFrameTimeout, configuration.outputStallTimeout, configuration.idleTimeout]
      .compactMap { $0 }.filter { $0 > .zero }.min() ?? .seconds(4)
    tickInterval = max(
      .milliseconds(10), min(.seconds(1), shortest / 4, configuration.heartbeat?.interval ?? .seconds(1)))
    nextTick = .now + tickInterval
    do {
      try epoll.add(listenFD, token: Self.listenerToken, interest: .init(read: true, write: false))
      try epoll.add(inbox.wakeFD, token: Self.wakeToken, interest: .init(read: true, write: false))
    } catch {
      closeListener()
      throw error
    }
  }

  deinit {
    readBuffer.deallocate()
    if spareFD >= 0 { Syscall.close(spareFD) }
  }

  /// The loop thread's body: wait, handle events and messages, flush, until stopped.
  func run() {
    inbox.setLoopThread(currentThreadID())
    executor.loopStarted()
    adoptConnections()
    log.info(
      "listening",
      [
        ("socket", configuration.socketPath ?? "fd \(listenFD)"),
        ("max_connections", "\(configuration.maxConnections)"),
      ])
    var moreWork = false
    while !stopping {
      // With work left over from the last pass only poll, so sockets are served in between.
      let wakeAt = min(
        nextTick, drainDeadline ?? nextTick, handOver?.deadline ?? nextTick, pendingStop?.deadline ?? nextTick)
      let timeout = moreWork ? 0 : max(0, Int32(((wakeAt - .now) / .milliseconds(1)).rounded(.up)))
      do {
        try epoll.wait(timeoutMilliseconds: timeout) { event in handle(event) }
      } catch {
        log.error("epoll_wait failed; stopping: \(error)")
        break
      }
      // Posted in an earlier pass: it runs in this one's settle, after the sockets were read.
      if !inbox.deferredOnLoop.isEmpty { swap(&afterIO, &inbox.deferredOnLoop) }
      moreWork = settle()
      let now = ContinuousClock.now
      if now >= nextTick {
        tickAll(now: now)
        configuration.heartbeat?.action()
        nextTick = now + tickInterval
        moreWork = settle() || moreWork
      }
      // Connections they touch are written in the next pass, which then only polls.
      if handOver != nil, progressHandOver(now: now) { moreWork = true }
      if pendingStop != nil, progressStop(now: now) { moreWork = true }
      // A task they resumed may have signalled a source on this thread.
      if !inbox.signalledOnLoop.isEmpty { moreWork = true }
      if let deadline = drainDeadline, connections.isEmpty || now >= deadline { break }
    }
    shutDown()
  }

  private func handle(_ event: Epoll.Event) {
    hadTraffic = true
    switch event.token {
    case Self.listenerToken: acceptAll()
    case Self.wakeToken: inbox.drainWakeUps()
    default:
      guard let connection = connections[event.token] else { return }
      handleSocketEvent(connection, event)
    }
  }

  /// One pass's work after `epoll_wait`: process messages until none are left, for at
  /// most `maxRounds` rounds (a synchronous handler's reply dispatches the next pipelined
  /// call, whose task posts another message…), then write: first every connection with
  /// call replies, then the fan-out — everything pending for each stream written in one
  /// `send`. So a writer's reply never waits behind the subscriber writes it caused (it
  /// still means "stored and queued": the engine queues updates before it replies), and
  /// a subscriber gets every version of the pass in one write.
  ///
  /// Source signals are delivered (the source pulled into the connection's output) at
  /// the start of the next round, or after the replies are written when the pass ends
  /// first: a lone writer's reply does not wait for the pulls either, while under a
  /// pipelined load no source holds more than one round's updates (its queue is bounded;
  /// the output buffer takes them up to the low-water mark). In that last delivery a
  /// stream with nothing queued is pulled and written in one step (`pullAndWrite`), so
  /// the first subscriber's bytes leave before the last one is pulled. Returns whether
  /// work is left for the next pass.
  ///
  /// The work posted for this pass with `EventLoopExecutor.laterAfterIO` runs after the
  /// first round's messages (what the sockets read this pass asked for comes first).
  func settle(maxRounds: Int = 64) -> Bool {
    for _ in 0..<maxRounds {
      inbox.takeAll(into: &inboxBatch)
      if inboxBatch.isEmpty, inbox.signalledOnLoop.isEmpty, afterIO.isEmpty { break }
      deliverSignals()
      takeSignalsOnLoop()
      for message in inboxBatch { process(message) }
      inboxBatch.removeAll(keepingCapacity: true)
      if !afterIO.isEmpty {
        for work in afterIO { work() }
        afterIO.removeAll(keepingCapacity: true)
      }
    }
    flushDirty()
    deliverSignals(writingQuietStreams: true)
    flushFanOut()
    return inbox.hasPending || !dirty.isEmpty || !fanOut.isEmpty
  }

  /// Tells each signalled connection's state machine, which pulls the source if its
  /// output is below the low-water mark, and lists it for the fan-out. Nothing is
  /// written here, except with `writingQuietStreams` (the pass's last delivery, after
  /// the replies are written): then a stream with nothing queued (`takesSignalForDirectWrite`)
  /// is pulled and written at once (`pullAndWrite`) and only the others join the fan-out.
  ///
  /// Earlier in a pass (a round's start) nothing is written, so under a pipelined load
  /// a subscriber still gets every version of the pass in one `send`.
  ///
  /// At a round's start, when the fan-out lists nothing yet (the pass's signals are
  /// delivered at once) the delivered list becomes the fan-out's, so a subscriber is held in one
  /// list per pass, not two (a retain, a release and an append fewer per subscriber per
  /// publish, callgrind). A connection in it that is detached is skipped there too.
  private func deliverSignals(writingQuietStreams: Bool = false) {
    guard !signalled.isEmpty else { return }
    assert(visiting.isEmpty, "deliverSignals inside another visit")
    swap(&visiting, &signalled)
    if writingQuietStreams {
      // Each connection is moved out of the list, from its end (each stream is a socket
      // of its own: their order within a pass carries no meaning), not copied out and the
      // list destroyed afterwards: a retain, a release and the generic destroy of an
      // element fewer per subscriber per publish (callgrind, 64 subscribers: ~37
      // instructions per subscriber).
      while let connection = visiting.popLast() {
        guard connection.attached, let serial = connection.signalledSerial else { continue }
        connection.signalledSerial = nil
        if connection.machine.takesSignalForDirectWrite(serial: serial) {
          pullAndWrite(connection, serial: serial)
        } else {
          drive(connection, connection.machine.sourceSignalled(serial: serial))
          if connection.attached { joinFanOut(connection) }
        }
      }
      return
    }
    for connection in visiting {
      guard connection.attached, let serial = connection.signalledSerial else { continue }
      connection.signalledSerial = nil
      drive(connection, connection.machine.sourceSignalled(serial: serial))
    }
    if fanOut.isEmpty {
      for connection in visiting { connection.inFanOut = true }
      swap(&fanOut, &visiting)
    } else {
      for connection in visiting where connection.attached { joinFanOut(connection) }
      visiting.removeAll(keepingCapacity: true)
    }
  }

  /// Lists the connections signalled on the loop thread during the last round
  /// (`LoopInbox.signalOnLoop`) for delivery (and then the fan-out), as `process` does
  /// for a `sourceHasData` message.
  @inline(__always) private func takeSignalsOnLoop() {
    guard !inbox.signalledOnLoop.isEmpty else { return }
    if signalled.isEmpty {
      // The usual case: the list is taken whole (a detached connection in it is skipped
      // by `deliverSignals`), not appended one connection at a time.
      swap(&signalled, &inbox.signalledOnLoop)
    } else {
      signalled.append(contentsOf: inbox.signalledOnLoop.lazy.filter(\.attached))
      inbox.signalledOnLoop.removeAll(keepingCapacity: true)
    }
  }

  private func process(_ message: LoopInbox.Message) {
    switch message {
    case .replied(let id, let serial, let frame):
      guard let connection = connections[id] else { return }
      drive(connection, connection.machine.callReplied(serial: serial, frame: frame))
      markDirty(connection)
    case .streamStarted(let id, let serial, let source):
      guard let connection = connections[id] else {
        source.cancelled()
        return
      }
      // From now on the source's signals on this thread mark the connection directly.
      if let context = connection.context, context.serial == serial { context.connection = connection }
      drive(connection, connection.machine.streamStarted(serial: serial, source: source))
      markDirty(connection)
    case .sourceHasData(let id, let serial, let context):
      context.dataSignalPending.store(false, ordering: .releasing)
      guard let connection = connections[id] else { return }
      // Delivered to the state machine later in the pass (`settle`), then written in the fan-out.
      if connection.signalledSerial == nil { signalled.append(connection) }
      connection.signalledSerial = serial
    case .parsed(let id, let result):
      guard let connection = connections[id] else { return }
      drive(connection, connection.machine.frameParsed(result))
      markDirty(connection)
    case .close(let id, let reason):
      guard let connection = connections[id] else { return }
      drive(connection, connection.machine.closeRequested(.requested(reason)))
    case .run(let job):
      executor.run(job)
    case .perform(let work):
      work()
    case .stop:
      stopping = true
    case .drain(let finalReply, let timeout):
      beginStop(finalReply: finalReply, timeout: timeout)
    case .handOver(let finalReply, let timeout, let receipt):
      beginHandOver(finalReply: finalReply, timeout: timeout, receipt: receipt)
    }
  }

  private func tickAll(now: ContinuousClock.Instant) {
    heap.tick(now: now, traffic: hadTraffic)
    hadTraffic = false
    if acceptPaused { resumeAccepting() }
    for connection in Array(connections.values) {
      drive(connection, connection.machine.tick(now: now))
    }
  }

  func closeListener() {
    guard listenFD >= 0 else { return }
    try? epoll.remove(listenFD)
    Syscall.close(listenFD)
    listenFD = -1
    if let owned = ownedSocketFile, let identity = owned.identity,
      let current = SocketPath.identity(of: owned.path), current == identity
    {
      unlink(owned.path)
    }
    ownedSocketFile = nil
  }

  /// Stop: no more accepts, every connection closed (streams cancelled), socket removed.
  private func shutDown() {
    executor.detach()
    parser.stop()
    closeListener()
    for connection in Array(connections.values) {
      drive(connection, connection.machine.closeRequested(.serverStopping))
    }
    // Sources handed over after the last pass would otherwise never hear of the stop.
    // Jobs posted before the detach run elsewhere, so no task is stranded.
    var remaining: [LoopInbox.Message] = []
    inbox.takeAll(into: &remaining)
    for message in remaining {
      switch message {
      case .streamStarted(_, _, let source): source.cancelled()
      case .run(let job): executor.runLater(job)
      case .perform(let work): executor.performLater(work)
      default: break
      }
    }
    // Work for a next pass that will not come runs there too, after what was posted.
    for work in inbox.deferredOnLoop { executor.performLater(work) }
    inbox.deferredOnLoop.removeAll()
    // Signals from the closes above have nothing left to deliver to; from now on no
    // thread counts as the loop's (its id may be reused), so none are listed again.
    inbox.signalledOnLoop.removeAll()
    inbox.setLoopThread(0)
    log.info("stopped", [("socket", configuration.socketPath ?? "")])
  }

  static func nextConnectionID() -> UInt64 { connectionIDs.add(1, ordering: .relaxed).newValue }
}
