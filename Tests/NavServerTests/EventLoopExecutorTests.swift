import Dispatch
import Synchronization
import Testing

@testable import NavServer

/// Records the order in which calls enter it; some suspend inside (off-thread work, as a
/// store commit does), so later calls arrive while it is busy or re-entered.
actor ArrivalRecorder {
  private(set) var arrivals: [Int] = []

  func enter(_ index: Int) async {
    arrivals.append(index)
    guard index % 7 == 0 else { return }
    await withCheckedContinuation { done in
      DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(200)) { done.resume() }
    }
  }
}

/// What `Echo` calls the server had handled when a piece of work ran, for ordering tests.
final class EchoesSeen: Sendable {
  let byLater = Atomic<Int>(-1)
  let byLaterAfterIO = Atomic<Int>(-1)
}

@Suite("EventLoopExecutor")
struct EventLoopExecutorTests {
  static func runsOnLoop(_ executor: EventLoopExecutor) async -> Bool {
    await Task(executorPreference: executor) { executor.isOnLoopThread }.value
  }

  @Test("tasks preferring the executor run on the event-loop thread while the server runs")
  func runsOnTheLoop() async throws {
    let server = try TestServer()
    #expect(await Self.runsOnLoop(server.server.executor))
    server.stop()
  }

  @Test("before start and after stop, tasks still run (on the executor's own serial queue): none is stranded")
  func fallsBack() async throws {
    let idle = VarlinkServer(
      configuration: ServerConfiguration(socketPath: "/nonexistent/navd.sock"), interfaces: [],
      handler: TestHandler(), log: Log(minimumLevel: .error))
    #expect(await !Self.runsOnLoop(idle.executor))
    let server = try TestServer()
    server.stop()
    #expect(await !Self.runsOnLoop(server.server.executor))
  }

  /// Issue 27 item 10: a scene yields between large commit groups with `laterAfterIO`, which
  /// helps others only if the loop reads the sockets before it runs the work.
  @Test("issue 27 laterAfterIO work posted on the loop runs after the next epoll_wait's calls; later work before them")
  func laterAfterIORunsAfterTheSockets() async throws {
    let server = try TestServer()
    let executor = server.server.executor
    let client = try server.client()
    try client.call("org.example.test.Echo", ["value": "accepted"])
    _ = try client.readFrame()
    let handler = server.handler
    let seen = EchoesSeen()
    nonisolated(unsafe) let sender = client
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      Task(executorPreference: executor) {
        #expect(executor.isOnLoopThread)
        // Readable at once (a Unix socket's send lands in the peer's queue), read only by epoll.
        try? sender.call("org.example.test.Echo", ["value": "next"])
        executor.later { seen.byLater.store(handler.echoed.load(ordering: .acquiring), ordering: .releasing) }
        executor.laterAfterIO {
          seen.byLaterAfterIO.store(handler.echoed.load(ordering: .acquiring), ordering: .releasing)
          done.resume()
        }
      }
    }
    #expect(seen.byLater.load(ordering: .acquiring) == 1, "later work runs in the same pass")
    #expect(seen.byLaterAfterIO.load(ordering: .acquiring) == 2, "the call sent before it was handled first")
    _ = try client.readFrame()
    await Task.detached { server.stop() }.value
  }

  /// PROTOCOL.md §2 (pipelining) relies on it: io.navd starts one task per call, in
  /// dispatch order, on the loop thread; each goes straight to its scene's actor, which
  /// queues mutations in arrival order.
  @Test("PROTOCOL §2 tasks started in order on the loop reach an actor in that order, busy or not")
  func startOrderReachesActorInOrder() async throws {
    let server = try TestServer()
    let executor = server.server.executor
    let recorder = ArrivalRecorder()
    let count = 500
    let tasks = await Task(executorPreference: executor) {
      #expect(executor.isOnLoopThread)
      return (0..<count).map { index in Task(executorPreference: executor) { await recorder.enter(index) } }
    }.value
    for task in tasks { await task.value }
    #expect(await recorder.arrivals == Array(0..<count))
    // Awaiting an actor that ran on the loop may resume this task on the loop thread
    // too; stopping (which waits for the loop to end) must not block the loop itself.
    await Task.detached { server.stop() }.value
  }
}
