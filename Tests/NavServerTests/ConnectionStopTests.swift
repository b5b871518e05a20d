import NavModel
import Testing
import Varlink

@testable import NavServer

/// PROTOCOL.md "Stopping": what each connection sees when navd stops gracefully.
@Suite("Connection state machine: graceful stop (no sockets)")
struct ConnectionStopTests {
  let stopFrame = VarlinkReply.encoded(parameters: ["message": "stopping"], error: "a.Stopping")

  @Test("Stopping: an idle connection flushes what is queued, then closes")
  func idleCloses() {
    var machine = Machine(limits: testLimits)
    let action = machine.serverStopping(finalReply: stopFrame)
    #expect(action.closeReason == .serverStopping)
    #expect(!machine.wantsInput)
  }

  @Test("Stopping: a stream gets everything its source holds, then the final error reply, then EOF")
  func streamEndsWithFinalReply() throws {
    var machine = Machine(limits: testLimits)
    let call = try #require(machine.bytesReceived(callFrame("a.Watch", more: true), now: t0).dispatched)
    let source = ScriptedSource()
    // 150+ bytes waiting: above the low-water mark, yet stopping pulls the source anyway.
    source.pending = [replyFrame(.string(String(repeating: "x", count: 150)), continues: true)]
    _ = machine.streamStarted(serial: call.serial, source: source)
    _ = machine.sourceProduced(serial: call.serial, bytes: source.pull().bytes, finished: false)
    #expect(machine.output.count > testLimits.outputLowWaterBytes)
    source.pending = [replyFrame(2, continues: true)]
    let pull = machine.serverStopping(finalReply: stopFrame)
    #expect(pull.pulledSerial == call.serial, "the source is drained before the final reply")
    let end = machine.sourceProduced(serial: call.serial, bytes: source.pull().bytes, finished: false)
    #expect(end.cancelledSource != nil, "the source is cancelled after its last pull")
    let frames = outputFrames(machine)
    #expect(frames.last == #"{"parameters":{"message":"stopping"},"error":"a.Stopping"}"#)
    #expect(frames.dropLast().last == #"{"parameters":{"value":2},"continues":true}"#)
    #expect(machine.nextAction().isNone, "waits for the output to drain")
    let closed = machine.bytesWritten(machine.output.count)
    #expect(closed.closeReason == .serverStopping)
  }

  @Test("Stopping: a call in progress is answered first; the first call after it gets the final reply")
  func inFlightCallFinishes() throws {
    var machine = Machine(limits: testLimits)
    let bytes = callFrame("a.Mutate") + callFrame("a.Next")
    let call = try #require(machine.bytesReceived(bytes, now: t0).dispatched)
    #expect(machine.serverStopping(finalReply: stopFrame).isNone, "the call in progress keeps running")
    let after = machine.callReplied(serial: call.serial, frame: replyFrame(1))
    #expect(after.closeReason == nil && after.dispatched == nil)
    #expect(
      outputFrames(machine) == [
        #"{"parameters":{"value":1}}"#, #"{"parameters":{"message":"stopping"},"error":"a.Stopping"}"#,
      ])
    #expect(machine.bytesWritten(machine.output.count).closeReason == .serverStopping)
  }

  @Test("Stopping: a connection holding part of a call gets the final reply, then closes")
  func partialFrameGetsFinalReply() {
    var machine = Machine(limits: testLimits)
    #expect(machine.bytesReceived(Array(callFrame("a.Get").dropLast(3)), now: t0).isNone)
    #expect(machine.serverStopping(finalReply: stopFrame).isNone, "the final reply waits to be written")
    #expect(outputFrames(machine) == [#"{"parameters":{"message":"stopping"},"error":"a.Stopping"}"#])
    #expect(machine.bytesWritten(machine.output.count).closeReason == .serverStopping)
  }

  @Test("Stopping: output none of which is written for the stop stall bound closes the connection")
  func stopStallBound() throws {
    var limits = testLimits
    limits.stallTimeout = .seconds(60)
    limits.stopStallTimeout = .milliseconds(250)
    var machine = Machine(limits: limits)
    let call = try #require(machine.bytesReceived(callFrame("a.Get"), now: t0).dispatched)
    _ = machine.callReplied(serial: call.serial, frame: replyFrame(1))
    #expect(machine.tick(now: t0).isNone)
    #expect(machine.tick(now: t0 + .milliseconds(300)).isNone, "not stopping: the usual stall timeout runs")
    #expect(machine.bytesWritten(1).isNone)
    #expect(machine.tick(now: t0 + .milliseconds(300)).isNone, "a write restarts the clock")
    _ = machine.serverStopping(finalReply: stopFrame)
    #expect(machine.tick(now: t0 + .milliseconds(500)).isNone, "200 ms without a write: within the bound")
    let pending = machine.output.count
    #expect(
      machine.tick(now: t0 + .milliseconds(560)).closeReason == .stalled(.milliseconds(250), pendingBytes: pending))
  }

  @Test("Stopping: a call that turns into a stream while stopping ends with the final reply")
  func streamStartedWhileStopping() throws {
    var machine = Machine(limits: testLimits)
    let call = try #require(machine.bytesReceived(callFrame("a.Watch", more: true), now: t0).dispatched)
    _ = machine.serverStopping(finalReply: stopFrame)
    let source = ScriptedSource()
    source.pending = [replyFrame(1, continues: true)]
    let pull = machine.streamStarted(serial: call.serial, source: source)
    #expect(pull.pulledSerial == call.serial)
    let end = machine.sourceProduced(serial: call.serial, bytes: source.pull().bytes, finished: false)
    #expect(end.cancelledSource != nil)
    #expect(
      outputFrames(machine) == [
        #"{"parameters":{"value":1},"continues":true}"#, #"{"parameters":{"message":"stopping"},"error":"a.Stopping"}"#,
      ])
  }
}
