import NavModel
import NavWire
import Testing
import Varlink

@testable import NavServer

/// Limits with short, distinct timeouts: stall 5 s, idle 10 s, partial frame 30 s.
let timeoutLimits = Machine.Limits(
  maxFrameBytes: 1024, maxJSONDepth: 64, outputLowWaterBytes: 100, outputHardLimitBytes: 1000,
  partialFrameTimeout: .seconds(30), stallTimeout: .seconds(5), idleTimeout: .seconds(10))

@Suite("Connection timeouts: stall and idle (PROTOCOL §2 Connections and output)")
struct ConnectionTimeoutTests {
  /// A machine streaming call 1 from a fresh source, with `pending` bytes of output queued.
  func streamingMachine(pending: Int) throws -> (Machine, ScriptedSource) {
    var machine = Machine(limits: timeoutLimits)
    let call = try #require(machine.bytesReceived(callFrame("a.Watch", more: true), now: t0).dispatched)
    let source = ScriptedSource()
    _ = machine.streamStarted(serial: call.serial, source: source)
    if pending > 0 {
      let frame = replyFrame(.string(String(repeating: "u", count: pending)), continues: true)
      _ = machine.sourceProduced(serial: call.serial, bytes: frame, finished: false)
    }
    return (machine, source)
  }

  @Test("§2 stall: a stream whose output does not drain is closed after the stall timeout, with no new update")
  func stalledStreamCloses() throws {
    var (machine, source) = try streamingMachine(pending: 150)
    #expect(machine.tick(now: t0).isNone, "the stall clock starts at the first tick that sees output waiting")
    #expect(machine.tick(now: t0 + .seconds(4)).isNone)
    let action = machine.tick(now: t0 + .seconds(5))
    guard case .stalled(.seconds(5), let pending) = action.closeReason else {
      Issue.record("expected a stall close, got \(action)")
      return
    }
    #expect(pending == machine.output.count)
    #expect(action.cancelledSource === source, "closing cancels the source: that is how the engine unsubscribes")
    #expect(machine.isClosed)
  }

  @Test("§2 stall: a source signalled but not pullable above the low-water mark counts as stalled")
  func signalledAboveLowWaterStalls() throws {
    var (machine, _) = try streamingMachine(pending: 150)
    #expect(machine.sourceSignalled(serial: 1).isNone, "output above low water: no pull")
    _ = machine.tick(now: t0)
    #expect(
      machine.tick(now: t0 + .seconds(5)).closeReason == .stalled(.seconds(5), pendingBytes: machine.output.count))
  }

  @Test("§2 stall: any bytes written restart the stall clock")
  func progressRestartsStallClock() throws {
    var (machine, _) = try streamingMachine(pending: 150)
    _ = machine.tick(now: t0)
    _ = machine.bytesWritten(10)
    #expect(machine.tick(now: t0 + .seconds(4)).isNone, "progress seen: the clock restarts here")
    #expect(machine.tick(now: t0 + .seconds(8)).isNone)
    #expect(machine.tick(now: t0 + .seconds(9)).closeReason != nil, "no progress since the 4 s tick")
  }

  @Test("§2 stall: output that drains between ticks never stalls")
  func drainedOutputDoesNotStall() throws {
    var (machine, _) = try streamingMachine(pending: 150)
    _ = machine.tick(now: t0)
    _ = machine.bytesWritten(machine.output.count)
    #expect(machine.tick(now: t0 + .seconds(6)).isNone)
    #expect(!machine.isClosed)
  }

  @Test("§2 stall: replies a client does not read stall too, outside any stream")
  func unreadReplyStalls() throws {
    var machine = Machine(limits: timeoutLimits)
    let call = try #require(machine.bytesReceived(callFrame("a.Get"), now: t0).dispatched)
    _ = machine.callReplied(serial: call.serial, frame: replyFrame(1))
    _ = machine.tick(now: t0)
    let pending = machine.output.count
    #expect(machine.tick(now: t0 + .seconds(5)).closeReason == .stalled(.seconds(5), pendingBytes: pending))
  }

  @Test("§2 idle: nothing in progress for the idle timeout closes the connection")
  func idleCloses() {
    var machine = Machine(limits: timeoutLimits)
    #expect(machine.isIdle)
    #expect(machine.tick(now: t0).isNone)
    #expect(machine.tick(now: t0 + .seconds(9)).isNone)
    #expect(machine.tick(now: t0 + .seconds(10)).closeReason == .idleTimeout(.seconds(10)))
  }

  @Test("§2 idle: a call received between two ticks restarts the idle clock")
  func callRestartsIdleClock() throws {
    var machine = Machine(limits: timeoutLimits)
    _ = machine.tick(now: t0)
    let call = try #require(machine.bytesReceived(callFrame("a.Get"), now: t0 + .seconds(8)).dispatched)
    _ = machine.callReplied(serial: call.serial, frame: [])
    #expect(machine.isIdle, "answered and written: idle again")
    #expect(machine.tick(now: t0 + .seconds(10)).isNone, "bytes arrived since the last tick: the clock restarts")
    #expect(machine.tick(now: t0 + .seconds(19)).isNone)
    #expect(machine.tick(now: t0 + .seconds(20)).closeReason == .idleTimeout(.seconds(10)))
  }

  @Test("§2 idle: a call in flight, an open stream, a partial message or unwritten output is not idle")
  func busyIsNotIdle() throws {
    var calling = Machine(limits: timeoutLimits)
    _ = try #require(calling.bytesReceived(callFrame("a.Slow"), now: t0).dispatched)
    let (streaming, _) = try streamingMachine(pending: 0)
    var partial = Machine(limits: timeoutLimits)
    _ = partial.bytesReceived(Array(#"{"method":"#.utf8), now: t0)
    for var machine in [calling, streaming, partial] {
      #expect(!machine.isIdle)
      _ = machine.tick(now: t0)
      #expect(machine.tick(now: t0 + .seconds(11)).isNone)
    }
    var unread = Machine(limits: timeoutLimits)
    let call = try #require(unread.bytesReceived(callFrame("a.Get"), now: t0).dispatched)
    _ = unread.callReplied(serial: call.serial, frame: replyFrame(1))
    #expect(!unread.isIdle, "output waiting is the stall timeout's business")
  }

  @Test("§2 idle: no idle timeout configured, never closed for idleness")
  func idleDisabled() {
    var machine = Machine(limits: testLimits)
    _ = machine.tick(now: t0)
    #expect(machine.tick(now: t0 + .seconds(86_400)).isNone)
  }

  @Test("§2 turned away: the LimitExceeded reply is queued at once, before any call")
  func rejectingRepliesAtOnce() {
    let limitFrame = VarlinkReply.encoded(parameters: ["limit": "connections"], error: "io.navd.LimitExceeded")
    var machine = Machine(limits: testLimits, rejectingWith: limitFrame, now: t0)
    #expect(outputFrames(machine) == [#"{"parameters":{"limit":"connections"},"error":"io.navd.LimitExceeded"}"#])
    #expect(machine.bytesWritten(machine.output.count).isNone, "written: wait for the first call or EOF")
    #expect(machine.wantsInput)
    #expect(machine.bytesReceived(callFrame("a.B", oneway: true), now: t0).closeReason == .connectionLimit)
  }

  @Test("§2 turned away: EOF before any call closes after the reply is written")
  func rejectingEOF() {
    var machine = Machine(limits: testLimits, rejectingWith: replyFrame(1), now: t0)
    #expect(machine.peerClosed().isNone, "the reply is still to be written")
    #expect(machine.bytesWritten(machine.output.count).closeReason == .connectionLimit)
  }
}
