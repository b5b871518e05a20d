import NavEngine
import NavModel
import NavWire

/// Puts the engine's stream frames on the wire as NavWire's `SubscribeFrame`
/// and `WatchFrame` replies, framed as every other streaming reply is
/// (`VarlinkReply`). The engine encodes each frame once and shares the bytes.
public struct WireStreamEncoder: StreamEncoder {
  /// The encoder; it holds nothing.
  public init() {}

  /// The frame's `SubscribeFrame` or `WatchFrame` parameters, encoded.
  public func encode(_ frame: StreamFrame) -> [UInt8] {
    JSONWriter.bytes(Self.parameters(frame))
  }

  /// `{"parameters":<parameters>,"continues":true}` and the NUL that ends a Varlink frame.
  public func frame(_ parameters: [UInt8], into out: inout [UInt8]) {
    VarlinkReply.encodeContinuing(encodedParameters: parameters, into: &out)
  }

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
