import Testing

@testable import NavServer

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

  @Test("before start and after stop, tasks still run (on the global executor): none is stranded")
  func fallsBack() async throws {
    let idle = VarlinkServer(
      configuration: ServerConfiguration(socketPath: "/nonexistent/navd.sock"), interfaces: [],
      handler: TestHandler(), log: Log(minimumLevel: .error))
    #expect(await !Self.runsOnLoop(idle.executor))
    let server = try TestServer()
    server.stop()
    #expect(await !Self.runsOnLoop(server.server.executor))
  }
}
