import NavWire
import Varlink

/// The streaming side of a connection: one `more` call whose replies are buffered until taken.
extension ClientConnection {
  /// Sends `call` with `more: true`; its replies come from `nextStreamReply()`.
  ///
  /// Use a fresh connection: a stream owns its connection until the stream ends.
  func startStream(_ call: VarlinkCall) {
    var call = call
    call.more = true
    let bytes = call.encoded()
    queue.async {
      guard self.failure == nil else { return self.wakeStreamWaiter() }
      self.appendStreamPending()
      self.send(bytes)
    }
  }

  /// The next reply of the stream; nil once navd sent the final reply (one without `continues`).
  ///
  /// Throws the connection's failure once every reply received before it has been taken.
  /// Cancelling the task closes the connection (which is how a Varlink client unsubscribes).
  func nextStreamReply() async throws -> VarlinkReply? {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (waiter: StreamWaiter) in
        queue.async { self.takeStreamReply(waiter) }
      }
    } onCancel: {
      self.close()
    }
  }

  private func takeStreamReply(_ waiter: StreamWaiter) {
    precondition(streamWaiter == nil, "two tasks wait on one stream; a stream has a single consumer")
    streamWaiter = waiter
    wakeStreamWaiter()
  }

  /// Resumes the waiting consumer if there is something to give it: a reply, the end, or the failure.
  func wakeStreamWaiter() {
    guard let waiter = streamWaiter else { return }
    if streamHead < streamReplies.count {
      streamWaiter = nil
      let reply = streamReplies[streamHead]
      streamHead += 1
      if streamHead == streamReplies.count {
        streamReplies.removeAll(keepingCapacity: true)
        streamHead = 0
      } else if streamHead >= 64, streamHead * 2 >= streamReplies.count {
        streamReplies.removeFirst(streamHead)
        streamHead = 0
      }
      if streamReplies.count - streamHead <= Self.streamHighWater / 2 { resumeReadingIfPaused() }
      waiter.resume(returning: reply)
    } else if streamEnded {
      streamWaiter = nil
      waiter.resume(returning: nil)
    } else if let failure {
      streamWaiter = nil
      waiter.resume(throwing: failure)
    }
  }
}
