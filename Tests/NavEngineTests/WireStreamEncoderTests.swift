import NavEngine
import NavModel
import NavTestSupport
import NavWire
import Testing
import Varlink

@testable import NavService

/// `WireStreamEncoder` writes updates straight to bytes; `JSONWriter` over the
/// `SubscribeFrame` parameters stays the reference (PROTOCOL.md §3 Subscribe).
@Suite("WireStreamEncoder: updates written directly, byte for byte the reference")
struct WireStreamEncoderTests {
  @Test("§3 seeded random updates: the direct bytes equal JSONWriter's over the parameters")
  func directUpdateMatchesReference() throws {
    let seed = SplitMix64.testSeed(default: 20_261_130)
    var random = SplitMix64(seed: seed)
    let encoder = WireStreamEncoder()
    for round in 0..<2_000 {
      // A quarter of the versions from just below 2^53 up, where the encoder writes them
      // through a double, as the reference does.
      let from =
        UInt64.random(in: 0..<4, using: &random) == 0
        ? UInt64.random(in: (1 << 53 - 64)...(UInt64.max - 64), using: &random)
        : UInt64.random(in: 0...(1 << 53), using: &random)
      let frame = StreamFrame.update(
        fromVersion: from, toVersion: from + UInt64.random(in: 1...64, using: &random),
        patch: (0..<Int.random(in: 0...5, using: &random)).map { _ in Self.operation(&random) },
        animated: Bool.random(using: &random),
        events: (0..<Int.random(in: 0...3, using: &random)).map { _ in Self.event(&random) },
        coalesced: Bool.random(using: &random))
      let direct = encoder.encode(frame)
      let reference = JSONWriter.bytes(WireStreamEncoder.parameters(frame))
      #expect(
        direct == reference,
        "seed \(seed), round \(round): \(String(decoding: direct, as: UTF8.self)) != \(String(decoding: reference, as: UTF8.self))"
      )
      if direct != reference { return }
    }
  }

  @Test("§3 seeded random frames: written straight into the reply, the bytes of the parameters framed apart")
  func framedDirectlyMatchesReference() throws {
    let seed = SplitMix64.testSeed(default: 20_261_201)
    var random = SplitMix64(seed: seed)
    let encoder = WireStreamEncoder()
    for round in 0..<1_000 {
      let from = UInt64.random(in: 0...(1 << 53), using: &random)
      let events = (0..<Int.random(in: 0...3, using: &random)).map { _ in Self.event(&random) }
      let frame: StreamFrame =
        Int.random(in: 0..<4, using: &random) == 0
        ? .events(version: from, events: events)
        : .update(
          fromVersion: from, toVersion: from + UInt64.random(in: 1...64, using: &random),
          patch: (0..<Int.random(in: 0...5, using: &random)).map { _ in Self.operation(&random) },
          animated: Bool.random(using: &random), events: events, coalesced: Bool.random(using: &random))
      let direct = encoder.encodeFramed(frame)
      var reference: [UInt8] = []
      VarlinkReply.encodeContinuing(
        encodedParameters: JSONWriter.bytes(WireStreamEncoder.parameters(frame)), into: &reference)
      #expect(
        direct == reference,
        "seed \(seed), round \(round): \(String(decoding: direct, as: UTF8.self)) != \(String(decoding: reference, as: UTF8.self))"
      )
      if direct != reference { return }
    }
  }

  @Test("§3 updates of every shape, from a title change to events and objects, are the reference's bytes")
  func updateShapes() throws {
    let title = JSONPointer(tokens: ["navigationBar", "centre", "title"])
    let long = String(repeating: "Inbox é ☃ 😀 ", count: 20)
    let cases: [(String, [PatchOperation], [SceneEvent], UInt64)] = [
      ("a title change", [.replace(path: title, value: .string(long))], [], 41),
      ("a title gone", [.replace(path: title, value: .null)], [], 0),
      ("no operation", [], [], 12_345),
      (
        "scalars and pointers of every operation",
        [
          .add(path: JSONPointer(tokens: ["a", "0"]), value: .bool(true)), .remove(path: .root),
          .replace(path: title, value: .number(-1_234_567)), .move(from: title, path: JSONPointer(tokens: ["b"])),
          .copy(from: .root, path: JSONPointer(tokens: [""])), .test(path: title, value: .number(0)),
          .add(path: title, value: .bool(false)), .add(path: title, value: .number(9_007_199_254_740_992)),
        ], [], 7
      ),
      ("a string to escape", [.replace(path: title, value: .string("say \"hi\""))], [], 41),
      ("a backslash at the end of a long string", [.replace(path: title, value: .string(long + "\\"))], [], 41),
      ("a pointer to escape", [.replace(path: JSONPointer(tokens: ["a/b"]), value: .null)], [], 41),
      ("a pointer to escape as JSON", [.remove(path: JSONPointer(tokens: ["\""]))], [], 41),
      ("a fraction", [.replace(path: title, value: .number(3.5))], [], 41),
      ("a number past 2^53", [.replace(path: title, value: .number(1e21))], [], 41),
      ("an array", [.replace(path: title, value: .array([]))], [], 41),
      ("an object", [.replace(path: title, value: .object(["b": 1, "a": [.null, "x"]]))], [], 41),
      ("an event", [.replace(path: title, value: .null)], [.push(item: "top", animated: true)], 41),
      ("a version past 2^53", [], [], 1 << 53),
    ]
    let encoder = WireStreamEncoder()
    for (name, patch, events, from) in cases {
      for (animated, coalesced) in [(false, false), (true, true)] {
        // The last case's `toVersion` is 2^53 + 1, past where versions are written as integers.
        let frame = StreamFrame.update(
          fromVersion: from, toVersion: from + 1, patch: patch, animated: animated, events: events, coalesced: coalesced
        )
        let reference = JSONWriter.bytes(WireStreamEncoder.parameters(frame))
        var framedReference: [UInt8] = []
        VarlinkReply.encodeContinuing(encodedParameters: reference, into: &framedReference)
        #expect(encoder.encode(frame) == reference, "\(name): encode")
        #expect(encoder.encodeFramed(frame) == framedReference, "\(name): encodeFramed")
      }
    }
  }

  @Test("§3 an update that outgrows the writer's stack memory, in its value or in a pointer, is the reference's bytes")
  func updatesAcrossTheStackMemory() throws {
    let title = JSONPointer(tokens: ["navigationBar", "centre", "title"])
    let stack = SortedJSONWriter.stackBytes
    let encoder = WireStreamEncoder()
    for length in (stack - 220)...(stack - 80) {
      let long = String(repeating: "y", count: length)
      // The long token first or last: a pointer that does not fit the memory left is written apart.
      let patches: [[PatchOperation]] = [
        [.replace(path: title, value: .string(long))],
        [.replace(path: JSONPointer(tokens: [long, "title"]), value: .string("t"))],
        [.replace(path: JSONPointer(tokens: ["centre", long]), value: .string("t"))],
      ]
      for patch in patches {
        let frame = StreamFrame.update(
          fromVersion: 41, toVersion: 42, patch: patch, animated: false, events: [], coalesced: false)
        let reference = JSONWriter.bytes(WireStreamEncoder.parameters(frame))
        var framedReference: [UInt8] = []
        VarlinkReply.encodeContinuing(encodedParameters: reference, into: &framedReference)
        #expect(encoder.encode(frame) == reference, "\(length) bytes")
        #expect(encoder.encodeFramed(frame) == framedReference, "\(length) bytes, framed")
      }
    }
  }

  private static let texts = ["", "a", "title", "with \"quotes\"", "back\\slash", "~0/~1", "a/b", "é ☃ 😀", "\n\t\u{1}"]

  private static func text(_ random: inout SplitMix64) -> String {
    texts[Int.random(in: 0..<texts.count, using: &random)]
  }

  private static func pointer(_ random: inout SplitMix64) -> JSONPointer {
    JSONPointer(tokens: (0..<Int.random(in: 0...3, using: &random)).map { _ in text(&random) })
  }

  private static func value(_ random: inout SplitMix64, depth: Int = 0) -> JSONValue {
    switch Int.random(in: 0..<(depth < 2 ? 7 : 5), using: &random) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &random))
    case 2: return .number([0, -1, 3.5, 1e21, 123_456_789, -0.25][Int.random(in: 0..<6, using: &random)])
    case 3, 4: return .string(text(&random))
    case 5: return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in value(&random, depth: depth + 1) })
    default:
      var members: [String: JSONValue] = [:]
      for _ in 0..<Int.random(in: 0...4, using: &random) { members[text(&random)] = value(&random, depth: depth + 1) }
      return .object(members)
    }
  }

  private static func operation(_ random: inout SplitMix64) -> PatchOperation {
    switch Int.random(in: 0..<6, using: &random) {
    case 0: .add(path: pointer(&random), value: value(&random))
    case 1: .remove(path: pointer(&random))
    case 2: .replace(path: pointer(&random), value: value(&random))
    case 3: .move(from: pointer(&random), path: pointer(&random))
    case 4: .copy(from: pointer(&random), path: pointer(&random))
    default: .test(path: pointer(&random), value: value(&random))
    }
  }

  private static func event(_ random: inout SplitMix64) -> SceneEvent {
    switch Int.random(in: 0..<4, using: &random) {
    case 0: .push(item: text(&random), animated: Bool.random(using: &random))
    case 1: .pop(items: [text(&random), text(&random)], animated: Bool.random(using: &random))
    case 2: .setStack(transition: [.push, .pop, .none][Int.random(in: 0..<3, using: &random)], animated: true)
    default: .activate(item: text(&random), action: Bool.random(using: &random) ? nil : text(&random), tag: -3)
    }
  }
}
