import NavModel
import Varlink

extension Connection {
  /// The Varlink server side of one connection, as a pure value: no sockets, no clock.
  ///
  /// Methods are named after events (`bytesReceived`, `callReplied`, `streamStarted`,
  /// `sourceProduced`, `bytesWritten`, `peerClosed`, `closeRequested`, `tick`) and return
  /// an `Action` for the IO code to perform. After performing any action other than
  /// `.none`, the IO code asks `nextAction()` for the next step until it is `.none` —
  /// that is how one event can lead to several steps (a read of several pipelined
  /// calls dispatches them all, up to `maxCallsInFlight`; a reply ends a call, which lets the next one be dispatched).
  ///
  /// Rules it enforces (PROTOCOL.md §2, pipelining): pipelined calls are dispatched in the
  /// order received, up to `maxCallsInFlight` at once, and only while the output waiting to
  /// be written plus the replies held back is below the low-water mark; replies are queued
  /// strictly in call order (`InFlightCalls` holds one that ends early); a `oneway` call
  /// takes a slot and sends nothing; only calls the service lets overlap
  /// (`Limits.mayOverlap`) run together: any other call, and every call with `more`, is
  /// dispatched only when no earlier call is in flight, and nothing after it until it has
  /// ended or its stream finished; a
  /// streaming source is pulled only below the low-water mark; output (held replies
  /// included) beyond the hard limit closes the connection; a frame over the size limit,
  /// invalid JSON or a protocol error close it too, but only after the calls received
  /// before the bad input are answered and flushed.
  ///
  /// Timeouts (`tick`) sample progress instead of reading a clock on every event: output
  /// that stops draining (nothing written since the previous tick that saw it waiting)
  /// closes the connection after `stallTimeout`; a connection with nothing in progress
  /// and nothing received since the previous tick that saw it idle closes after
  /// `idleTimeout`. Each clock starts at the first tick that sees its condition, so a
  /// timeout fires between its length and its length plus one tick interval.
  struct StateMachine {
    /// What the IO code must do next.
    enum Action {
      /// Nothing; wait for the next event.
      case none
      /// Route the call (org.varlink.service, or the handler); end it with `callReplied`
      /// or `streamStarted` carrying `serial`.
      case dispatch(VarlinkCall, serial: UInt64)
      /// Parse `frame` (at least `offLoopParseBytes` long) off the loop, prepare it
      /// (`CallHandler.prepare`) and report with `frameParsed`. Nothing else is
      /// dispatched meanwhile.
      case parse([UInt8])
      /// Call `streamSource.pull()` now and report the result with `sourceProduced`.
      /// The source is not in the payload: an action holding it retained it, and
      /// destroying the action released it through the enum's outlined destroy
      /// (callgrind, 64 subscribers: ~110 instructions per subscriber per publish).
      case pull(serial: UInt64)
      /// Call `source.cancelled()`: it was handed over for a call that cannot stream.
      case cancelSource(any ReplySource)
      /// Close the socket (cancelling `source` if given) and log `reason` once.
      case close(CloseReason, cancel: (any ReplySource)?)
    }

    private enum State {
      /// Dispatching calls; those not yet answered are in `inFlight`.
      case serving
      /// A streaming call: its source (`streamSource`) is pulled when signalled
      /// (`streamSignalled`) and output is low.
      case streaming(serial: UInt64)
      /// Accepted past the connection limit: the refusal is already queued;
      /// the connection closes once it is written and the first call (or EOF) has arrived.
      case rejecting
      /// Write what is queued, then close with `reason`.
      case closingAfterFlush(CloseReason)
      case closed
    }

    let limits: Limits
    private var state: State
    /// The stream's source has data not yet pulled (`.streaming` only). Kept out of the
    /// state's payload so that a signal or a pull flips a flag instead of rebuilding the
    /// state and copying the source's existential (twice per subscriber per publish).
    private var streamSignalled = false
    /// The stream's source (`.streaming` only, nil otherwise). Kept out of the state's
    /// payload for the same reason: matching `.streaming` copied the existential out of
    /// the state and destroyed it again, three times per subscriber per publish
    /// (callgrind, 64 subscribers: ~200 instructions per subscriber).
    private(set) var streamSource: (any ReplySource)?
    private var decoder: VarlinkFrameDecoder
    private(set) var output = OutputBuffer()
    /// Calls dispatched whose replies are not yet in `output` (`.serving` only).
    private var inFlight = Connection.InFlightCalls()
    /// A call that runs alone, parsed but held back until the calls before it have ended;
    /// or a call parsed off the loop, waiting for its turn to be dispatched.
    ///
    /// Boxed: `nextAction` asks whether one is held several times per call, and asking an
    /// optional `VarlinkCall` copied and destroyed the whole call each time; a box's nil
    /// check reads one pointer (BENCHMARKS.md, "The instruction budget").
    private var heldCall: HeldCall?
    /// The length of the frame being parsed off the loop (`.parse`), 0 when none is. It
    /// counts as input held, for backpressure, until its call is dispatched.
    private var parsingBytes = 0
    private var lastSerial: UInt64 = 0
    /// The peer sent EOF (or hung up): no more input will come.
    private(set) var inputClosed = false
    /// Bad input arrived: read no more, answer the calls received before it, flush, then
    /// close for this reason. After a malformed frame nothing more is dispatched
    /// (`discardFrames`); after an over-size one the complete frames before it still are.
    private var pendingClose: CloseReason?
    private var discardFrames = false
    /// Bytes received and written since the connection opened: progress the ticks sample.
    private var receivedTotal = 0
    private var writtenTotal = 0
    /// The server is stopping gracefully: streams end with this frame, nothing new is dispatched.
    private var stopReply: [UInt8]?
    /// The server hands connections to its successor: read nothing, dispatch nothing.
    private var handingOver = false

    // The fields holding a `ContinuousClock.Instant` come last: its layout is known only
    // at run time (the standard library is resilient), so every field after one is
    // found through the type's metadata, which the subscriber's path then fetched
    // twice per update (callgrind, 64 subscribers: ~11 instructions per subscriber).
    /// When the frame still arriving started, if one is.
    private var partialSince: ContinuousClock.Instant?
    /// Over-limit connections are closed at this time if they have not sent a call.
    private var rejectDeadline: ContinuousClock.Instant?
    /// Output waiting and `written` bytes written when a tick first saw it so.
    private var stallWatch: (written: Int, since: ContinuousClock.Instant)?
    /// Nothing in progress and `received` bytes received when a tick first saw it so.
    private var idleWatch: (received: Int, since: ContinuousClock.Instant)?

    /// A connection served normally.
    init(limits: Limits) {
      self.limits = limits
      self.state = .serving
      self.decoder = VarlinkFrameDecoder(maxFrameBytes: limits.maxFrameBytes)
    }

    /// A connection over the connection limit: `limitReply` (a complete error frame) is
    /// queued at once, without waiting for a call — it answers the client's first call
    /// that expects a reply. The connection closes once the reply is written and the
    /// first call or EOF has arrived (so the client never gets a reset instead of its
    /// answer), or at the partial-frame deadline.
    init(limits: Limits, rejectingWith limitReply: [UInt8], now: ContinuousClock.Instant) {
      self.init(limits: limits)
      state = .rejecting
      output.append(limitReply)
      rejectDeadline = now + limits.partialFrameTimeout
    }

    /// Whether the IO code should watch the socket for input. False once input is closed,
    /// while closing, and while more than a full frame's worth of pipelined input waits
    /// undispatched (backpressure instead of unbounded memory).
    var wantsInput: Bool {
      switch state {
      case .closed, .closingAfterFlush: return false
      default:
        return !inputClosed && pendingClose == nil && stopReply == nil && !handingOver
          && decoder.bufferedByteCount + parsingBytes <= limits.maxFrameBytes
      }
    }

    /// Whether bytes are waiting to be written.
    var hasOutput: Bool { !output.isEmpty }

    var isClosed: Bool {
      if case .closed = state { return true }
      return false
    }

    /// Whether a streaming call is open: its output is written in the loop's fan-out step.
    var isStreaming: Bool {
      if case .streaming = state { return true }
      return false
    }

    /// Nothing in progress: no call, no stream, no partial or pipelined input, no output.
    var isIdle: Bool {
      guard case .serving = state, inFlight.isEmpty, heldCall == nil, parsingBytes == 0 else { return false }
      return !inputClosed && pendingClose == nil && decoder.bufferedByteCount == 0 && output.isEmpty
    }

    /// The serials of the calls in progress, oldest first: the calls in flight, or the
    /// streaming call (tests, logs).
    var callsInProgress: [UInt64] {
      switch state {
      case .serving: inFlight.serials
      case .streaming(let serial): [serial]
      default: []
      }
    }
  }
}

extension Connection.StateMachine {
  /// Whether the loop should read the socket now: the connection is open and wants input.
  ///
  /// `mutating` although it changes nothing: called on a connection's stored machine, the
  /// getters copied (and released) the whole machine once per read, ~850 instructions; a
  /// mutating call reads it in place.
  mutating func readsInput() -> Bool { !isClosed && wantsInput }

  /// The peer sent bytes.
  mutating func bytesReceived(_ bytes: UnsafeRawBufferPointer, now: ContinuousClock.Instant) -> Action {
    switch state {
    case .closed, .closingAfterFlush: return .none
    default: break
    }
    receivedTotal += bytes.count
    let partialBefore = decoder.partialFrameByteCount
    do {
      try decoder.append(bytes)
    } catch {
      switch state {
      case .streaming, .rejecting: return close(.frameTooLarge(error.description))
      default:
        pendingClose = .frameTooLarge(error.description)
        partialSince = nil
        return nextAction()
      }
    }
    let partialAfter = decoder.partialFrameByteCount
    if partialAfter == 0 {
      partialSince = nil
    } else if partialAfter != partialBefore + bytes.count || partialSince == nil {
      // A NUL ended a frame in this read, so the frame now arriving started now.
      partialSince = now
    }
    return nextAction()
  }

  /// The server will hand this connection to its successor process: read no more input
  /// and dispatch no further call; calls in flight finish, a stream keeps being pulled
  /// while output drains. `handOverReadiness` says when the connection can be carried.
  mutating func handOverRequested() {
    handingOver = true
    partialSince = nil
  }

  /// Whether a call (not a stream) is being handled.
  var hasCallInProgress: Bool {
    if case .serving = state { return !inFlight.isEmpty }
    return false
  }

  /// Whether the connection can be handed over now (see `HandOverReadiness`).
  var handOverReadiness: Connection.HandOverReadiness {
    switch state {
    case .closed, .rejecting: return .cannotCarry
    case .closingAfterFlush: return .notYet
    case .serving:
      if !inFlight.isEmpty || !output.isEmpty { return .notYet }
      if decoder.bufferedByteCount > 0 || heldCall != nil || parsingBytes > 0 || inputClosed || pendingClose != nil {
        return .cannotCarry
      }
      return .idle
    case .streaming:
      if !output.isEmpty || streamSignalled { return .notYet }
      if decoder.bufferedByteCount > 0 || inputClosed { return .cannotCarry }
      return .streaming(currentStreamSource)
    }
  }

  /// Same as `bytesReceived(_:now:)` for an array (tests).
  mutating func bytesReceived(_ bytes: [UInt8], now: ContinuousClock.Instant) -> Action {
    bytes.withUnsafeBytes { bytesReceived($0, now: now) }
  }

  /// The peer closed its sending side (EOF) or hung up entirely.
  ///
  /// A streaming call ends at once (its source is cancelled): that is how Varlink clients
  /// unsubscribe. Calls already received are still answered, then the connection closes.
  mutating func peerClosed() -> Action {
    inputClosed = true
    partialSince = nil
    switch state {
    case .streaming: return close(.peerClosed, cancel: currentStreamSource)
    default: return nextAction()
    }
  }

  /// The frame handed out with `.parse` was parsed (and prepared): its call is dispatched
  /// in its turn, as if it had been parsed here; a frame that is not a valid call closes
  /// the connection once the calls before it are answered. Ignored once the connection
  /// stopped serving (closing, stopping): its call is dropped with the unread input.
  mutating func frameParsed(_ result: Result<VarlinkCall, VarlinkProtocolError>) -> Action {
    guard case .serving = state, parsingBytes > 0 else { return .none }
    parsingBytes = 0
    switch result {
    case .success(let call): heldCall = HeldCall(call)
    case .failure(let error):
      pendingClose = .protocolError(error.detail)
      discardFrames = true
    }
    return nextAction()
  }

  /// The call `serial` ended with `frame` (a final reply or an error, NUL-terminated; empty
  /// for a oneway call). It is queued for writing once every earlier call's reply is.
  /// Late or duplicate answers, and answers for calls not in flight, are ignored.
  mutating func callReplied(serial: UInt64, frame: [UInt8]) -> Action {
    guard case .serving = state, inFlight.answered(serial: serial, reply: frame) else { return .none }
    if let overflow = queueAnsweredReplies() { return overflow }
    return nextAction()
  }

  /// The handler handed call `serial` over to a streaming `source`.
  ///
  /// Only a call made with `more` can stream; for any other the source is cancelled and
  /// the call is answered `org.varlink.service.ExpectedMore` (nothing for oneway).
  mutating func streamStarted(serial: UInt64, source: any ReplySource) -> Action {
    guard case .serving = state, let call = inFlight.unanswered(serial) else { return .cancelSource(source) }
    guard call.more else {
      let frame = ExpectedMore().replyFrame
      _ = inFlight.answered(serial: serial, reply: frame)
      if let overflow = queueAnsweredReplies(cancel: source) { return overflow }
      return .cancelSource(source)
    }
    // Nothing is dispatched after (or alongside) a call with `more`: it is the only one.
    inFlight.streamStarted(serial: serial)
    state = .streaming(serial: serial)
    streamSource = source
    streamSignalled = true
    return nextAction()
  }

  /// The source of call `serial` has new data (`CallContext.sourceHasData`).
  mutating func sourceSignalled(serial: UInt64) -> Action {
    guard case .streaming(serial) = state else { return .none }
    streamSignalled = true
    return nextAction()
  }

  /// Whether a signal from call `serial`'s source can be served in one step: the loop
  /// pulls the source and writes what it returns straight to the socket, then reports
  /// with `sourceWritten` (`ServerLoop.pullAndWrite`). True exactly when
  /// `sourceSignalled` would answer `.pull` with nothing queued ahead of the pulled
  /// bytes: the stream is open, no output waits, no message arrived behind the stream,
  /// and the server is not stopping. The signal is then taken, as a pull takes it.
  mutating func takesSignalForDirectWrite(serial: UInt64) -> Bool {
    guard case .streaming(serial) = state, output.isEmpty, stopReply == nil, !decoder.hasCompleteFrame else {
      return false
    }
    streamSignalled = false
    return true
  }

  /// The loop pulled call `serial`'s source itself (after `takesSignalForDirectWrite`),
  /// got `bytes`, and wrote the first `written` of them to the socket: the rest is
  /// queued as if `sourceProduced` had queued them all and `bytesWritten` had followed.
  /// When the socket took everything, `sourceWrittenWhole` says so for less.
  mutating func sourceWritten(serial: UInt64, bytes: [UInt8], written: Int) -> Action {
    guard case .streaming(serial) = state else { return .none }
    writtenTotal += written
    if written == bytes.count { return .none }
    if output.count + bytes.count - written > limits.outputHardLimitBytes {
      return outputOverflow(cancel: streamSource)
    }
    output.append(bytes)
    output.consume(written)
    return nextAction()
  }

  /// Pulls the stream's source (`.pull`, `takesSignalForDirectWrite`): what it has, and
  /// whether it finished.
  ///
  /// `mutating` only so that it runs in place on `connection.machine` and calls the source
  /// where it is stored: taking the source out of the class first retained and released
  /// it around the pull (callgrind, 64 subscribers: ~46 instructions per subscriber).
  /// The state machine is being modified during the pull, so a source's `pull` must not
  /// reach it: none does (a source reads its own queue; `sourceHasData` marks the
  /// connection, not its state machine).
  mutating func pullSource() -> (bytes: [UInt8], finished: Bool) {
    guard let pulled = streamSource?.pull() else { preconditionFailure("pull without a stream source") }
    return pulled
  }

  /// `sourceWritten` when the socket took all `n` bytes pulled: nothing to queue and no
  /// next step (the signal was taken and nothing else waits), so no action to perform.
  mutating func sourceWrittenWhole(_ n: Int) {
    writtenTotal += n
  }

  /// What a `pull` of call `serial`'s source returned.
  mutating func sourceProduced(serial: UInt64, bytes: [UInt8], finished: Bool) -> Action {
    guard case .streaming(serial) = state else { return .none }
    if finished {
      state = .serving
      streamSource = nil
    }
    if !append(bytes) { return outputOverflow(cancel: streamSource) }
    if !finished, let stopReply {
      // Stopping: what the source held went out above; the final reply ends the stream.
      let source = currentStreamSource
      if !append(stopReply) { return outputOverflow(cancel: source) }
      state = .closingAfterFlush(.serverStopping)
      streamSource = nil
      return .cancelSource(source)
    }
    return nextAction()
  }

  /// The server stops gracefully: read no more input and dispatch no further call; calls
  /// in flight are still answered; a stream is given everything its source holds and then
  /// `finalReply` (a complete error frame), and so is a connection holding input it will not
  /// answer (pipelined calls, a partial frame); each connection closes once its output is
  /// written, or once it has read none of it for `stopStallTimeout`.
  mutating func serverStopping(finalReply: [UInt8]) -> Action {
    guard stopReply == nil else { return .none }
    stopReply = finalReply
    partialSince = nil
    switch state {
    case .closed, .closingAfterFlush: return .none
    case .rejecting: return close(.serverStopping)
    case .streaming:
      streamSignalled = true
      return nextAction()
    case .serving: return nextAction()
    }
  }

  /// `n` bytes of `output` were written to the socket.
  mutating func bytesWritten(_ n: Int) -> Action {
    output.consume(n)
    writtenTotal += n
    return nextAction()
  }

  /// Something outside the protocol wants the connection closed (the handler, a write
  /// error, the server stopping).
  mutating func closeRequested(_ reason: CloseReason) -> Action {
    switch state {
    case .closed: return .none
    case .streaming: return close(reason, cancel: currentStreamSource)
    default: return close(reason)
    }
  }

  /// Time passed: enforces the over-limit deadline, the stall and idle timeouts and the
  /// partial-frame timeout. While input is paused for backpressure the partial-frame
  /// clock does not run.
  mutating func tick(now: ContinuousClock.Instant) -> Action {
    if case .closed = state { return .none }
    if let deadline = rejectDeadline, case .rejecting = state, now >= deadline {
      return close(.connectionLimitTimeout)
    }
    if output.isEmpty {
      stallWatch = nil
    } else if let watch = stallWatch, watch.written == writtenTotal {
      // Stopping or handing over, every other client waits for this one: a short bound.
      let stallTimeout =
        stopReply != nil || handingOver ? min(limits.stallTimeout, limits.stopStallTimeout) : limits.stallTimeout
      if now - watch.since >= stallTimeout {
        return closeRequested(.stalled(stallTimeout, pendingBytes: output.count))
      }
    } else {
      stallWatch = (writtenTotal, now)
    }
    if let idleTimeout = limits.idleTimeout, isIdle {
      if let watch = idleWatch, watch.received == receivedTotal {
        if now - watch.since >= idleTimeout { return close(.idleTimeout(idleTimeout)) }
      } else {
        idleWatch = (receivedTotal, now)
      }
    } else {
      idleWatch = nil
    }
    guard let since = partialSince else { return .none }
    if !wantsInput {
      partialSince = now
      return .none
    }
    if now - since >= limits.partialFrameTimeout {
      return close(.partialFrameTimeout(limits.partialFrameTimeout))
    }
    return .none
  }
}

extension Connection.StateMachine {
  /// The next step that needs no new event: dispatch the next pipelined call, pull a
  /// signalled source, close after a flush. `.none` when there is nothing to do.
  mutating func nextAction() -> Action {
    switch state {
    case .closed:
      return .none

    case .closingAfterFlush(let reason):
      guard output.isEmpty else { return .none }
      state = .closed
      return .close(reason, cancel: nil)

    case .streaming(let serial):
      if decoder.hasCompleteFrame, !currentStreamSource.endsOnItsOwn {
        return close(Self.callDuringStream, cancel: currentStreamSource)
      }
      guard streamSignalled, output.count < limits.outputLowWaterBytes || stopReply != nil else { return .none }
      streamSignalled = false
      return .pull(serial: serial)

    case .rejecting:
      // The reply is already queued; reading the first call (or EOF) before closing means
      // the close does not reset the connection under unread input.
      if decoder.nextFrame() != nil || inputClosed {
        state = .closingAfterFlush(.connectionLimit)
        return nextAction()
      }
      return .none

    case .serving:
      if let stopReply {
        // Stopping: calls in flight are still answered; then close once the output is written.
        guard inFlight.isEmpty else { return .none }
        // Input that will not be answered (a call pipelined behind them, a frame half
        // sent) gets the final reply, so the client learns why its call has no answer.
        if heldCall != nil || parsingBytes > 0 || decoder.bufferedByteCount > 0, !append(stopReply) {
          return outputOverflow(cancel: nil)
        }
        state = .closingAfterFlush(.serverStopping)
        return nextAction()
      }
      // Backpressure: do not produce more replies while the peer is not reading.
      guard output.count + inFlight.bufferedBytes < limits.outputLowWaterBytes else { return .none }
      let mayDispatch = !handingOver && inFlight.count < limits.maxCallsInFlight && !inFlight.holdsLoneCall
      if mayDispatch, heldCall == nil, parsingBytes == 0, !discardFrames,
        let size = decoder.nextFrameByteCount, size >= limits.offLoopParseBytes, let frame = decoder.nextFrame()
      {
        parsingBytes = size
        return .parse(frame)
      }
      if mayDispatch, let call = nextCall() {
        let alone = call.more || !limits.mayOverlap(call)
        if alone, !inFlight.isEmpty {
          if heldCall == nil { heldCall = HeldCall(call) }
          return .none
        }
        heldCall = nil
        lastSerial += 1
        inFlight.dispatched(serial: lastSerial, oneway: call.oneway, more: call.more, alone: alone)
        return .dispatch(call, serial: lastSerial)
      }
      // Close only once every call received before the bad input or EOF is answered.
      guard inFlight.isEmpty, heldCall == nil, parsingBytes == 0 else { return .none }
      if let reason = pendingClose {
        state = .closingAfterFlush(reason)
        return nextAction()
      }
      if inputClosed {
        state = .closingAfterFlush(.peerClosed)
        return nextAction()
      }
      return .none
    }
  }

  /// The held call, or the next complete frame parsed as a call. A frame that is not a
  /// valid call stops all further dispatching and closes the connection after the
  /// calls before it are answered.
  private mutating func nextCall() -> VarlinkCall? {
    if let heldCall { return heldCall.call }
    guard parsingBytes == 0, !discardFrames, let frame = decoder.nextFrame() else { return nil }
    do {
      return try VarlinkCall(frame: frame, maxDepth: limits.maxJSONDepth)
    } catch {
      pendingClose = .protocolError(error.detail)
      discardFrames = true
      return nil
    }
  }

  /// A held call (`heldCall`), in a box of its own.
  final class HeldCall: Sendable {
    let call: VarlinkCall
    init(_ call: VarlinkCall) { self.call = call }
  }

  /// What the stream's source holds beyond `output` (0 without a stream).
  var streamQueuedBytes: Int { streamSource?.queuedBytes ?? 0 }

  /// The source of the open stream (`.streaming` only: it is set with that state).
  private var currentStreamSource: any ReplySource {
    guard let streamSource else { preconditionFailure("state .streaming without a source") }
    return streamSource
  }

  /// Moves the replies of the oldest calls that have ended into `output`, in call order;
  /// closes when the output and the replies still held back would pass the hard limit.
  private mutating func queueAnsweredReplies(cancel source: (any ReplySource)? = nil) -> Action? {
    while let reply = inFlight.takeAnswered() {
      if !append(reply) { return outputOverflow(cancel: source) }
    }
    if output.count + inFlight.bufferedBytes > limits.outputHardLimitBytes {
      return outputOverflow(cancel: source)
    }
    return nil
  }

  /// Queues output unless that would pass the hard limit; returns whether it fits
  /// (if not, nothing is queued and the caller closes with `outputOverflow`).
  ///
  /// It takes no source to cancel: passing the stream's source along for the rare
  /// overflow retained and released it on every pull (callgrind, ~45 instructions per
  /// subscriber per publish).
  private mutating func append(_ bytes: [UInt8]) -> Bool {
    if bytes.isEmpty { return true }
    if output.count + bytes.count > limits.outputHardLimitBytes { return false }
    output.append(bytes)
    return true
  }

  /// Closes because the output would pass the hard limit.
  private mutating func outputOverflow(cancel source: (any ReplySource)?) -> Action {
    close(.outputLimit(limits.outputHardLimitBytes), cancel: source)
  }

  private mutating func close(_ reason: CloseReason, cancel source: (any ReplySource)? = nil) -> Action {
    state = .closed
    streamSource = nil
    partialSince = nil
    return .close(reason, cancel: source)
  }
}

// Issue 13 (protocol helper): a message that arrives while a stream that never
// ends is open could never be answered, so it is a protocol error that closes the
// connection (PROTOCOL.md §9.20). Behind a finite stream it waits its turn.
extension Connection.StateMachine {
  /// Why a connection that sent a message while its endless stream was open is closed.
  static let callDuringStream = CloseReason.protocolError(
    "a message arrived while a stream is open on this connection; use another connection for other calls")
}
