import NavModel
import NavTestSupport
import NavWire
import Testing

@testable import NavServer

/// The loop serves a quiet stream's signal in one step: it pulls the source and writes
/// the pulled bytes straight to the socket (`ServerLoop.pullAndWrite`), telling the state
/// machine with `takesSignalForDirectWrite` and `sourceWritten`/`sourceWrittenWhole`.
/// These tests hold that shortcut to what the separate steps (`sourceSignalled`, `pull`,
/// `sourceProduced`, `bytesWritten`) do: PROTOCOL.md §2's ordering, backpressure and
/// output bounds must not depend on which path wrote the bytes.
@Suite("PROTOCOL §2 fan-out: a quiet stream pulled and written in one step")
struct DirectStreamWriteTests {
  /// A machine streaming call 1 from `source`, its first pull done and written.
  private func streaming(_ source: any ReplySource, limits: Machine.Limits = testLimits) throws -> Machine {
    var machine = Machine(limits: limits)
    let call = try #require(machine.bytesReceived(callFrame("a.Watch", more: true), now: t0).dispatched)
    #expect(machine.streamStarted(serial: call.serial, source: source).pulledSerial == call.serial)
    #expect(machine.sourceProduced(serial: call.serial, bytes: [], finished: false).isNone)
    return machine
  }

  @Test("§2 a stream with nothing queued takes the signal; the socket taking it all leaves nothing to do")
  func quietStreamTakesTheSignal() throws {
    var machine = try streaming(ScriptedSource())
    #expect(machine.takesSignalForDirectWrite(serial: 1) == true)
    machine.sourceWrittenWhole(40)
    #expect(!machine.hasOutput)
    #expect(machine.nextAction().isNone, "the signal was taken: no pull is left to do")
    #expect(machine.callsInProgress == [1])
  }

  /// Each case leaves the machine where a pull would have something ahead of it, or none
  /// is allowed; the signal must then go the long way (`sourceSignalled`).
  enum NotQuiet: String, CaseIterable, CustomTestStringConvertible {
    case outputWaiting = "output from a partial write is waiting"
    case otherSerial = "the signal is for another call"
    case noStream = "no stream is open"
    case stopping = "the server is stopping"
    case messageBehindStream = "a message arrived behind an endless stream"
    var testDescription: String { rawValue }
  }

  @Test("§2 the signal goes the long way when the stream is not quiet", arguments: NotQuiet.allCases)
  func notQuiet(_ condition: NotQuiet) throws {
    let source = EndlessSource()
    var machine = try streaming(source)
    var serial: UInt64 = 1
    switch condition {
    case .outputWaiting:
      #expect(machine.takesSignalForDirectWrite(serial: 1) == true)
      #expect(machine.sourceWritten(serial: 1, bytes: replyFrame(1, continues: true), written: 5).isNone)
      #expect(machine.hasOutput)
    case .otherSerial:
      serial = 2
    case .noStream:
      machine = Machine(limits: testLimits)
    case .stopping:
      #expect(machine.serverStopping(finalReply: replyFrame("bye")).pulledSerial == 1)
    case .messageBehindStream:
      #expect(machine.bytesReceived(callFrame("a.Other"), now: t0).closeReason != nil)
      #expect(machine.takesSignalForDirectWrite(serial: 1) == false)
      return
    }
    #expect(machine.takesSignalForDirectWrite(serial: serial) == false)
  }

  @Test("§2 what the socket did not take is queued, and the next signal waits for it")
  func partialWriteQueuesTheRest() throws {
    var machine = try streaming(ScriptedSource())
    let frame = replyFrame("abcdefghij", continues: true)
    #expect(machine.takesSignalForDirectWrite(serial: 1) == true)
    #expect(machine.sourceWritten(serial: 1, bytes: frame, written: 7).isNone)
    #expect(machine.output.bytes == Array(frame[7...]))
    #expect(machine.takesSignalForDirectWrite(serial: 1) == false, "output waits: not quiet")
    #expect(machine.bytesWritten(frame.count - 7).isNone)
    #expect(machine.takesSignalForDirectWrite(serial: 1) == true, "drained: quiet again")
  }

  @Test("§2 pulled bytes past the hard output limit close the connection and cancel the stream")
  func pastTheHardLimit() throws {
    let source = ScriptedSource()
    var machine = try streaming(source)
    let big = [UInt8](repeating: UInt8(ascii: "x"), count: testLimits.outputHardLimitBytes + 10) + [0]
    #expect(machine.takesSignalForDirectWrite(serial: 1) == true)
    let action = machine.sourceWritten(serial: 1, bytes: big, written: 5)
    #expect(action.closeReason == .outputLimit(testLimits.outputHardLimitBytes))
    #expect(action.cancelledSource === source)
    #expect(machine.isClosed)
  }

  /// The same random signals and socket capacities through both paths, one pass at a
  /// time as the loop runs them: the client must receive the same bytes, and both
  /// machines must hold the same output and agree on what they pull next.
  @Test("§2 seeded: the one-step path writes what the separate steps write")
  func seededAgainstTheSeparateSteps() throws {
    let seed = UInt64.random(in: 1...UInt64.max)
    var random = SplitMix64(seed: seed)
    let limits = Machine.Limits(
      maxFrameBytes: 1024, maxJSONDepth: 64, outputLowWaterBytes: 300, outputHardLimitBytes: 4000,
      partialFrameTimeout: .seconds(30))
    let direct = Path(machine: try streaming(Path.source(), limits: limits))
    let reference = Path(machine: try streaming(Path.source(), limits: limits))
    var pulledTotal = 0
    for step in 0..<2_000 {
      let frames = (0..<Int.random(in: 0...3, using: &random)).map { _ in
        replyFrame(.string(String(repeating: "v", count: Int.random(in: 0...400, using: &random))), continues: true)
      }
      let signal = Int.random(in: 0..<4, using: &random) != 0
      let capacity = [0, 1, 17, 150, 10_000][Int.random(in: 0..<5, using: &random)]
      pulledTotal += frames.reduce(0) { $0 + $1.count }
      direct.pass(adding: frames, signal: signal, capacity: capacity, oneStep: true)
      reference.pass(adding: frames, signal: signal, capacity: capacity, oneStep: false)
      let context = Comment(rawValue: "seed \(seed), step \(step)")
      try #require(direct.received == reference.received, context)
      try #require(direct.machine.output.bytes == reference.machine.output.bytes, context)
      try #require(direct.machine.isClosed == reference.machine.isClosed, context)
      if direct.machine.isClosed { break }
    }
    #expect(pulledTotal > 0, "seed \(seed)")
  }

  /// One connection as the loop drives it, with a socket that takes up to a given
  /// number of bytes per pass and a client that keeps what it took.
  private final class Path {
    var machine: Machine
    var received: [UInt8] = []

    init(machine: Machine) { self.machine = machine }

    static func source() -> ScriptedSource { ScriptedSource() }

    private var source: ScriptedSource {
      guard let source = machine.streamSource as? ScriptedSource else { preconditionFailure("no scripted source") }
      return source
    }

    /// The engine queues `frames` (and signals if `signal`); then the loop's last delivery
    /// and fan-out of the pass, with `capacity` bytes of room in the socket.
    func pass(adding frames: [[UInt8]], signal: Bool, capacity: Int, oneStep: Bool) {
      guard !machine.isClosed else { return }
      source.pending += frames
      var room = capacity
      if signal {
        if oneStep, machine.takesSignalForDirectWrite(serial: 1) {
          let pulled = source.pull()
          guard pulled.bytes.count <= machine.limits.outputHardLimitBytes else {
            perform(machine.sourceProduced(serial: 1, bytes: pulled.bytes, finished: false))
            return
          }
          let written = min(room, pulled.bytes.count)
          received += pulled.bytes[..<written]
          room -= written
          if written == pulled.bytes.count {
            machine.sourceWrittenWhole(written)
          } else {
            perform(machine.sourceWritten(serial: 1, bytes: pulled.bytes, written: written))
          }
          return
        }
        perform(machine.sourceSignalled(serial: 1))
      }
      // The fan-out's flush of whatever is queued.
      while !machine.isClosed, machine.hasOutput, room > 0 {
        let bytes = machine.output.bytes
        let written = min(room, bytes.count)
        received += bytes[..<written]
        room -= written
        perform(machine.bytesWritten(written))
      }
    }

    /// Pulls as the loop's `drive` does, until the machine asks for nothing more.
    private func perform(_ first: Action) {
      var action = first
      while case .pull(let serial) = action {
        let pulled = source.pull()
        action = machine.sourceProduced(serial: serial, bytes: pulled.bytes, finished: pulled.finished)
      }
    }
  }
}
