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

  /// An update's parameters (`writeUpdate`) between `prefix` and `suffix`: written on
  /// the stack when plain, as a title change's (`plainUpdate`), else into a growing array.
  private static func update(
    prefix: StaticString, fromVersion: UInt64, toVersion: UInt64, patch: [PatchOperation], animated: Bool,
    events: [SceneEvent], coalesced: Bool, suffix: StaticString
  ) -> [UInt8] {
    if let plain = plainUpdate(
      prefix: prefix, fromVersion: fromVersion, toVersion: toVersion, patch: patch, animated: animated,
      events: events, coalesced: coalesced, suffix: suffix)
    {
      return plain
    }
    var out: [UInt8] = []
    out.reserveCapacity(prefix.utf8CodeUnitCount + capacity(patch: patch) + suffix.utf8CodeUnitCount)
    out.append(literal: prefix)
    writeUpdate(
      fromVersion: fromVersion, toVersion: toVersion, patch: patch, animated: animated, events: events,
      coalesced: coalesced, into: &out)
    out.append(literal: suffix)
    return out
  }

  /// `update`'s bytes when the update is plain and fits in `plainUpdateLimit` bytes
  /// (`UpdateCursor`), else nil: written on the stack and copied into an array of
  /// their size at once: each append to a growing array has a fixed cost besides its
  /// bytes, and a title change's update was eleven of them (BENCHMARKS.md, "Fast paths").
  static func plainUpdate(
    prefix: StaticString, fromVersion: UInt64, toVersion: UInt64, patch: [PatchOperation], animated: Bool,
    events: [SceneEvent], coalesced: Bool, suffix: StaticString
  ) -> [UInt8]? {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: plainUpdateLimit) { buffer in
      var cursor = UpdateCursor(buffer)
      cursor.append(literal: prefix)
      writeUpdate(
        fromVersion: fromVersion, toVersion: toVersion, patch: patch, animated: animated, events: events,
        coalesced: coalesced, into: &cursor)
      cursor.append(literal: suffix)
      guard cursor.plain, let base = buffer.baseAddress else { return nil }
      return [UInt8](UnsafeBufferPointer(start: base, count: cursor.next - base))
    }
  }

  /// The most bytes `plainUpdate` writes: what is always allocated on the stack
  /// without asking how much stack is left. A title change's update is its title
  /// and ~150 bytes (~190 framed).
  static let plainUpdateLimit = 1024

  /// An update's parameters, byte for byte what `JSONWriter.bytes(parameters(frame))`
  /// writes (members in key order, as JSONWriter sorts them) without building its
  /// dictionaries. A seeded randomized test holds it to the reference.
  /// Fast path: the reference costs more than 1 % of a round trip per update per view
  /// (BENCHMARKS.md, "Fast paths").
  static func writeUpdate<Output: UpdateOutput>(
    fromVersion: UInt64, toVersion: UInt64, patch: [PatchOperation], animated: Bool, events: [SceneEvent],
    coalesced: Bool, into out: inout Output
  ) {
    // Adjacent literals are appended as one: each append has a fixed cost besides its bytes.
    out.append(literal: animated ? #"{"animated":true"# : #"{"animated":false"#)
    if coalesced { out.append(literal: #","coalesced":true"#) }
    if events.isEmpty {
      out.append(literal: #","events":[],"fromVersion":"#)
    } else {
      out.append(literal: #","events":["#)
      for (index, event) in events.enumerated() {
        if index > 0 { out.append(byte: UInt8(ascii: ",")) }
        out.append(event: event)
      }
      out.append(literal: #"],"fromVersion":"#)
    }
    out.append(version: fromVersion)
    out.append(literal: #","kind":"update","patch":["#)
    for (index, operation) in patch.enumerated() {
      if index > 0 { out.append(byte: UInt8(ascii: ",")) }
      writeOperation(operation, into: &out)
    }
    out.append(literal: #"],"toVersion":"#)
    out.append(version: toVersion)
    out.append(byte: UInt8(ascii: "}"))
  }

  /// Room for an update's parameters: 160 bytes, and for each operation whose value is a
  /// string (a title change's) ~96 bytes of members and the string's length. A title
  /// change's update (~340 bytes with a 200-byte title) outgrew a fixed 160 bytes, and
  /// growing it cost a second allocation and a copy. An
  /// update without such an operation starts at 160 bytes as before, so it grows as it
  /// did: queued updates are held at their capacity (the bounded-memory tests).
  static func capacity(patch: [PatchOperation]) -> Int {
    var bytes = 160
    for operation in patch {
      if case .string(let text)? = operation.value { bytes += 96 + text.utf8.count }
    }
    return bytes
  }

  /// One RFC 6902 operation as `PatchOperation.json` gives it, members in key order.
  ///
  /// Always inlined: as a call, it was handed a copy of the operation out of the patch.
  @inline(__always)
  private static func writeOperation<Output: UpdateOutput>(_ operation: PatchOperation, into out: inout Output) {
    out.append(byte: UInt8(ascii: "{"))
    if let from = operation.from {
      out.append(literal: #""from":"#)
      out.append(pointer: from)
      out.append(byte: UInt8(ascii: ","))
    }
    out.append(literal: opAndPathKey(operation))
    out.append(pointer: operation.path)
    if let value = operation.value {
      out.append(literal: #","value":"#)
      out.append(value: value)
    }
    out.append(byte: UInt8(ascii: "}"))
  }

  /// `"op":"<name>","path":` of `operation`, one literal: the name as `JSONWriter`
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
