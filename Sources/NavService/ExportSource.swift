import NavModel
import NavServer
import NavWire
import Synchronization

/// Feeds an `Export` stream (PROTOCOL.md §3 Export) to its connection one scene at a time:
/// the producer hands over a scene's frames and waits until the connection has taken them
/// before it snapshots the next, so navd holds at most one scene's export at once however
/// many scenes there are. The last frame (`kind: "end"`) ends the call.
final class ExportSource: ReplySource {
  private struct State {
    var frames: [UInt8] = []
    var finished = false
    var cancelled = false
    /// The producer, waiting for the frames it handed over to be taken.
    var drained: CheckedContinuation<Bool, Never>?
  }

  private let state = Mutex(State())
  private let wake: @Sendable () -> Void

  init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

  /// Queues `frames` (complete replies) and returns once the connection took them: true, or
  /// false when the client went away (the producer stops).
  func send(_ frames: [UInt8], last: Bool) async -> Bool {
    let open = state.withLock { state -> Bool in
      guard !state.cancelled else { return false }
      state.frames += frames
      state.finished = last
      return true
    }
    guard open else { return false }
    wake()
    guard !last else { return true }
    return await withCheckedContinuation { continuation in
      let resume = state.withLock { state -> Bool? in
        if state.cancelled { return false }
        if state.frames.isEmpty { return true }
        state.drained = continuation
        return nil
      }
      if let resume { continuation.resume(returning: resume) }
    }
  }

  func pull() -> (bytes: [UInt8], finished: Bool) {
    let (bytes, finished, drained) = state.withLock { state in
      var taken: [UInt8] = []
      swap(&taken, &state.frames)
      let drained = taken.isEmpty ? nil : state.drained
      if drained != nil { state.drained = nil }
      return (taken, state.finished, drained)
    }
    drained?.resume(returning: true)
    return (bytes, finished)
  }

  func cancelled() {
    let drained = state.withLock { state in
      state.cancelled = true
      state.frames = []
      defer { state.drained = nil }
      return state.drained
    }
    drained?.resume(returning: false)
  }

  /// The frames handed over and not yet taken (counted against the uid's output limit).
  var queuedBytes: Int { state.withLock { $0.frames.count } }
}
