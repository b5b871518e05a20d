import Foundation
import NavModel
import NavWire
import Synchronization
import Testing
import Varlink

@testable import NavServer

@Suite("Timeouts, connection limits and fan-out over a real Unix socket", .serialized)
struct ConnectionLimitSocketTests {
  @Test("§2 idle timeout: silent connections are closed and their slots serve new clients; a stream stays")
  func idleTimeoutFreesSlots() throws {
    let server = try TestServer {
      $0.maxConnections = 5
      $0.idleTimeout = .milliseconds(200)
    }
    defer { server.stop() }
    let streaming = try server.client()
    try streaming.call("org.example.test.Watch", more: true)
    #expect(eventually { server.handler.lastSource != nil })
    let silent = try (0..<4).map { _ in try server.client() }
    #expect(eventually { server.server.statistics.openConnections == 5 })
    for client in silent {
      #expect(try client.waitForClose(), "an idle connection sees EOF")
    }
    #expect(eventually { server.server.statistics.openConnections == 1 })
    let next = try server.client()
    try next.call("org.varlink.service.GetInfo")
    #expect(try next.readReply().error == nil, "a freed slot serves a new client")
    let source = try #require(server.handler.lastSource)
    source.push(7)
    #expect(try streaming.readReply().parameters["n"] == 7, "an open stream is not idle")
  }

  @Test("§2 stall: a subscriber that stops reading is disconnected after the stall timeout, no update following")
  func stalledSubscriberDisconnected() throws {
    let server = try TestServer {
      $0.outputStallTimeout = .milliseconds(300)
      $0.idleTimeout = nil
    }
    defer { server.stop() }
    let subscriber = try TestClient(path: server.path, receiveBuffer: 4096)
    try subscriber.call("org.example.test.Watch", more: true)
    #expect(eventually { server.handler.lastSource != nil })
    let source = try #require(server.handler.lastSource)
    let start = ContinuousClock.now
    // More than the socket buffers hold and less than the 16 MiB output limit; then silence.
    source.push(1, padding: 4 << 20)
    #expect(eventually { source.cancelCount == 1 }, "closing cancels the source")
    let elapsed = ContinuousClock.now - start
    #expect(elapsed >= .milliseconds(300), "closed after \(elapsed), before the stall timeout")
    let other = try server.client()
    try other.call("org.example.test.Echo", ["value": "still here"])
    #expect(try other.readReply().parameters["value"] == "still here")
  }

  @Test("§2 turned away: every connection past the limit and the lingering window reads LimitExceeded")
  func limitExceededBeyondWindow() throws {
    let server = try TestServer {
      $0.maxConnections = 2
      $0.maxRejectedConnections = 1
    }
    defer { server.stop() }
    let served = try (0..<2).map { _ in try server.client() }
    #expect(eventually { server.server.statistics.openConnections == 2 })
    // One lingers until its first call; the others are answered and closed at once.
    let extras = try (0..<12).map { _ in try server.client() }
    for (index, extra) in extras.enumerated() {
      let reply = try extra.readReply()
      #expect(reply.error == "io.navd.LimitExceeded", "extra connection \(index)")
      #expect(reply.parameters["limit"] == "connections")
      #expect(reply.parameters["max"] == 2)
      try? extra.call("org.varlink.service.GetInfo")  // may meet a closed socket: EPIPE
      #expect(try extra.waitForClose())
    }
    #expect(server.server.statistics.rejectedTotal == 12)
    try served[0].call("org.varlink.service.GetInfo")
    #expect(try served[0].readReply().error == nil)
  }

  @Test("§2 fan-out: a writer's reply is written before the updates it caused")
  func replyBeforeFanOut() throws {
    let writes = Mutex<[UInt64]>([])
    let server = try TestServer { $0.writeObserver = { id in writes.withLock { $0.append(id) } } }
    defer { server.stop() }
    let subscribers = try (0..<8).map { _ in try server.client() }
    for subscriber in subscribers { try subscriber.call("org.example.test.Watch", more: true) }
    #expect(eventually { server.handler.sources.withLock { $0.count } == 8 })
    let subscriberIDs = Set(server.handler.sources.withLock { $0.map(\.connectionID) })
    let writer = try server.client()
    writes.withLock { $0.removeAll() }
    try writer.call("org.example.test.Publish", ["n": 1])
    #expect(try writer.readReply().parameters["n"] == 1)
    for subscriber in subscribers { #expect(try subscriber.readReply().parameters["n"] == 1) }
    // The observer runs after each send returns, so the last entries may trail the reads.
    #expect(eventually { writes.withLock { $0.count } == 9 })
    let order = writes.withLock { $0 }
    #expect(order.first.map { !subscriberIDs.contains($0) } == true, "first write: the writer's reply; got \(order)")
  }

  @Test("§2 fan-out: pipelined versions reach each subscriber in one write per pass")
  func batchedWrites() throws {
    let writes = Mutex<[UInt64]>([])
    let server = try TestServer { $0.writeObserver = { id in writes.withLock { $0.append(id) } } }
    defer { server.stop() }
    let subscribers = try (0..<4).map { _ in try server.client() }
    for subscriber in subscribers { try subscriber.call("org.example.test.Watch", more: true) }
    #expect(eventually { server.handler.sources.withLock { $0.count } == 4 })
    let writer = try server.client()
    writes.withLock { $0.removeAll() }
    var batch: [UInt8] = []
    for n in 0..<20 {
      batch += VarlinkCall(method: "org.example.test.Publish", parameters: ["n": .number(Double(n))]).encoded()
    }
    try writer.send(batch)
    for n in 0..<20 { #expect(try writer.readReply().parameters["n"] == .number(Double(n))) }
    for subscriber in subscribers {
      for n in 0..<20 { #expect(try subscriber.readReply().parameters["n"] == .number(Double(n))) }
    }
    #expect(eventually { Set(writes.withLock { $0 }).count == 5 }, "every connection's write recorded")
    let perConnection = Dictionary(grouping: writes.withLock { $0 }, by: { $0 }).mapValues(\.count)
    print("writes per connection for 20 pipelined versions: \(perConnection.values.sorted())")
    #expect(perConnection.count == 5)
    #expect(perConnection.values.allSatisfy { $0 <= 2 }, "20 versions in at most 2 writes each: \(perConnection)")
  }
}
