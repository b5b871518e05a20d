import Foundation
import NavModel
import NavWire
import Testing
import Varlink

@testable import NavServer

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Server over a real Unix socket", .serialized)
struct ServerSocketTests {
  @Test("org.varlink.service GetInfo and GetInterfaceDescription")
  func varlinkService() throws {
    let server = try TestServer()
    defer { server.stop() }
    let client = try server.client()
    try client.call("org.varlink.service.GetInfo")
    let info = try client.readReply()
    #expect(info.error == nil)
    #expect(info.parameters["vendor"] == "navd")
    #expect(info.parameters["version"] == .string(NavdRelease.version))
    #expect(info.parameters["interfaces"] == ["org.varlink.service", "org.example.test"])

    try client.call("org.varlink.service.GetInterfaceDescription", ["interface": "org.example.test"])
    #expect(try client.readReply().parameters["description"] == .string(TestServer.interface.text))
    try client.call("org.varlink.service.GetInterfaceDescription", ["interface": "org.varlink.service"])
    let standard = try client.readReply().parameters["description"]?.stringValue ?? ""
    #expect(standard.contains("interface org.varlink.service"))
    try client.call("org.varlink.service.GetInterfaceDescription", ["interface": "com.nope"])
    #expect(try client.readReply().error == VarlinkServiceNames.interfaceNotFound)
  }

  @Test("unknown interface, unknown method, upgrade, oneway")
  func routingErrors() throws {
    let server = try TestServer()
    defer { server.stop() }
    let client = try server.client()
    try client.call("com.example.Nothing")
    let notFound = try client.readReply()
    #expect(notFound.error == VarlinkServiceNames.interfaceNotFound)
    #expect(notFound.parameters["interface"] == "com.example")
    try client.call("org.varlink.service.Nope")
    #expect(try client.readReply().error == VarlinkServiceNames.methodNotFound)
    try client.call("org.example.test.Echo", upgrade: true)
    let upgrade = try client.readReply()
    #expect(upgrade.error == VarlinkServiceNames.invalidParameter)
    #expect(upgrade.parameters["parameter"] == "upgrade")
    // A oneway call gets nothing back: the next reply is the Echo's.
    try client.call("org.example.test.Echo", ["value": "silent"], oneway: true)
    try client.call("org.example.test.Echo", ["value": "loud"])
    #expect(try client.readReply().parameters["value"] == "loud")
  }

  @Test("pipelined calls are answered in order, even when the handler answers out of order")
  func pipelinedOrder() throws {
    let server = try TestServer()
    defer { server.stop() }
    let client = try server.client()
    var batch: [UInt8] = []
    for n in 0..<200 {
      batch += VarlinkCall(method: "org.example.test.EchoLater", parameters: ["value": .number(Double(n))]).encoded()
    }
    try client.send(batch)
    for n in 0..<200 {
      #expect(try client.readReply().parameters["value"] == .number(Double(n)))
    }
  }

  @Test("a finite stream: continues until the final reply, then the next call")
  func finiteStream() throws {
    let server = try TestServer()
    defer { server.stop() }
    let client = try server.client()
    try client.call("org.example.test.Watch", ["count": 3], more: true)
    try client.call("org.example.test.Echo", ["value": "after"])
    for n in 0..<3 {
      let reply = try client.readReply()
      #expect(reply.continues && reply.parameters["n"] == .number(Double(n)))
    }
    let last = try client.readReply()
    #expect(!last.continues && last.parameters["n"] == 3)
    #expect(try client.readReply().parameters["value"] == "after")
  }

  @Test("1000 idle connections, and a new client is still served")
  func thousandIdle() throws {
    let server = try TestServer()
    defer { server.stop() }
    let idle = try (0..<1000).map { _ in try server.client() }
    let active = try server.client()
    try active.call("org.varlink.service.GetInfo")
    #expect(try active.readReply().error == nil)
    #expect(eventually { server.server.statistics.openConnections == 1001 })
    withExtendedLifetime(idle) {}
  }

  @Test("past the connection limit: LimitExceeded, then close; a freed slot is served again")
  func connectionLimit() throws {
    let server = try TestServer { $0.maxConnections = 3 }
    defer { server.stop() }
    var served = try (0..<3).map { _ in try server.client() }
    #expect(eventually { server.server.statistics.openConnections == 3 })
    let extra = try server.client()
    try extra.call("org.varlink.service.GetInfo")
    let reply = try extra.readReply()
    #expect(reply.error == "io.navd.LimitExceeded")
    #expect(reply.parameters["limit"] == "connections")
    #expect(reply.parameters["field"] == "connections")
    #expect(reply.parameters["max"] == 3)
    #expect(reply.parameters["value"] == "4")
    #expect(reply.parameters["message"]?.stringValue?.isEmpty == false)
    #expect(try extra.waitForClose())
    served.removeLast()
    #expect(eventually { server.server.statistics.openConnections == 2 })
    let next = try server.client()
    try next.call("org.varlink.service.GetInfo")
    #expect(try next.readReply().error == nil)
  }

  @Test("a client that disconnects mid-stream gets its source cancelled")
  func disconnectMidStream() throws {
    let server = try TestServer()
    defer { server.stop() }
    var client: TestClient? = try server.client()
    try client!.call("org.example.test.Watch", more: true)
    #expect(eventually { server.handler.lastSource != nil })
    let source = try #require(server.handler.lastSource)
    source.push(1)
    #expect(try client!.readReply().parameters["n"] == 1)
    client = nil
    #expect(eventually { source.cancelCount == 1 })
  }

  @Test("a reader that never reads is closed at the hard limit while another client is served")
  func slowReader() throws {
    let server = try TestServer {
      $0.outputHardLimitBytes = 512 * 1024
      $0.outputLowWaterBytes = 512 * 1024
    }
    defer { server.stop() }
    let slow = try server.client()
    try slow.call("org.example.test.Flood", more: true)
    let other = try server.client()
    try other.call("org.varlink.service.GetInfo")
    #expect(try other.readReply().error == nil)
    #expect(eventually { server.handler.lastSource?.cancelCount == 1 })
    #expect(try slow.waitForClose())
    try other.call("org.example.test.Echo", ["value": "still here"])
    #expect(try other.readReply().parameters["value"] == "still here")
  }

  @Test("bad input closes only the offending connection", arguments: BadInput.allCases)
  func badInput(_ input: BadInput) throws {
    let server = try TestServer {
      $0.maxFrameBytes = 256 * 1024
      $0.partialFrameTimeout = .milliseconds(300)
    }
    defer { server.stop() }
    let bystander = try server.client()
    let offender = try server.client()
    try offender.send(input.bytes)
    #expect(try offender.waitForClose())
    try bystander.call("org.example.test.Echo", ["value": "ok"])
    #expect(try bystander.readReply().parameters["value"] == "ok")
  }

  enum BadInput: CaseIterable, Sendable {
    case invalidJSON, invalidUTF8, deepNesting, oversizeInPieces, noNULEver, unknownKey, moreAndOneway

    var bytes: [UInt8] {
      switch self {
      case .invalidJSON: Array("{\"method\": nope}".utf8) + [0]
      case .invalidUTF8:
        Array(#"{"method":"org.example.test.Echo","parameters":{"value":""#.utf8) + [0xC0, 0xAF] + Array(#""}}"#.utf8)
          + [0]
      case .deepNesting:
        Array(#"{"method":"org.example.test.Echo","parameters":{"value":"#.utf8)
          + Array(repeating: UInt8(ascii: "["), count: 100_000) + Array(repeating: UInt8(ascii: "]"), count: 100_000)
          + Array("}}".utf8) + [0]
      case .oversizeInPieces: Array(repeating: UInt8(ascii: " "), count: 300 * 1024)
      case .noNULEver: Array(#"{"method":"org.example.test.Echo""#.utf8)
      case .unknownKey: Array(#"{"method":"org.example.test.Echo","bogus":true}"#.utf8) + [0]
      case .moreAndOneway: Array(#"{"method":"org.example.test.Echo","more":true,"oneway":true}"#.utf8) + [0]
      }
    }
  }

  @Test("stop: clients see EOF, streams are cancelled, the socket file is removed")
  func stop() throws {
    let server = try TestServer()
    let client = try server.client()
    try client.call("org.example.test.Watch", more: true)
    #expect(eventually { server.handler.lastSource != nil })
    server.stop()
    #expect(try client.waitForClose())
    #expect(server.handler.lastSource?.cancelCount == 1)
    #expect(access(server.path, F_OK) != 0)
  }

  @Test("echo round trip (p50/p99 printed)")
  func roundTripLatency() throws {
    let server = try TestServer()
    defer { server.stop() }
    let client = try server.client()
    let frame = VarlinkCall(method: "org.example.test.Echo", parameters: ["value": "ping"]).encoded()
    var samples: [Duration] = []
    for i in 0..<3000 {
      let start = ContinuousClock.now
      try client.send(frame)
      _ = try client.readFrame()
      if i >= 500 { samples.append(ContinuousClock.now - start) }
    }
    samples.sort()
    let p50 = samples[samples.count / 2]
    let p99 = samples[samples.count * 99 / 100]
    print("echo round trip over AF_UNIX: p50 \(p50), p99 \(p99) (\(samples.count) samples)")
    #expect(p50 < .milliseconds(5))
  }
}
