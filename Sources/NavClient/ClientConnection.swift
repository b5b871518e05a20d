import Dispatch
import NavModel
import NavSystem
import NavWire
import Synchronization
import Varlink

#if canImport(Glibc)
  import Glibc
#endif

/// One Varlink connection to navd: a non-blocking socket driven by DispatchSources on the
/// connection's own serial queue, so no socket IO ever runs on Swift's cooperative pool.
///
/// Calls are pipelined: each is written at once and replies are matched to calls in the
/// order the calls were sent (Varlink has no sequence numbers). A streaming call (`more`)
/// owns its connection; see `ClientConnection+Stream.swift`.
///
/// `@unchecked Sendable`: every mutable property below `queue` is read and written only on
/// `queue` (or in `deinit`, when nothing else can reach the object); `isClosed` is atomic.
final class ClientConnection: @unchecked Sendable {
  typealias ReplyWaiter = CheckedContinuation<VarlinkReply, any Error>
  typealias StreamWaiter = CheckedContinuation<VarlinkReply?, any Error>

  /// Replies can carry whole documents; accept frames well beyond navd's own input limit.
  static let maxReplyBytes = 64 << 20
  /// A stream consumer this far behind stops the socket reads, so navd's coalescing takes over.
  static let streamHighWater = 256
  private static let readChunk = 64 * 1024

  /// The path this connection was made to (for error messages).
  let socketPath: String
  let queue: DispatchQueue
  private let fd: Int32
  private let readSource: any DispatchSourceRead
  private let closer: DescriptorCloser
  private let closedFlag = Atomic<Bool>(false)
  private let nextID = Atomic<UInt64>(1)
  /// Calls whose start block has not yet run on `queue`.
  private let startsPending = Atomic<Int>(0)

  // Confined to `queue`.
  private var decoder = VarlinkFrameDecoder(maxFrameBytes: ClientConnection.maxReplyBytes)
  private var output: [UInt8] = []
  private var outputStart = 0
  /// Exists only while output is stuck (see `flush`).
  private var writeSource: (any DispatchSourceWrite)?
  private(set) var readPaused = false
  private var calls = CallQueue<ReplyWaiter>()
  /// Calls cancelled before their start block ran on `queue`.
  private var cancelledBeforeStart: Set<UInt64> = []
  var streamReplies: [VarlinkReply] = []
  var streamHead = 0
  var streamWaiter: StreamWaiter?
  var streamEnded = false
  private(set) var failure: NavClientError?

  /// Wraps a connected non-blocking socket; the connection owns `fd` from now on.
  init(fd: Int32, socketPath: String) {
    self.fd = fd
    self.socketPath = socketPath
    queue = DispatchQueue(label: "navd.client.connection")
    readSource = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
    let closer = DescriptorCloser(fd: fd)
    self.closer = closer
    readSource.setEventHandler { [weak self] in self?.readAvailable() }
    readSource.setCancelHandler { closer.release() }
    readSource.activate()
  }

  deinit {
    if failure == nil { cancelSources() }
  }

  /// Whether the connection has failed or been closed; a closed connection never reopens.
  var isClosed: Bool { closedFlag.load(ordering: .acquiring) }

  /// Closes the connection; every call still waiting fails with `.disconnected`.
  func close() {
    closedFlag.store(true, ordering: .releasing)
    queue.async { self.fail(.disconnected) }
  }

  /// Sends `call` and waits for its reply (error replies included; the caller maps them).
  ///
  /// Cancelling the task or reaching `timeout` abandons just this call: it throws at once,
  /// and its reply, when it comes, is dropped, so pipelined calls keep their order.
  func call(_ call: VarlinkCall, timeout: Duration?) async throws -> VarlinkReply {
    let bytes = call.encoded()
    // navd closes a connection whose frame passes its limit (PROTOCOL §9.13), which would
    // read as a lost reply; a request that cannot fit is refused here, naming the limit.
    guard bytes.count - 1 <= NavClient.maxRequestBytes else {
      throw NavClientError.requestTooLarge(bytes: bytes.count - 1, limit: NavClient.maxRequestBytes)
    }
    let id = nextID.add(1, ordering: .relaxed).oldValue
    // Counted before the cancellation handler can run, so `abandon` knows a start is still coming.
    startsPending.add(1, ordering: .relaxed)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (waiter: ReplyWaiter) in
        queue.async { self.start(id: id, bytes: bytes, waiter: waiter, timeout: timeout) }
      }
    } onCancel: {
      queue.async { self.abandon(id, with: CancellationError(), beforeStart: true) }
    }
  }

  private func start(id: UInt64, bytes: [UInt8], waiter: ReplyWaiter, timeout: Duration?) {
    let cancelled = cancelledBeforeStart.remove(id) != nil
    if startsPending.subtract(1, ordering: .relaxed).newValue == 0 {
      // Ids left here were cancelled after their reply came: no start will ever claim them.
      cancelledBeforeStart.removeAll()
    }
    if cancelled { return waiter.resume(throwing: CancellationError()) }
    if let failure { return waiter.resume(throwing: failure) }
    calls.callSent(id: id, waiter: waiter)
    send(bytes)
    if let timeout {
      queue.asyncAfter(deadline: .now() + timeout.dispatchInterval) { [weak self] in
        self?.abandon(id, with: NavClientError.timedOut, beforeStart: false)
      }
    }
  }

  private func abandon(_ id: UInt64, with error: any Error, beforeStart: Bool) {
    if let waiter = calls.abandon(id) { return waiter.resume(throwing: error) }
    // Not waiting: either already answered (nothing to do) or its start block has not run yet.
    if beforeStart, startsPending.load(ordering: .relaxed) > 0 { cancelledBeforeStart.insert(id) }
  }

  /// Queues `bytes` behind any output still unsent and writes what the socket takes.
  func send(_ bytes: [UInt8]) {
    guard failure == nil else { return }
    if outputStart == output.count {
      output = bytes
      outputStart = 0
    } else {
      output.append(contentsOf: bytes)
    }
    flush()
  }

  private func writable() {
    guard failure == nil else { return }
    flush()
  }

  /// Watches for writability until the output drains.
  ///
  /// A write source is made for each stall and cancelled after it, never left suspended:
  /// on Linux, libdispatch multiplexes the read and write sources of one fd onto one epoll
  /// registration, and a suspended write source there could starve the read source (calls
  /// then hung waiting for replies that had arrived).
  private func watchWritability() {
    guard writeSource == nil else { return }
    closer.retain()
    let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
    source.setEventHandler { [weak self] in self?.writable() }
    source.setCancelHandler { [closer] in closer.release() }
    writeSource = source
    source.activate()
  }

  private func flush() {
    while outputStart < output.count {
      let attempt = output.withUnsafeBytes { raw in
        Result { () throws(SystemCallError) in
          try Syscall.send(fd, UnsafeRawBufferPointer(rebasing: raw[outputStart...]))
        }
      }
      let result: IOResult<Int>
      switch attempt {
      case .success(let value): result = value
      case .failure(let error): return fail(error.clientError)
      }
      switch result {
      case .done(let count): outputStart += count
      case .wouldBlock:
        return watchWritability()
      }
    }
    output.removeAll(keepingCapacity: output.capacity <= 64 * 1024)
    outputStart = 0
    if let source = writeSource {
      writeSource = nil
      source.cancel()
    }
  }

  private func readAvailable() {
    guard failure == nil, !readPaused else { return }
    withUnsafeTemporaryAllocation(byteCount: Self.readChunk, alignment: 1) { buffer in
      // A bounded number of reads per wake-up keeps one busy stream from starving the queue.
      for _ in 0..<16 {
        let result: IOResult<Int>
        switch Result(catching: { () throws(SystemCallError) in try Syscall.read(fd, into: buffer) }) {
        case .success(let value): result = value
        case .failure(let error):
          processFrames(all: true)
          return fail(error.clientError)
        }
        switch result {
        case .wouldBlock: return
        case .done(0):
          processFrames(all: true)
          return fail(.disconnected)
        case .done(let count):
          do {
            try decoder.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
          } catch {
            return fail(.protocolViolation("reply too large: \(error)"))
          }
          processFrames()
          if failure != nil || readPaused { return }
        }
      }
    }
  }

  /// Hands every complete frame to its call, unless the stream's consumer is too far behind.
  ///
  /// `all` ignores that limit: when the peer has gone, what it sent before going is delivered
  /// ahead of the disconnect (the frames are in memory already).
  func processFrames(all: Bool = false) {
    while failure == nil, all || !readPaused, let frame = decoder.nextFrame() {
      let reply: VarlinkReply
      do {
        reply = try VarlinkReply(frame: frame)
      } catch {
        return fail(.protocolViolation(error.description))
      }
      deliver(reply)
    }
  }

  private func deliver(_ reply: VarlinkReply) {
    switch calls.replyReceived(reply) {
    case .resume(let waiter, let reply):
      waiter?.resume(returning: reply)
    case .stream(let reply, let ended):
      if ended { streamEnded = true }
      streamReplies.append(reply)
      if streamReplies.count - streamHead >= Self.streamHighWater { pauseReading() }
      wakeStreamWaiter()
    case .violation(let detail):
      fail(.protocolViolation(detail))
    }
  }

  /// Registers the streaming call as the next to be answered (see `startStream`).
  func appendStreamPending() {
    calls.streamSent()
  }

  private func pauseReading() {
    guard !readPaused else { return }
    readPaused = true
    readSource.suspend()
  }

  /// Lets the socket be read again once the stream consumer has caught up.
  func resumeReadingIfPaused() {
    guard readPaused, failure == nil else { return }
    readPaused = false
    readSource.resume()
    processFrames()
  }

  /// Ends the connection with `error`: every waiting call gets it, the sources stop, the fd closes.
  func fail(_ error: NavClientError) {
    guard failure == nil else { return }
    failure = error
    closedFlag.store(true, ordering: .releasing)
    cancelSources()
    output = []
    outputStart = 0
    for waiter in calls.closed() { waiter.resume(throwing: error) }
    wakeStreamWaiter()
  }

  private func cancelSources() {
    // A suspended source delivers its cancellation only once resumed.
    readSource.cancel()
    if readPaused { readSource.resume() }
    writeSource?.cancel()
    writeSource = nil
  }
}

/// Closes a descriptor once every dispatch source on it has been cancelled, as libdispatch requires.
///
/// Starts with one holder, the read source (which lives as long as the connection); each write
/// source retains it while it exists.
private final class DescriptorCloser: Sendable {
  let fd: Int32
  private let holders = Atomic<Int>(1)

  init(fd: Int32) { self.fd = fd }

  func retain() {
    holders.add(1, ordering: .relaxed)
  }

  func release() {
    if holders.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { Syscall.close(fd) }
  }
}
