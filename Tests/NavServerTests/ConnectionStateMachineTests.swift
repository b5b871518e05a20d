import NavModel
import Testing
import Varlink

@testable import NavServer

@Suite("Connection state machine (no sockets)")
struct ConnectionStateMachineTests {
  @Test("a complete frame dispatches a call; a partial one waits")
  func dispatchOnCompleteFrame() throws {
    var machine = Machine(limits: testLimits)
    let frame = callFrame("io.navd.GetState", ["scene": "main"])
    #expect(machine.bytesReceived(Array(frame.dropLast()), now: t0).isNone)
    let action = machine.bytesReceived([0], now: t0)
    let dispatched = try #require(action.dispatched)
    #expect(dispatched.call.method == "io.navd.GetState")
    #expect(dispatched.serial == 1)
    #expect(machine.callsInProgress == [1])
  }

  @Test("a late or duplicate reply is ignored")
  func staleReply() throws {
    var machine = Machine(limits: testLimits)
    let first = try #require(machine.bytesReceived(callFrame("a.One"), now: t0).dispatched)
    _ = machine.callReplied(serial: first.serial, frame: replyFrame(1))
    #expect(machine.callReplied(serial: first.serial, frame: replyFrame(99)).isNone)
    #expect(machine.callReplied(serial: 42, frame: replyFrame(99)).isNone)
    #expect(outputFrames(machine).count == 1)
  }

  @Test("a oneway call sends nothing, and the next call follows")
  func oneway() throws {
    var machine = Machine(limits: testLimits)
    let bytes = callFrame("a.Fire", oneway: true) + callFrame("a.Ask")
    let fire = try #require(machine.bytesReceived(bytes, now: t0).dispatched)
    #expect(fire.call.oneway)
    let ask = try #require(machine.callReplied(serial: fire.serial, frame: replyFrame("ignored")).dispatched)
    #expect(ask.call.method == "a.Ask")
    #expect(!machine.hasOutput)
    #expect(machine.callReplied(serial: ask.serial, frame: replyFrame(1)).isNone)
    #expect(outputFrames(machine) == [#"{"parameters":{"value":1}}"#])
  }

  @Test("more: the source is pulled at once, then again each time it signals")
  func streaming() throws {
    var machine = Machine(limits: testLimits)
    let call = try #require(machine.bytesReceived(callFrame("a.Watch", more: true), now: t0).dispatched)
    let source = ScriptedSource()
    source.pending = [replyFrame(1, continues: true)]
    #expect(machine.streamStarted(serial: call.serial, source: source).pulledSerial == call.serial)
    let pulled = source.pull()
    #expect(machine.sourceProduced(serial: call.serial, bytes: pulled.bytes, finished: false).isNone)
    #expect(outputFrames(machine) == [#"{"parameters":{"value":1},"continues":true}"#])
    #expect(machine.sourceSignalled(serial: call.serial).pulledSerial == call.serial)
    #expect(machine.sourceProduced(serial: call.serial, bytes: replyFrame(2), finished: true).isNone)
    #expect(machine.callsInProgress.isEmpty, "finished ends the call")
  }

  @Test("a signalled source is not pulled while output is at or above the low-water mark")
  func pullBackpressure() throws {
    var machine = Machine(limits: testLimits)
    let call = try #require(machine.bytesReceived(callFrame("a.Watch", more: true), now: t0).dispatched)
    let source = ScriptedSource()
    _ = machine.streamStarted(serial: call.serial, source: source)
    let big = replyFrame(.string(String(repeating: "x", count: 150)), continues: true)
    #expect(machine.sourceProduced(serial: call.serial, bytes: big, finished: false).isNone)
    #expect(machine.sourceSignalled(serial: call.serial).isNone, "output >= low water: no pull")
    #expect(machine.bytesWritten(machine.output.count).pulledSerial == call.serial, "drained: pull now")
  }

  @Test("the next pipelined call waits while the peer is not reading")
  func dispatchBackpressure() throws {
    var machine = Machine(limits: testLimits)
    let one = try #require(machine.bytesReceived(callFrame("a.One") + callFrame("a.Two"), now: t0).dispatched)
    let big = VarlinkReply.encoded(parameters: ["s": .string(String(repeating: "y", count: 200))])
    #expect(machine.callReplied(serial: one.serial, frame: big).isNone)
    let two = try #require(machine.bytesWritten(machine.output.count).dispatched)
    #expect(two.call.method == "a.Two")
  }

  @Test("output past the hard limit closes and cancels the stream")
  func hardOutputLimit() throws {
    var machine = Machine(limits: testLimits)
    let call = try #require(machine.bytesReceived(callFrame("a.Watch", more: true), now: t0).dispatched)
    let source = ScriptedSource()
    _ = machine.streamStarted(serial: call.serial, source: source)
    let huge = replyFrame(.string(String(repeating: "z", count: 1200)), continues: true)
    let action = machine.sourceProduced(serial: call.serial, bytes: huge, finished: false)
    #expect(action.closeReason == .outputLimit(1000))
    #expect(action.cancelledSource === source)
    #expect(machine.isClosed)
  }

  @Test("stream() on a call without more is answered ExpectedMore and the source cancelled")
  func streamWithoutMore() throws {
    var machine = Machine(limits: testLimits)
    let call = try #require(machine.bytesReceived(callFrame("a.Watch"), now: t0).dispatched)
    let source = ScriptedSource()
    #expect(machine.streamStarted(serial: call.serial, source: source).cancelledSource === source)
    #expect(outputFrames(machine) == [#"{"parameters":{},"error":"org.varlink.service.ExpectedMore"}"#])
  }

  @Test("invalid JSON, invalid UTF-8, deep nesting and protocol errors close the connection")
  func badInputCloses() {
    let deep = Array(#"{"method":"a.B","parameters":{"x":"#.utf8) + Array(repeating: UInt8(ascii: "["), count: 100_000)
    let inputs: [[UInt8]] = [
      Array("{not json".utf8) + [0],
      Array(#"{"method":"a."#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8) + [0],
      deep.prefix(1000) + [0],
      Array(#"{"method":"a.B","bogus":1}"#.utf8) + [0],
      Array(#"{"method":"a.B","more":true,"oneway":true}"#.utf8) + [0],
    ]
    for input in inputs {
      var machine = Machine(limits: testLimits)
      guard case .protocolError = machine.bytesReceived(input, now: t0).closeReason else {
        Issue.record("expected a protocol-error close for \(String(decoding: input.prefix(40), as: UTF8.self))")
        continue
      }
      #expect(machine.isClosed)
    }
  }

  @Test("a frame over the size limit closes, even in pieces")
  func oversize() {
    var machine = Machine(limits: testLimits)
    #expect(machine.bytesReceived(Array(repeating: 0x20, count: 600), now: t0).isNone)
    guard case .frameTooLarge = machine.bytesReceived(Array(repeating: 0x20, count: 600), now: t0).closeReason else {
      Issue.record("expected frameTooLarge")
      return
    }
  }

  @Test("a partial frame older than the timeout closes; a completed one resets the clock")
  func partialFrameTimeout() throws {
    var machine = Machine(limits: testLimits)
    _ = machine.bytesReceived(Array(#"{"method":"#.utf8), now: t0)
    #expect(machine.tick(now: t0 + .seconds(29)).isNone)
    #expect(machine.tick(now: t0 + .seconds(30)).closeReason == .partialFrameTimeout(.seconds(30)))

    var fresh = Machine(limits: testLimits)
    _ = fresh.bytesReceived(Array(#"{"method":"#.utf8), now: t0)
    let call = try #require(fresh.bytesReceived(Array(#""a.B"}"#.utf8) + [0], now: t0 + .seconds(20)).dispatched)
    _ = fresh.callReplied(serial: call.serial, frame: [])
    #expect(fresh.tick(now: t0 + .seconds(60)).isNone, "no partial frame: no timeout")
  }

  @Test("EOF after pipelined calls: they are answered, then the connection closes")
  func halfClose() throws {
    var machine = Machine(limits: testLimits)
    let one = try #require(machine.bytesReceived(callFrame("a.One") + callFrame("a.Two"), now: t0).dispatched)
    let two = try #require(machine.peerClosed().dispatched, "EOF does not stop the calls already received")
    #expect(machine.nextAction().isNone, "nothing more to dispatch; the calls in flight are not answered yet")
    #expect(machine.callReplied(serial: one.serial, frame: replyFrame(1)).isNone)
    #expect(machine.callReplied(serial: two.serial, frame: replyFrame(2)).isNone, "output still to write")
    #expect(machine.bytesWritten(machine.output.count).closeReason == .peerClosed)
  }

  @Test("calls received before a malformed frame are answered and flushed, then the connection closes")
  func protocolErrorAfterPipelinedCalls() throws {
    var machine = Machine(limits: testLimits)
    let input = callFrame("a.One") + callFrame("a.Two") + Array("{broken".utf8) + [0] + callFrame("a.Never")
    let one = try #require(machine.bytesReceived(input, now: t0).dispatched)
    let two = try #require(machine.callReplied(serial: one.serial, frame: replyFrame(1)).dispatched)
    #expect(two.call.method == "a.Two")
    #expect(machine.callReplied(serial: two.serial, frame: replyFrame(2)).isNone, "both replies must be written first")
    #expect(!machine.wantsInput)
    guard case .protocolError = machine.bytesWritten(machine.output.count).closeReason else {
      Issue.record("expected a protocol-error close after the flush")
      return
    }
  }

  @Test("calls completed before an over-size frame are answered, then the connection closes")
  func oversizeAfterCall() throws {
    var machine = Machine(limits: testLimits)
    let input = callFrame("a.One") + Array(repeating: 0x20, count: 2000)
    let one = try #require(machine.bytesReceived(input, now: t0).dispatched)
    #expect(!machine.wantsInput, "nothing more is read after bad input")
    #expect(machine.callReplied(serial: one.serial, frame: replyFrame(1)).isNone)
    guard case .frameTooLarge = machine.bytesWritten(machine.output.count).closeReason else {
      Issue.record("expected frameTooLarge after the flush")
      return
    }
  }

  @Test("EOF during a stream cancels the source at once")
  func disconnectMidStream() throws {
    var machine = Machine(limits: testLimits)
    let call = try #require(machine.bytesReceived(callFrame("a.Watch", more: true), now: t0).dispatched)
    let source = ScriptedSource()
    _ = machine.streamStarted(serial: call.serial, source: source)
    let action = machine.peerClosed()
    #expect(action.closeReason == .peerClosed)
    #expect(action.cancelledSource === source)
  }

  @Test("closeRequested cancels a running stream; a closed machine ignores everything")
  func closeRequested() throws {
    var machine = Machine(limits: testLimits)
    let call = try #require(machine.bytesReceived(callFrame("a.Watch", more: true), now: t0).dispatched)
    let source = ScriptedSource()
    _ = machine.streamStarted(serial: call.serial, source: source)
    let action = machine.closeRequested(.serverStopping)
    #expect(action.closeReason == .serverStopping)
    #expect(action.cancelledSource === source)
    #expect(machine.closeRequested(.serverStopping).isNone)
    #expect(machine.bytesReceived(callFrame("a.B"), now: t0).isNone)
    #expect(machine.sourceSignalled(serial: call.serial).isNone)
  }

  @Test("input is paused while every call slot is taken and a frame's worth is buffered")
  func inputBackpressure() throws {
    var limits = testLimits
    limits.maxCallsInFlight = 1
    var machine = Machine(limits: limits)
    _ = try #require(machine.bytesReceived(callFrame("a.Slow"), now: t0).dispatched)
    var pipelined: [UInt8] = []
    while pipelined.count <= 1024 { pipelined += callFrame("a.Next") }
    _ = machine.bytesReceived(pipelined, now: t0)
    #expect(!machine.wantsInput)
  }

  @Test("over the connection limit: LimitExceeded is queued at once; close after the first call and the write")
  func rejecting() {
    let limitFrame = VarlinkReply.encoded(parameters: ["limit": "connections"], error: "io.navd.LimitExceeded")
    var machine = Machine(limits: testLimits, rejectingWith: limitFrame, now: t0)
    #expect(machine.bytesReceived(callFrame("org.varlink.service.GetInfo"), now: t0).isNone)
    #expect(outputFrames(machine) == [#"{"parameters":{"limit":"connections"},"error":"io.navd.LimitExceeded"}"#])
    #expect(machine.bytesWritten(machine.output.count).closeReason == .connectionLimit)
  }

  @Test("over the connection limit and silent: closed at the deadline")
  func rejectingTimeout() {
    var machine = Machine(limits: testLimits, rejectingWith: replyFrame(1), now: t0)
    _ = machine.bytesWritten(machine.output.count)
    #expect(machine.tick(now: t0 + .seconds(1)).isNone)
    #expect(machine.tick(now: t0 + .seconds(31)).closeReason == .connectionLimitTimeout)
  }
}
