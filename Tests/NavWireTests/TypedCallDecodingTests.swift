import NavModel
import NavTestSupport
import NavWire
import Testing
import Varlink

/// The typed path (`VarlinkCall(frame:)` reading the envelope from the frame's bytes,
/// `MutateCall(call:)` the parameters and ops) against the reference (`JSONParser`, then
/// `VarlinkCall(from:)` and `MutateCall(parameters:)` over dictionaries): the same call, or
/// the same error, for random Mutate calls, valid and broken.
///
/// Replay a failure with `NAVD_TEST_SEED=<seed> swift test --filter TypedCallDecodingTests`;
/// every failure message carries the seed and the frame.
@Suite("Typed call decoding against the reference")
struct TypedCallDecodingTests {
  static let defaultSeed: UInt64 = 0x7E5E_D0C0_FFEE

  /// What decoding a frame gives: a protocol error, or a call and its Mutate (or its error).
  enum Outcome: Equatable {
    case protocolError(VarlinkProtocolError)
    case call(VarlinkCall, Result<MutateCall, CallError>)
  }

  static func reference(_ frame: [UInt8]) -> Outcome {
    let call: VarlinkCall
    do throws(VarlinkProtocolError) {
      let message: JSONValue
      do {
        message = try JSONParser.parse(frame)
      } catch {
        throw VarlinkProtocolError(.invalidJSON, error.description)
      }
      call = try VarlinkCall(from: message)
    } catch {
      return .protocolError(error)
    }
    return .call(call, Result { () throws(CallError) in try MutateCall(parameters: .object(call.parameters)) })
  }

  static func typed(_ frame: [UInt8]) -> (Outcome, fromFrame: Bool) {
    let call: VarlinkCall
    do {
      call = try VarlinkCall(frame: frame)
    } catch {
      return (.protocolError(error), false)
    }
    return (
      .call(call, Result { () throws(CallError) in try MutateCall(call: call) }), call.parametersDocument != nil
    )
  }

  @Test("PROTOCOL §2 §9.13 §9.14 random Mutate calls: the typed path gives the reference's call or error")
  func randomCalls() {
    let seed = SplitMix64.testSeed(default: Self.defaultSeed)
    var rng = SplitMix64(seed: seed)
    var fromFrame = 0
    var accepted = 0
    var protocolErrors = 0
    for round in 0..<5000 {
      var frame = Array(CallText.call(&rng).utf8)
      RandomJSONText.corrupt(&frame, &rng)
      let expected = Self.reference(frame)
      let (outcome, typed) = Self.typed(frame)
      #expect(
        outcome == expected,
        "seed \(seed) (NAVD_TEST_SEED=\(seed)), round \(round): \(String(decoding: frame, as: UTF8.self))")
      switch expected {
      case .protocolError: protocolErrors += 1
      case .call(_, .success): accepted += 1
      case .call: break
      }
      if typed { fromFrame += 1 }
    }
    // Every branch was taken often: accepted calls, call errors, protocol errors, and most
    // calls were read from their frame.
    #expect(
      accepted > 500 && protocolErrors > 500 && fromFrame > 2500,
      "seed \(seed): \(accepted) accepted, \(protocolErrors) protocol errors, \(fromFrame) read from the frame")
  }

  @Test("a call read from its frame builds its parameters only when asked, and equals the same call built by hand")
  func lazyParameters() throws {
    let call = try VarlinkCall(
      frame: Array(#"{"method":"io.navd.Mutate","parameters":{"scene":"s","ops":[]},"com.x.trace":1}"#.utf8))
    #expect(call.parametersDocument != nil)
    #expect(call.parameter("scene") == "s")
    #expect(call.parameter("epoch") == nil)
    #expect(call == VarlinkCall(method: "io.navd.Mutate", parameters: ["scene": "s", "ops": []]))
    var changed = call
    changed.parameters["epoch"] = "e"
    #expect(changed.parametersDocument == nil && changed.parameter("epoch") == "e")
  }
}

/// Random Varlink calls of `io.navd.Mutate`, each envelope and parameter mostly right and
/// sometimes wrong (type, unknown key, escaped or vendor key, several flags).
enum CallText {
  static func call(_ rng: inout SplitMix64) -> String {
    var members: [(String, String)] = [
      (
        rng.chance(4) ? #"\u006dethod"# : "method",
        rng.chance(5)
          ? rng.pick(["1", "null", #""io.navd.GetState""#, #""\u0069o.navd.Mutate""#]) : #""io.navd.Mutate""#
      ),
      ("parameters", rng.chance(5) ? rng.pick(["null", "[]", #""x""#, "{}"]) : parameters(&rng)),
    ]
    for flag in ["oneway", "more", "upgrade"] where rng.chance(15) {
      members.append((flag, rng.pick(["true", "false", "false", "null", "1"])))
    }
    if rng.chance(8) {
      members.append((rng.pick(["com.example.trace", "foo", #"x.\u00e9"#, "x.\u{301}", "é.x"]), "{}"))
    }
    return object(members, &rng)
  }

  static func parameters(_ rng: inout SplitMix64) -> String {
    let ops = (0..<(rng.chance(5) ? 0 : rng.int(1...3))).map { _ in RandomOpText.op(&rng) }
    var members: [(String, String)] = [
      (
        rng.chance(3) ? #"\u0073cene"# : "scene",
        rng.chance(5) ? rng.pick(["null", "1", #""""#]) : rng.pick([#""main""#, #""Ünï""#])
      ),
      ("ops", rng.chance(4) ? rng.pick(["null", "{}", #""ops""#]) : "[" + ops.joined(separator: ",") + "]"),
    ]
    if rng.chance(20) {
      members.append(
        (
          "baseVersion",
          rng.pick(["0", "7", "-1", "1.5", "9007199254740992", "9007199254740993", #""7""#, "null", "-0", "1e3"])
        ))
    }
    if rng.chance(15) { members.append(("epoch", rng.pick([#""e1""#, "null", "3"]))) }
    if rng.chance(15) { members.append(("mutationId", rng.pick([#""m1""#, "null", "false"]))) }
    if rng.chance(15) {
      members.append(
        ("clientId", rng.pick([#""c""#, #""""#, "\"" + String(repeating: "x", count: 129) + "\"", "5", "null"])))
    }
    if rng.chance(15) {
      members.append(("policy", rng.pick([#""lastWriterWins""#, #""failOnConflict""#, #""bogus""#, "1", "null"])))
    }
    if rng.chance(4) { members.append((rng.pick(["sceen", "x.y"]), "1")) }
    return object(members, &rng)
  }

  static func object(_ members: [(String, String)], _ rng: inout SplitMix64) -> String {
    var members = members
    rng.shuffle(&members)
    return "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
  }
}
