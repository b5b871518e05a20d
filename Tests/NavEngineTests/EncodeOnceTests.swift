import NavEngine
import NavModel
import NavService
import Synchronization
import Testing

/// Counts the frames it encodes, by kind, and encodes them as navd does.
final class CountingEncoder: StreamEncoder {
  let wire = WireStreamEncoder()
  let counts = Mutex<[String: Int]>([:])

  func encode(_ frame: StreamFrame) -> [UInt8] {
    let kind: String
    switch frame {
    case .snapshot: kind = "snapshot"
    case .update: kind = "update"
    case .events: kind = "events"
    case .watching: kind = "watching"
    case .activation: kind = "activation"
    case .dropped: kind = "dropped"
    }
    counts.withLock { $0[kind, default: 0] += 1 }
    return wire.encode(frame)
  }

  func frame(_ parameters: [UInt8], into out: inout [UInt8]) { wire.frame(parameters, into: &out) }

  func count(_ kind: String) -> Int { counts.withLock { $0[kind] ?? 0 } }
}

/// Fan-out (issue #13, "One vocabulary in the code"): the engine hands out values, and
/// each frame is encoded once and its bytes shared by every subscriber of the view.
@Suite("Stream frames are encoded once per version per view, not per subscriber")
struct EncodeOnceTests {
  @Test("§6 fan-out: 5 subscribers of one view, 3 versions: 1 snapshot and 3 updates encoded, and 1 per activation")
  func encodedOncePerView() async throws {
    let scene = makeScene()
    let encoder = CountingEncoder()
    let subscribers = (1...5).map { Subscriber(id: $0, queueLimit: 1 << 20, encoder: encoder, wake: {}) }
    for subscriber in subscribers { try await scene.subscribe(subscriber, view: .state, sinceVersion: nil) }
    _ = try await scene.commit(Sample.request([Sample.button("b")]))
    _ = try await scene.commit(
      Sample.request([.push(NavigationItem(id: "root", title: "Root", rightBarButtonItems: ["b"]), animated: false)]))
    _ = try await scene.commit(Sample.request([Sample.title("root", "Home")]))
    _ = try await scene.activate("b")
    #expect(encoder.count("snapshot") == 1)
    #expect(encoder.count("update") == 3)
    #expect(encoder.count("events") == 1)
    let bytes = subscribers.map { $0.pull() }
    #expect(Set(bytes).count == 1, "every subscriber of the view reads the same bytes")
  }
}
