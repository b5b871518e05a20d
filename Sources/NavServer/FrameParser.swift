import Dispatch
import NavSystem
import Synchronization
import Varlink

/// The thread that parses one server's large frames (`Connection.StateMachine.Action.parse`):
/// each is parsed into a call, prepared by the handler (`CallHandler.prepare`: its parameters
/// decoded) and posted back to the loop as `.parsed`, while the loop serves the other
/// connections. Started with the first large frame, ended when the loop stops.
///
/// A thread of its own rather than a task: Swift's cooperative pool may be busy with, or
/// blocked by, work that is none of the loop's, and a frame must not wait behind it. What it
/// queues is bounded as the input is: each connection hands out one frame at a time, of at
/// most the frame limit, and counts it as held input meanwhile.
final class FrameParser: Sendable {
  private struct Job {
    let connection: UInt64
    let frame: [UInt8]
  }

  private struct State {
    var jobs: [Job] = []
    var started = false
    var stopped = false
  }

  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)
  private let handler: any CallHandler
  private let inbox: LoopInbox
  private let maxDepth: Int

  init(handler: any CallHandler, inbox: LoopInbox, maxDepth: Int) {
    self.handler = handler
    self.inbox = inbox
    self.maxDepth = maxDepth
  }

  /// Queues `frame` (without its NUL) of connection `connection`; the loop thread calls it.
  func parse(_ frame: [UInt8], for connection: UInt64) {
    let start = state.withLock { state -> Bool in
      state.jobs.append(Job(connection: connection, frame: frame))
      defer { state.started = true }
      return !state.started
    }
    if start { _ = OwnThread(name: "navd-parse") { [self] in run() } }
    wake.signal()
  }

  /// Ends the thread once the frames already queued are parsed (the stopped loop drops them).
  func stop() {
    state.withLock { $0.stopped = true }
    wake.signal()
  }

  private func run() {
    while true {
      wake.wait()
      let (jobs, stopped) = state.withLock { state in
        defer { state.jobs.removeAll(keepingCapacity: true) }
        return (state.jobs, state.stopped)
      }
      for job in jobs { inbox.post(.parsed(connection: job.connection, result: call(from: job.frame))) }
      if stopped { return }
    }
  }

  /// The frame's call, prepared; or why it is not a call (a protocol error).
  private func call(from frame: [UInt8]) -> Result<VarlinkCall, VarlinkProtocolError> {
    do throws(VarlinkProtocolError) {
      var call = try VarlinkCall(frame: frame, maxDepth: maxDepth)
      handler.prepare(&call)
      return .success(call)
    } catch {
      return .failure(error)
    }
  }
}
