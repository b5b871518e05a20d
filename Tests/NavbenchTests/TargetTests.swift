import NavModel
import Testing

@testable import navbench

@Suite("navbench targets: the same payload size for both servers")
struct TargetTests {
  @Test("publish parameters are exactly the requested size and valid JSON for every sequence")
  func payloadSize() throws {
    for sequence in [0, 7, 12345, 9_999_999] {
      let parameters = Payload.parameters(channel: "bench-fan-64", sequence: sequence, bytes: 200)
      #expect(parameters.count == 200)
      let json = try JSONParser.parse(parameters)
      #expect(json["scene"]?.stringValue == "bench-fan-64")
    }
  }

  @Test("Redis's PUBLISH carries navd's Mutate parameters byte for byte")
  func samePayload() {
    let navd = NavdTarget(socketPath: "/x", payloadBytes: 200).publishFrame(channel: "c", sequence: 3)
    let redis = RedisTarget(socketPath: "/x", payloadBytes: 200).publishFrame(channel: "c", sequence: 3)
    let parameters = Payload.parameters(channel: "c", sequence: 3, bytes: 200)
    #expect(navd.firstRange(of: parameters) != nil)
    #expect(redis.firstRange(of: parameters) != nil)
  }

  @Test("navd's position is the update's toVersion; a coalesced update skips versions")
  func navdPosition() {
    let target = NavdTarget(socketPath: "/x", payloadBytes: 200)
    let update = Array(#"{"continues":true,"parameters":{"fromVersion":3,"kind":"update","toVersion":9}}"#.utf8) + [0]
    #expect(update.withUnsafeBytes { target.position(after: $0, previous: 3) } == 9)
    let events = Array(#"{"continues":true,"parameters":{"kind":"events","version":9}}"#.utf8) + [0]
    #expect(events.withUnsafeBytes { target.position(after: $0, previous: 9) } == 9)
  }

  @Test("navd's error replies are refused, its updates are not")
  func navdErrors() {
    let target = NavdTarget(socketPath: "/x", payloadBytes: 200)
    let error = Array(#"{"error":"io.navd.LimitExceeded","parameters":{}}"#.utf8) + [0]
    #expect(throws: BenchConnection.Failure.self) { try error.withUnsafeBytes { try target.checkAcknowledgement($0) } }
    let reply = Array(#"{"parameters":{"version":2}}"#.utf8) + [0]
    #expect(throws: Never.self) { try reply.withUnsafeBytes { try target.checkAcknowledgement($0) } }
  }
}

@Suite("navbench start-up: which options a navd has")
struct HelpTests {
  @Test("a binary's --help output is read, bounded, and searched for the option")
  func helpMentions() throws {
    #expect(try ServerProcess.helpMentions("/bin/echo", "--help"))
    #expect(try !ServerProcess.helpMentions("/bin/echo", "--state-dir"))
  }
}
