import NavModel
import Testing

@testable import NavServer

/// A quiet stream's update is pulled and written in one step (`ServerLoop.pullAndWrite`);
/// these run it over a real socket where that step cannot finish: the socket takes part
/// of the update, or the update alone is more than the output may hold.
@Suite("PROTOCOL §2 fan-out over a socket: the one-step write when the socket is full")
struct DirectWriteSocketTests {
  @Test("§2 an update bigger than the socket's buffer arrives whole, and the next one after it")
  func partialWriteFinishesLater() throws {
    let server = try TestServer()
    defer { server.stop() }
    let client = try server.client()
    try client.call("org.example.test.Watch", more: true)
    #expect(eventually { server.handler.lastSource != nil })
    let source = try #require(server.handler.lastSource)
    // Several times what a Unix socket buffers, well under the 16 MiB hard limit.
    source.push(1, padding: 4 * 1024 * 1024)
    source.push(2)
    let first = try client.readReply()
    #expect(first.parameters["n"] == 1)
    #expect(first.parameters["pad"]?.stringValue?.utf8.count == 4 * 1024 * 1024)
    #expect(try client.readReply().parameters["n"] == 2)
    source.push(3)
    #expect(try client.readReply().parameters["n"] == 3, "quiet again once drained")
  }

  @Test("§2 one update past the hard output limit closes the connection and cancels the stream")
  func pullPastTheHardLimit() throws {
    let server = try TestServer {
      $0.outputHardLimitBytes = 64 * 1024
      $0.outputLowWaterBytes = 16 * 1024
    }
    defer { server.stop() }
    let client = try server.client()
    try client.call("org.example.test.Watch", more: true)
    #expect(eventually { server.handler.lastSource != nil })
    let source = try #require(server.handler.lastSource)
    source.push(1, padding: 100 * 1024)
    #expect(eventually { source.cancelCount == 1 })
    #expect(try client.waitForClose())
  }
}
