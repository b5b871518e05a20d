import NavModel
import NavWire
import Testing
import Varlink

@testable import NavServer

/// PROTOCOL §2 "Pipelining" with large frames: a frame of at least `offLoopParseBytes` is
/// handed out for parsing (`.parse`) instead of parsed in place, and its connection
/// dispatches nothing until it is back (`frameParsed`), so calls still start in the order
/// received; bad input found off the loop closes the connection as bad input found on it.
@Suite("PROTOCOL §2 large frames are parsed off the loop, in call order (no sockets)")
struct OffLoopParseStateMachineTests {
  /// Frames of 40 bytes or more are parsed off the loop.
  var limits: Machine.Limits {
    var limits = testLimits
    limits.offLoopParseBytes = 40
    return limits
  }

  /// A call frame of at least 40 bytes (NUL-terminated).
  func large(_ method: String) -> [UInt8] {
    callFrame(method, ["padding": .string(String(repeating: "p", count: 40))])
  }

  /// The frame handed out for parsing, without its NUL, or nil.
  func parsed(_ action: Action) -> [UInt8]? {
    if case .parse(let frame) = action { return frame }
    return nil
  }

  @Test("PROTOCOL §2 a large frame is handed out for parsing; smaller calls behind it wait for it")
  func largeFrameKeepsOrder() throws {
    var machine = Machine(limits: limits)
    let first = machine.bytesReceived(callFrame("a.Small") + large("a.Large") + callFrame("a.After"), now: t0)
    #expect(first.dispatched?.call.method == "a.Small")
    let frame = try #require(parsed(machine.nextAction()), "the large frame goes out to be parsed")
    #expect(frame == Array(large("a.Large").dropLast()))
    #expect(machine.nextAction().isNone, "a.After waits for the large call")
    #expect(!machine.isIdle)
    let call = try VarlinkCall(frame: frame)
    let dispatched = try #require(machine.frameParsed(.success(call)).dispatched)
    #expect(dispatched.call.method == "a.Large")
    #expect(dispatched.serial == 2)
    #expect(machine.nextAction().dispatched?.call.method == "a.After")
    #expect(machine.callsInProgress == [1, 2, 3])
  }

  @Test("PROTOCOL §2 a frame below the bound is parsed in place, as before")
  func smallFrameParsedInPlace() {
    var machine = Machine(limits: limits)
    #expect(machine.bytesReceived(callFrame("a.One"), now: t0).dispatched?.call.method == "a.One")
  }

  @Test("PROTOCOL §2 a large call that runs alone waits, once parsed, for the calls before it")
  func parsedLoneCallIsHeld() throws {
    var limits = limits
    limits.mayOverlap = { $0.method != "a.Alone" }
    var machine = Machine(limits: limits)
    #expect(machine.bytesReceived(callFrame("a.One") + large("a.Alone"), now: t0).dispatched?.serial == 1)
    let frame = try #require(parsed(machine.nextAction()))
    #expect(machine.frameParsed(.success(try VarlinkCall(frame: frame))).isNone, "a.One is still in flight")
    #expect(machine.callReplied(serial: 1, frame: replyFrame(1)).dispatched?.call.method == "a.Alone")
  }

  @Test("PROTOCOL §2 a large frame that is not a call closes the connection after the calls before it")
  func parseErrorCloses() throws {
    var machine = Machine(limits: limits)
    let broken = Array(("{" + String(repeating: " ", count: 50)).utf8) + [0]
    #expect(machine.bytesReceived(callFrame("a.One") + broken + callFrame("a.Never"), now: t0).dispatched != nil)
    #expect(parsed(machine.nextAction()) != nil)
    let error = VarlinkProtocolError(.invalidJSON, "unexpected end of input")
    #expect(machine.frameParsed(.failure(error)).isNone, "a.One is still in flight")
    #expect(machine.callReplied(serial: 1, frame: replyFrame(1)).isNone, "its reply is written first")
    #expect(outputFrames(machine) == [#"{"parameters":{"value":1}}"#])
    guard case .protocolError = machine.bytesWritten(machine.output.count).closeReason else {
      Issue.record("expected a protocol-error close after the flush")
      return
    }
  }

  @Test("PROTOCOL §2 the frame being parsed counts as held input: no reading past one frame's worth")
  func parsingFrameHoldsInput() throws {
    var limits = limits
    limits.maxFrameBytes = 100
    var machine = Machine(limits: limits)
    let frame = large("a.Large")
    #expect(parsed(machine.bytesReceived(frame, now: t0)) != nil)
    #expect(machine.wantsInput, "\(frame.count) bytes held")
    _ = machine.bytesReceived(Array(repeating: UInt8(ascii: " "), count: 100 - frame.count + 2), now: t0)
    #expect(!machine.wantsInput, "the parsing frame and the partial one pass the frame limit")
  }

  @Test("PROTOCOL §2 a stop answers a frame still being parsed with the final reply; its call is dropped")
  func parsedAfterStopIsDropped() throws {
    var machine = Machine(limits: limits)
    let frame = try #require(parsed(machine.bytesReceived(large("a.Large"), now: t0)))
    let stop = VarlinkReply.encoded(parameters: [:], error: "io.navd.ServerStopping")
    #expect(machine.serverStopping(finalReply: stop).isNone, "the final reply waits to be written")
    #expect(outputFrames(machine) == [#"{"parameters":{},"error":"io.navd.ServerStopping"}"#])
    #expect(machine.frameParsed(.success(try VarlinkCall(frame: frame))).isNone, "not dispatched")
    #expect(machine.bytesWritten(machine.output.count).closeReason == .serverStopping)
  }
}
