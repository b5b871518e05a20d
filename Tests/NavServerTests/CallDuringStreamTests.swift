import NavModel
import Testing

@testable import NavServer

/// A source whose stream never ends by itself, like io.navd's Subscribe and WatchActions.
final class EndlessSource: ReplySource, @unchecked Sendable {
  // @unchecked: state machine tests use it from one thread only.
  var pulls = 0
  var cancelCount = 0
  var endsOnItsOwn: Bool { false }
  func pull() -> (bytes: [UInt8], finished: Bool) {
    pulls += 1
    return ([], false)
  }
  func cancelled() { cancelCount += 1 }
}

/// PROTOCOL.md §9.20 "One stream per connection": a message sent on a connection whose
/// endless stream is open could never be answered, so it is a protocol error that closes
/// the connection and cancels the stream (issue 13). Behind a finite stream a call waits
/// its turn, as Varlink pipelining has it (ServerSocketTests' finite stream).
@Suite("PROTOCOL §9.20 a call on a connection with a stream open")
struct CallDuringStreamTests {
  @Test("PROTOCOL §9.20 a call sent while a stream is open closes the connection and cancels the stream")
  func callWhileStreaming() throws {
    var machine = Machine(limits: testLimits)
    let call = try #require(machine.bytesReceived(callFrame("a.Watch", more: true), now: t0).dispatched)
    let source = EndlessSource()
    #expect(machine.streamStarted(serial: call.serial, source: source).pulledSerial == call.serial)
    let action = machine.bytesReceived(callFrame("a.Other"), now: t0)
    #expect(action.closeReason == Machine.callDuringStream)
    #expect(action.cancelledSource === source)
  }

  @Test("PROTOCOL §9.20 a call pipelined behind a streaming call closes once the stream starts")
  func callPipelinedBehindStream() throws {
    var machine = Machine(limits: testLimits)
    var frames = callFrame("a.Watch", more: true)
    frames += callFrame("a.Other", oneway: true)
    let call = try #require(machine.bytesReceived(frames, now: t0).dispatched)
    let source = EndlessSource()
    let action = machine.streamStarted(serial: call.serial, source: source)
    #expect(action.closeReason == Machine.callDuringStream)
    #expect(action.cancelledSource === source)
  }

  @Test("PROTOCOL §9.20 a partial message during a stream is not yet an error; its NUL is")
  func partialThenComplete() throws {
    var machine = Machine(limits: testLimits)
    let call = try #require(machine.bytesReceived(callFrame("a.Watch", more: true), now: t0).dispatched)
    let source = EndlessSource()
    _ = machine.streamStarted(serial: call.serial, source: source)
    #expect(machine.bytesReceived(Array("{\"method\":".utf8), now: t0).closeReason == nil)
    #expect(machine.bytesReceived(Array("\"a.B\"}".utf8) + [0], now: t0).closeReason == Machine.callDuringStream)
  }

  @Test("PROTOCOL §9.20 behind a finite stream a call is not an error: it waits for the stream to end")
  func finiteStreamQueues() throws {
    var machine = Machine(limits: testLimits)
    let call = try #require(machine.bytesReceived(callFrame("a.Watch", more: true), now: t0).dispatched)
    let source = ScriptedSource()
    _ = machine.streamStarted(serial: call.serial, source: source)
    #expect(machine.bytesReceived(callFrame("a.Next"), now: t0).closeReason == nil)
    source.finishOnNextPull = true
    _ = machine.sourceSignalled(serial: call.serial)
    #expect(machine.sourceProduced(serial: call.serial, bytes: [], finished: true).dispatched?.call.method == "a.Next")
  }

  @Test("PROTOCOL §9.20 a plain call to a stream-capable method without more still gets its reply, then the next call")
  func noStreamNoError() throws {
    var machine = Machine(limits: testLimits)
    var frames = callFrame("a.Watch")
    frames += callFrame("a.Next")
    let call = try #require(machine.bytesReceived(frames, now: t0).dispatched)
    let next = machine.streamStarted(serial: call.serial, source: ScriptedSource())
    #expect(next.cancelledSource != nil)
    #expect(machine.nextAction().dispatched?.call.method == "a.Next")
  }
}
