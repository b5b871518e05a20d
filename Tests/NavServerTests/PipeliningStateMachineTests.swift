import NavModel
import NavWire
import Testing
import Varlink

@testable import NavServer

/// PROTOCOL.md §2 "Pipelining": up to `maxCallsInFlight` calls of one connection are
/// worked on at once, dispatched in the order received; replies go out strictly in
/// that order; a call with `more` runs alone.
@Suite("PROTOCOL §2 pipelining: calls in flight, replies in call order (no sockets)")
struct PipeliningStateMachineTests {
  /// Dispatches every call the machine is ready to dispatch, starting with `first`.
  func dispatchAll(_ machine: inout Machine, first: Action) -> [(call: VarlinkCall, serial: UInt64)] {
    var dispatched: [(call: VarlinkCall, serial: UInt64)] = []
    var action = first
    while let next = action.dispatched {
      dispatched.append(next)
      action = machine.nextAction()
    }
    return dispatched
  }

  @Test("PROTOCOL §2 pipelined calls are all dispatched at once, in the order received")
  func dispatchedTogether() {
    var machine = Machine(limits: testLimits)
    let bytes = callFrame("a.One") + callFrame("a.Two") + callFrame("a.Three")
    let calls = dispatchAll(&machine, first: machine.bytesReceived(bytes, now: t0))
    #expect(calls.map(\.call.method) == ["a.One", "a.Two", "a.Three"])
    #expect(calls.map(\.serial) == [1, 2, 3])
    #expect(machine.callsInProgress == [1, 2, 3])
  }

  @Test("PROTOCOL §2 a reply that ends early waits until every earlier call's reply is queued")
  func repliesInCallOrder() {
    var machine = Machine(limits: testLimits)
    let bytes = callFrame("a.One") + callFrame("a.Two") + callFrame("a.Three")
    _ = dispatchAll(&machine, first: machine.bytesReceived(bytes, now: t0))
    #expect(machine.callReplied(serial: 3, frame: replyFrame(3)).isNone)
    #expect(!machine.hasOutput, "serial 3 ended first: held back")
    #expect(machine.callReplied(serial: 2, frame: replyFrame(2)).isNone)
    #expect(!machine.hasOutput, "serial 1 still runs")
    #expect(machine.callReplied(serial: 1, frame: replyFrame(1)).isNone)
    #expect(
      outputFrames(machine) == [
        #"{"parameters":{"value":1}}"#, #"{"parameters":{"value":2}}"#, #"{"parameters":{"value":3}}"#,
      ])
    #expect(machine.callsInProgress.isEmpty)
    #expect(machine.callReplied(serial: 2, frame: replyFrame(99)).isNone, "a duplicate answer is ignored")
    #expect(outputFrames(machine).count == 3)
  }

  @Test("PROTOCOL §2 at most maxCallsInFlight calls run at once; each reply frees a slot")
  func boundedInFlight() {
    var limits = testLimits
    limits.maxCallsInFlight = 2
    var machine = Machine(limits: limits)
    let bytes = callFrame("a.One") + callFrame("a.Two") + callFrame("a.Three")
    let calls = dispatchAll(&machine, first: machine.bytesReceived(bytes, now: t0))
    #expect(calls.map(\.serial) == [1, 2])
    #expect(machine.callReplied(serial: 2, frame: replyFrame(2)).isNone, "a held reply still holds its slot")
    #expect(machine.callReplied(serial: 1, frame: replyFrame(1)).dispatched?.serial == 3)
  }

  @Test("PROTOCOL §2 held-back replies count toward the low-water mark: no dispatch above it")
  func heldRepliesBackpressure() throws {
    var machine = Machine(limits: testLimits)
    let one = try #require(
      machine.bytesReceived(callFrame("a.One") + callFrame("a.Two") + callFrame("a.Three"), now: t0).dispatched)
    let two = try #require(machine.nextAction().dispatched)
    let big = VarlinkReply.encoded(parameters: ["s": .string(String(repeating: "y", count: 200))])
    #expect(machine.callReplied(serial: two.serial, frame: big).isNone, "held bytes >= low water: a.Three waits")
    #expect(!machine.hasOutput)
    #expect(machine.callReplied(serial: one.serial, frame: replyFrame(1)).isNone, "queued output >= low water")
    #expect(machine.bytesWritten(machine.output.count).dispatched?.call.method == "a.Three")
  }

  @Test("PROTOCOL §2 held-back replies past the hard output limit close the connection")
  func heldRepliesHardLimit() throws {
    var machine = Machine(limits: testLimits)
    _ = dispatchAll(&machine, first: machine.bytesReceived(callFrame("a.One") + callFrame("a.Two"), now: t0))
    let huge = VarlinkReply.encoded(parameters: ["s": .string(String(repeating: "z", count: 1200))])
    #expect(machine.callReplied(serial: 2, frame: huge).closeReason == .outputLimit(1000))
    #expect(machine.isClosed)
  }

  @Test("PROTOCOL §2 oneway calls take a slot, end in any order and send nothing")
  func onewaySlots() {
    var limits = testLimits
    limits.maxCallsInFlight = 2
    var machine = Machine(limits: limits)
    let bytes = callFrame("a.Fire", oneway: true) + callFrame("a.Ask") + callFrame("a.Last")
    let calls = dispatchAll(&machine, first: machine.bytesReceived(bytes, now: t0))
    #expect(calls.map(\.call.method) == ["a.Fire", "a.Ask"])
    #expect(machine.callReplied(serial: 2, frame: replyFrame(2)).isNone)
    #expect(!machine.hasOutput, "the oneway call before it has not ended")
    #expect(machine.callReplied(serial: 1, frame: replyFrame("ignored")).dispatched?.call.method == "a.Last")
    #expect(outputFrames(machine) == [#"{"parameters":{"value":2}}"#])
  }

  @Test("PROTOCOL §2 a call with more waits for the calls before it, and the calls after it wait for its stream")
  func streamRunsAlone() throws {
    var machine = Machine(limits: testLimits)
    let bytes = callFrame("a.One") + callFrame("a.Watch", more: true) + callFrame("a.Two")
    let first = dispatchAll(&machine, first: machine.bytesReceived(bytes, now: t0))
    #expect(first.map(\.call.method) == ["a.One"], "a.Watch waits: a call is in flight")
    let watch = try #require(machine.callReplied(serial: 1, frame: replyFrame(1)).dispatched)
    #expect(watch.call.method == "a.Watch")
    #expect(machine.nextAction().isNone, "nothing is dispatched behind a call with more")
    let source = ScriptedSource()
    source.pending = [replyFrame(2, continues: true)]
    #expect(machine.streamStarted(serial: watch.serial, source: source).pulledSerial == watch.serial)
    let pulled = source.pull()
    #expect(machine.sourceProduced(serial: watch.serial, bytes: pulled.bytes, finished: false).isNone)
    let two = machine.sourceProduced(serial: watch.serial, bytes: replyFrame(3), finished: true)
    #expect(two.dispatched?.call.method == "a.Two")
    #expect(
      outputFrames(machine) == [
        #"{"parameters":{"value":1}}"#, #"{"parameters":{"value":2},"continues":true}"#,
        #"{"parameters":{"value":3}}"#,
      ])
  }

  @Test("PROTOCOL §2 a call with more answered without a stream lets the next calls run")
  func moreAnsweredOnce() throws {
    var machine = Machine(limits: testLimits)
    let bytes = callFrame("a.Watch", more: true) + callFrame("a.One") + callFrame("a.Two")
    let watch = try #require(machine.bytesReceived(bytes, now: t0).dispatched)
    #expect(machine.nextAction().isNone)
    let next = machine.callReplied(serial: watch.serial, frame: replyFrame(0))
    let calls = dispatchAll(&machine, first: next)
    #expect(calls.map(\.call.method) == ["a.One", "a.Two"])
  }

  @Test("PROTOCOL §2 a stream handed over for a call without more, behind others, answers ExpectedMore in its place")
  func expectedMoreInOrder() {
    var machine = Machine(limits: testLimits)
    _ = dispatchAll(&machine, first: machine.bytesReceived(callFrame("a.One") + callFrame("a.Watch"), now: t0))
    let source = ScriptedSource()
    #expect(machine.streamStarted(serial: 2, source: source).cancelledSource === source)
    #expect(!machine.hasOutput)
    _ = machine.callReplied(serial: 1, frame: replyFrame(1))
    #expect(
      outputFrames(machine) == [
        #"{"parameters":{"value":1}}"#, #"{"parameters":{},"error":"org.varlink.service.ExpectedMore"}"#,
      ])
  }

  @Test("PROTOCOL §2 bad input behind calls in flight closes only after they are all answered and written")
  func protocolErrorBehindCallsInFlight() {
    var machine = Machine(limits: testLimits)
    let input = callFrame("a.One") + callFrame("a.Two") + Array("{broken".utf8) + [0] + callFrame("a.Never")
    let calls = dispatchAll(&machine, first: machine.bytesReceived(input, now: t0))
    #expect(calls.map(\.call.method) == ["a.One", "a.Two"])
    #expect(machine.callReplied(serial: 2, frame: replyFrame(2)).isNone)
    #expect(machine.callReplied(serial: 1, frame: replyFrame(1)).isNone, "both replies must be written first")
    #expect(outputFrames(machine).count == 2)
    guard case .protocolError = machine.bytesWritten(machine.output.count).closeReason else {
      Issue.record("expected a protocol-error close after the flush")
      return
    }
  }

  @Test("PROTOCOL §2 a graceful stop answers the calls in flight in order, the next with the final reply, then closes")
  func stopAnswersCallsInFlight() {
    var limits = testLimits
    limits.maxCallsInFlight = 2
    var machine = Machine(limits: limits)
    let bytes = callFrame("a.One") + callFrame("a.Two") + callFrame("a.Three")
    _ = dispatchAll(&machine, first: machine.bytesReceived(bytes, now: t0))
    let stop = VarlinkReply.encoded(parameters: [:], error: "io.navd.ServerStopping")
    #expect(machine.serverStopping(finalReply: stop).isNone, "two calls in flight")
    #expect(machine.callReplied(serial: 2, frame: replyFrame(2)).isNone)
    #expect(machine.callReplied(serial: 1, frame: replyFrame(1)).isNone, "a.Three is not started")
    #expect(
      outputFrames(machine) == [
        #"{"parameters":{"value":1}}"#, #"{"parameters":{"value":2}}"#,
        #"{"parameters":{},"error":"io.navd.ServerStopping"}"#,
      ])
    #expect(machine.bytesWritten(machine.output.count).closeReason == .serverStopping)
  }

  @Test("PROTOCOL §2 a connection with calls in flight is not handed over until they are answered")
  func handOverWaitsForCallsInFlight() {
    var machine = Machine(limits: testLimits)
    _ = dispatchAll(&machine, first: machine.bytesReceived(callFrame("a.One") + callFrame("a.Two"), now: t0))
    machine.handOverRequested()
    #expect(machine.hasCallInProgress)
    guard case .notYet = machine.handOverReadiness else {
      Issue.record("calls in flight: not yet")
      return
    }
    _ = machine.callReplied(serial: 2, frame: replyFrame(2))
    _ = machine.callReplied(serial: 1, frame: replyFrame(1))
    _ = machine.bytesWritten(machine.output.count)
    #expect(!machine.hasCallInProgress)
    guard case .idle = machine.handOverReadiness else {
      Issue.record("answered and written: ready to hand over idle")
      return
    }
  }

  @Test(
    "PROTOCOL §2 a call the service does not let overlap waits for every earlier call, and the later ones wait for it")
  func nonOverlappingCallRunsAlone() throws {
    var limits = testLimits
    limits.mayOverlap = { $0.methodName == "Write" }
    var machine = Machine(limits: limits)
    let bytes = callFrame("a.Write") + callFrame("a.Write") + callFrame("a.Read") + callFrame("a.Write")
    let writes = dispatchAll(&machine, first: machine.bytesReceived(bytes, now: t0))
    #expect(writes.map(\.serial) == [1, 2], "a.Read waits: it must see both writes")
    #expect(machine.callReplied(serial: 2, frame: replyFrame(2)).isNone)
    let read = try #require(machine.callReplied(serial: 1, frame: replyFrame(1)).dispatched)
    #expect(read.call.methodName == "Read")
    #expect(machine.nextAction().isNone, "the write after the read waits for it")
    #expect(machine.callReplied(serial: read.serial, frame: replyFrame(3)).dispatched?.serial == 4)
  }
}
