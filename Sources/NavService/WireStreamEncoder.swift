import NavEngine
import NavModel
import NavWire
import Varlink

/// Puts the engine's stream frames on the wire as NavWire's `SubscribeFrame`
/// and `WatchFrame` replies, framed as every other streaming reply is
/// (`VarlinkReply`). The engine encodes each frame once and shares the bytes.
public struct WireStreamEncoder: StreamEncoder {
  /// The encoder; it holds nothing.
  public init() {}

  /// The frame's `SubscribeFrame` or `WatchFrame` parameters, encoded. An
  /// update, the frame of every version, is written straight to bytes
  /// (`writeUpdate`); the others go through `parameters`, the reference.
  public func encode(_ frame: StreamFrame) -> [UInt8] {
    if case .update(let fromVersion, let toVersion, let patch, let animated, let events, let coalesced) = frame {
      return Self.update(
        prefix: "", fromVersion: fromVersion, toVersion: toVersion, patch: patch, animated: animated, events: events,
        coalesced: coalesced, suffix: "")
    }
    return JSONWriter.bytes(Self.parameters(frame))
  }

  /// An update's parameters (`writeUpdate`) between `prefix` and `suffix`.
  private static func update(
    prefix: StaticString, fromVersion: UInt64, toVersion: UInt64, patch: [PatchOperation], animated: Bool,
    events: [SceneEvent], coalesced: Bool, suffix: StaticString
  ) -> [UInt8] {
    SortedJSONWriter.bytes { w in
      if prefix.utf8CodeUnitCount > 0 { w.fragment(prefix) }
      writeUpdate(
        fromVersion: fromVersion, toVersion: toVersion, patch: patch, animated: animated, events: events,
        coalesced: coalesced, into: &w)
      if suffix.utf8CodeUnitCount > 0 { w.fragment(suffix) }
    }
  }

  /// An update's parameters, byte for byte what `JSONWriter.bytes(parameters(frame))`
  /// writes, laid out in key order by hand instead of through the parameters' dictionaries.
  /// A seeded randomized test holds it to the reference.
  /// Fast path: the reference costs more than 1 % of a round trip per update (BENCHMARKS.md, "Fast paths").
  static func writeUpdate(
    fromVersion: UInt64, toVersion: UInt64, patch: [PatchOperation], animated: Bool, events: [SceneEvent],
    coalesced: Bool, into w: inout SortedJSONWriter
  ) {
    // Adjacent constants are one fragment: each write has a fixed cost besides its bytes.
    w.fragment(animated ? #"{"animated":true"# : #"{"animated":false"#)
    if coalesced { w.fragment(#","coalesced":true"#) }
    if events.isEmpty {
      w.fragment(#","events":[],"fromVersion":"#)
    } else {
      w.fragment(#","events":["#)
      for event in events { w.value(event.json) }
      w.fragment(#"],"fromVersion":"#)
    }
    w.version(fromVersion)
    w.fragment(#","kind":"update","patch":["#)
    for operation in patch { writeOperation(operation, into: &w) }
    w.fragment(#"],"toVersion":"#)
    w.version(toVersion)
    w.endObject()
  }

  /// One RFC 6902 operation as `PatchOperation.json` gives it, members in key order.
  ///
  /// Always inlined: as a call, it was handed a copy of the operation out of the patch.
  @inline(__always)
  private static func writeOperation(_ operation: PatchOperation, into w: inout SortedJSONWriter) {
    w.beginObject()
    if let from = operation.from {
      w.key(#""from":"#)
      w.pointer(from)
    }
    w.key(opAndPathKey(operation))
    w.pointer(operation.path)
    if let value = operation.value {
      w.key(#""value":"#)
      w.value(value)
    }
    w.endObject()
  }

  /// `"op":"<name>","path":` of `operation`, one key: the name as `JSONWriter`
  /// writes `operation.name`, none of which needs an escape.
  private static func opAndPathKey(_ operation: PatchOperation) -> StaticString {
    switch operation {
    case .add: #""op":"add","path":"#
    case .remove: #""op":"remove","path":"#
    case .replace: #""op":"replace","path":"#
    case .move: #""op":"move","path":"#
    case .copy: #""op":"copy","path":"#
    case .test: #""op":"test","path":"#
    }
  }

  /// `{"parameters":<parameters>,"continues":true}` and the NUL that ends a Varlink frame.
  public func frame(_ parameters: [UInt8], into out: inout [UInt8]) {
    VarlinkReply.encodeContinuing(encodedParameters: parameters, into: &out)
  }

  /// `frame` as one streaming reply. An update, the frame of every version, is
  /// written straight into the reply, byte for byte what `frame(encode(frame), into:)`
  /// writes (a seeded randomized test holds it to that): encoding it apart and
  /// copying it in cost a second buffer and a copy per update per view.
  public func encodeFramed(_ frame: StreamFrame) -> [UInt8] {
    guard case .update(let fromVersion, let toVersion, let patch, let animated, let events, let coalesced) = frame
    else {
      let parameters = encode(frame)
      var out: [UInt8] = []
      out.reserveCapacity(parameters.count + Self.framing)
      self.frame(parameters, into: &out)
      return out
    }
    return Self.update(
      prefix: #"{"parameters":"#, fromVersion: fromVersion, toVersion: toVersion, patch: patch, animated: animated,
      events: events, coalesced: coalesced, suffix: ",\"continues\":true}\0")
  }

  /// The bytes `frame(_:into:)` adds around the parameters (`VarlinkReply.encodeContinuing`).
  private static let framing = 33

  /// The reply parameters of `frame`: a `SubscribeFrame` or a `WatchFrame`.
  static func parameters(_ frame: StreamFrame) -> JSONValue {
    switch frame {
    case .snapshot(let version, let epoch, let view, let document):
      SubscribeFrame.snapshot(.init(version: version, epoch: epoch, view: view.description, document: document))
        .parameters
    case .update(let fromVersion, let toVersion, let patch, let animated, let events, let coalesced):
      SubscribeFrame.update(
        .init(
          fromVersion: fromVersion, toVersion: toVersion, patch: patch, animated: animated,
          events: events.map(\.json), coalesced: coalesced)
      ).parameters
    case .events(let version, let events):
      SubscribeFrame.events(.init(version: version, events: events.map(\.json))).parameters
    case .watching(let scene, let version):
      WatchFrame.watching(scene: scene, version: version).parameters
    case .activation(let scene, let item, let action, let tag, let version):
      WatchFrame.activation(Activation(scene: scene, item: item, action: action, tag: tag, version: version))
        .parameters
    case .dropped(let scene, let count, let version):
      WatchFrame.dropped(scene: scene, count: count, version: version).parameters
    }
  }
}
