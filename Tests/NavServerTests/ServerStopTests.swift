import Foundation
import NavModel
import NavWire
import Synchronization
import Testing
import Varlink

@testable import NavServer

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Server: graceful stop and heartbeat over a real socket", .serialized)
struct ServerStopTests {
  @Test("Stopping: a stream gets its pending updates, then the final error reply, then EOF; no new connections")
  func gracefulStopEndsStreams() throws {
    let server = try TestServer()
    let client = try server.client()
    try client.call("org.example.test.Watch", more: true)
    #expect(eventually { server.handler.lastSource != nil })
    let source = try #require(server.handler.lastSource)
    source.push(1)
    #expect(try client.readReply().parameters["n"] == 1)
    source.push(2)
    let final = VarlinkReply.encoded(parameters: ["message": "bye"], error: "org.example.test.Stopping")
    server.server.stopGracefully(finalReply: final, timeout: .seconds(5))
    let second = try client.readReply()
    #expect(second.parameters["n"] == 2 || second.error == "org.example.test.Stopping")
    if second.error == nil {
      #expect(try client.readReply().error == "org.example.test.Stopping")
    }
    #expect(try client.waitForClose())
    server.server.waitUntilStopped()
    #expect(source.cancelCount == 1)
    #expect(access(server.path, F_OK) != 0, "the socket file is removed")
    #expect(throws: (any Error).self) { _ = try server.client() }
    rmdir(server.directory)
  }

  @Test("Stopping: a client that does not read cannot hold the stop past its timeout")
  func gracefulStopTimeout() throws {
    let server = try TestServer()
    let client = try server.client()
    try client.call("org.example.test.Flood", more: true)
    #expect(eventually { server.handler.lastSource != nil })
    usleep(200_000)  // set-up, not an assertion: let the flood fill both socket buffers
    let started = ContinuousClock.now
    server.server.stopGracefully(finalReply: [0], timeout: .milliseconds(300))
    server.server.waitUntilStopped()
    let elapsed = ContinuousClock.now - started
    #expect(elapsed >= .milliseconds(300), "the unread output holds the stop until the timeout")
    #expect(elapsed < .seconds(3))
    withExtendedLifetime(client) {}
    rmdir(server.directory)
  }

  @Test("the heartbeat runs on the loop at its interval while the loop is healthy")
  func heartbeat() throws {
    let beats = Atomic<Int>(0)
    let server = try TestServer { configuration in
      configuration.heartbeat = .init(interval: .milliseconds(20)) { beats.add(1, ordering: .relaxed) }
    }
    #expect(eventually(timeout: .seconds(5)) { beats.load(ordering: .relaxed) >= 10 })
    server.stop()
  }
}
