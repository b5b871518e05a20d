import NavModel
import NavWire
import Synchronization
import Testing
import Varlink

@testable import NavServer

typealias Machine = Connection.StateMachine
typealias Action = Connection.StateMachine.Action

/// Small limits so tests reach them with a few bytes.
let testLimits = Machine.Limits(
  maxFrameBytes: 1024, maxJSONDepth: 64, outputLowWaterBytes: 100, outputHardLimitBytes: 1000,
  partialFrameTimeout: .seconds(30))

let t0 = ContinuousClock.now

/// A frame for `method` with the given flags, NUL-terminated.
func callFrame(
  _ method: String, _ parameters: [String: JSONValue] = [:], oneway: Bool = false, more: Bool = false,
  upgrade: Bool = false
) -> [UInt8] {
  VarlinkCall(method: method, parameters: parameters, oneway: oneway, more: more, upgrade: upgrade).encoded()
}

/// A reply frame with `value` as its only parameter.
func replyFrame(_ value: JSONValue, continues: Bool = false) -> [UInt8] {
  VarlinkReply.encoded(parameters: ["value": value], continues: continues)
}

/// A source whose pending frames the test sets; records pulls and cancellation.
final class ScriptedSource: ReplySource, @unchecked Sendable {
  // @unchecked: state machine tests use it from one thread only.
  var pending: [[UInt8]] = []
  var finishOnNextPull = false
  var pulls = 0
  var cancelCount = 0

  func pull() -> (bytes: [UInt8], finished: Bool) {
    pulls += 1
    let bytes = pending.flatMap { $0 }
    pending = []
    return (bytes, finishOnNextPull)
  }

  func cancelled() { cancelCount += 1 }
}

extension Action {
  /// The dispatched call and serial, or nil.
  var dispatched: (call: VarlinkCall, serial: UInt64)? {
    if case .dispatch(let call, let serial) = self { return (call, serial) }
    return nil
  }

  var closeReason: CloseReason? {
    if case .close(let reason, _) = self { return reason }
    return nil
  }

  var cancelledSource: (any ReplySource)? {
    switch self {
    case .close(_, let source): source
    case .cancelSource(let source): source
    default: nil
    }
  }

  var isNone: Bool {
    if case .none = self { return true }
    return false
  }

  var pulledSerial: UInt64? {
    if case .pull(let serial) = self { return serial }
    return nil
  }
}

/// Output as text frames, to compare readable strings.
func outputFrames(_ machine: Machine) -> [String] {
  machine.output.bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
    String(decoding: $0, as: UTF8.self)
  }
}
