import NavTestSupport
import Testing

@testable import NavModel

/// `Layout(json:)`, the reader of the layout document, against its writer `Layout.json` (SEMANTICS R62).
@Suite("Layout document: reading")
struct LayoutReadingTests {
  @Test("R62 writer then reader: every resolved layout reads back equal, with and without a width, over random states")
  func roundTrip() throws {
    let seed = SplitMix64.testSeed(default: 0x1A70_0D0C_00A1)
    var generator = LayoutOpGenerator(rng: SplitMix64(seed: seed))
    var layouts = 0
    for _ in 0..<20 {
      var state = SceneState.empty
      let allMetrics = generator.metrics()
      for _ in 0..<30 {
        guard let next = try? state.applying(generator.batch(in: state, count: 2)).state else { continue }
        state = next
        for metrics in allMetrics {
          let layout = LayoutResolver.resolve(state, metrics: metrics)
          let read = try Layout(json: layout.json)
          #expect(read == layout, "seed \(seed)")
          #expect(read.json == layout.json, "seed \(seed)")
          layouts += 1
        }
      }
    }
    #expect(layouts > 500, "only \(layouts) layouts read; seed \(seed)")
  }

  @Test("R62 a mistyped field is an error naming its path")
  func mistyped() throws {
    let layout = LayoutResolver.resolve(Fixtures.scene, metrics: LayoutMetrics(width: 375))
    guard case .object(var document) = layout.json, case .object(var bar) = document["navigationBar"],
      case .array(var left) = bar["left"], !left.isEmpty, case .object(var item) = left[0]
    else {
      Issue.record("the fixture has no left item")
      return
    }
    item["kind"] = .string("hologram")
    left[0] = .object(item)
    bar["left"] = .array(left)
    document["navigationBar"] = .object(bar)
    #expect(throws: NavError.self) { try Layout(json: .object(document)) }
    do {
      _ = try Layout(json: .object(document))
    } catch {
      #expect(error.field == "navigationBar.left[0].kind")
    }
  }

  @Test("R62 x without width, and a document without its toolbar, are refused by name")
  func missingParts() throws {
    let layout = LayoutResolver.resolve(Fixtures.scene, metrics: LayoutMetrics(width: 375))
    guard case .object(var document) = layout.json, case .object(var bar) = document["navigationBar"],
      case .object(var centre) = bar["centre"]
    else {
      Issue.record("the fixture has no centre")
      return
    }
    centre["width"] = nil
    bar["centre"] = .object(centre)
    document["navigationBar"] = .object(bar)
    do {
      _ = try Layout(json: .object(document))
      Issue.record("a centre with x and no width was read")
    } catch {
      #expect(error.field == "navigationBar.centre.width")
    }
    guard case .object(var noToolbar) = layout.json else { return }
    noToolbar["toolbar"] = nil
    do {
      _ = try Layout(json: .object(noToolbar))
      Issue.record("a document without a toolbar was read")
    } catch {
      #expect(error.field == "toolbar")
    }
  }

  @Test("R62 members the document does not define are ignored, as a newer navd may send them")
  func unknownMembers() throws {
    let layout = LayoutResolver.resolve(Fixtures.scene, metrics: nil)
    guard case .object(var document) = layout.json else { return }
    document["safeArea"] = .number(12)
    #expect(try Layout(json: .object(document)) == layout)
  }
}
