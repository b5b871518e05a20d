import Synchronization
import Testing

@testable import NavServer

/// A source signals its connection two ways: from the loop thread itself (the engine runs
/// there), which marks the connection directly (`LoopInbox.signalOnLoop`), and from any
/// other thread, through a `sourceHasData` message. Both must deliver every update, in
/// order (PROTOCOL §2 fan-out), and neither may reach a connection that is gone.
@Suite("§2 fan-out: source signals from the loop thread and from other threads")
struct SourceSignalPathTests {
  @Test("§2 fan-out: updates signalled alternately on and off the loop thread all arrive, in order")
  func mixedSignalsKeepOrder() throws {
    let server = try TestServer()
    defer { server.stop() }
    let subscribers = try (0..<3).map { _ in try server.client() }
    for subscriber in subscribers { try subscriber.call("org.example.test.Watch", more: true) }
    #expect(eventually { server.handler.sources.withLock { $0.count } == 3 })
    let sources = server.handler.sources.withLock { $0 }
    let writer = try server.client()
    let count = 40
    for n in 0..<count {
      if n.isMultiple(of: 2) {
        // Publish: the handler pushes on the loop thread.
        try writer.call("org.example.test.Publish", ["n": .number(Double(n))])
        #expect(try writer.readReply().parameters["n"] == .number(Double(n)))
      } else {
        // This test's thread: the message path.
        for source in sources { source.push(n) }
      }
    }
    for subscriber in subscribers {
      for n in 0..<count { #expect(try subscriber.readReply().parameters["n"] == .number(Double(n))) }
    }
  }

  @Test("§2 fan-out: a signal on the loop thread for a connection already closed is dropped; others are served")
  func signalAfterCloseIsDropped() throws {
    let server = try TestServer()
    defer { server.stop() }
    var leaving: TestClient? = try server.client()
    try leaving!.call("org.example.test.Watch", more: true)
    let staying = try server.client()
    try staying.call("org.example.test.Watch", more: true)
    #expect(eventually { server.handler.sources.withLock { $0.count } == 2 })
    let gone = try #require(server.handler.sources.withLock { $0.first })
    leaving = nil
    #expect(eventually { gone.cancelCount == 1 })
    // Publish pushes only to uncancelled sources: push to the closed one on the loop thread
    // by hand, through a task on the loop's executor.
    let executor = server.server.executor
    let pushed = RanFlag()
    Task(executorPreference: executor) {
      gone.push(99)
      pushed.ran.store(true, ordering: .releasing)
    }
    #expect(eventually { pushed.ran.load(ordering: .acquiring) }, "the push on the loop thread ran")
    let writer = try server.client()
    try writer.call("org.example.test.Publish", ["n": 1])
    #expect(try writer.readReply().parameters["n"] == 1)
    #expect(try staying.readReply().parameters["n"] == 1)
    #expect(server.server.statistics.openConnections == 2)
  }
}

/// Set by a task on the loop's executor when it has run. The synchronous test reads it
/// rather than awaiting the task from another task, which needs a free thread of the
/// cooperative pool: on a busy two-core machine the other synchronous tests held both
/// for longer than `eventually` waits.
private final class RanFlag: Sendable {
  let ran = Atomic<Bool>(false)
}
