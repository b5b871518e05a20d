import Testing

@testable import NavServer

@Suite("Per-uid limits (PROTOCOL.md § Access, per-user limits)")
struct PerUserLimitsTests {
  @Test("one uid at its connection limit does not stop another; closing frees a slot; navd's uid is exempt")
  func connections() {
    let limits = PerUserLimits(maxConnections: 2, maxOutputBytes: 1000, exemptUID: 500)
    #expect(limits.admit(1, uid: 1001))
    #expect(limits.admit(2, uid: 1001))
    #expect(!limits.admit(3, uid: 1001))
    #expect(limits.admit(4, uid: 1002))
    #expect((10..<20).allSatisfy { limits.admit(UInt64($0), uid: 500) })
    limits.closed(1)
    #expect(limits.connectionCount(of: 1001) == 1)
    #expect(limits.admit(5, uid: 1001))
  }

  @Test("queued output is summed per uid; a closed connection's bytes are forgotten")
  func output() {
    let limits = PerUserLimits(maxConnections: 10, maxOutputBytes: 1000, exemptUID: 500)
    _ = limits.admit(1, uid: 1001)
    _ = limits.admit(2, uid: 1001)
    _ = limits.admit(3, uid: 1002)
    #expect(!limits.outputQueued(1, bytes: 600))
    #expect(limits.outputQueued(2, bytes: 600))
    #expect(!limits.outputQueued(3, bytes: 900), "another uid has its own quota")
    #expect(!limits.outputQueued(2, bytes: 100))
    #expect(limits.outputBytes(of: 1001) == 700)
    limits.closed(1)
    #expect(limits.outputBytes(of: 1001) == 100)
  }
}
