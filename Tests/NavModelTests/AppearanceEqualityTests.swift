import NavTestSupport
import Testing

@testable import NavModel

/// `BarAppearance` keeps its fields in a shared box; equality and hashing
/// must still be the fields' (SEMANTICS "Appearance", R48–R56: two bars
/// that set the same values look the same, however the values were set).
@Suite("Bar appearance: equal by its fields, shared or not")
struct AppearanceEqualityTests {
  /// The reference: every public field compared.
  static func fieldsEqual(_ a: BarAppearance, _ b: BarAppearance) -> Bool {
    a.barStyle == b.barStyle && a.tintColor == b.tintColor && a.barTintColor == b.barTintColor
      && a.translucent == b.translucent && a.backgroundImages == b.backgroundImages
      && a.shadowImage == b.shadowImage && a.titleTextAttributes == b.titleTextAttributes
  }

  static func randomField(_ rng: inout SplitMix64, of appearance: inout BarAppearance) {
    let colors: [Color?] = [nil, Color.black, LayoutScenes.red]
    let images: [ImageRef?] = [nil, ImageRef(name: "wood", opaque: true), ImageRef(name: "glass", opaque: false)]
    switch rng.int(0...6) {
    case 0: appearance.barStyle = rng.pick([nil, .default, .black])
    case 1: appearance.tintColor = rng.pick(colors)
    case 2: appearance.barTintColor = rng.pick(colors)
    case 3: appearance.translucent = rng.pick([nil, true, false])
    case 4:
      appearance.setBackgroundImage(
        rng.pick(images), position: rng.pick(BarPosition.allCases), metrics: rng.pick(BarMetrics.allCases))
    case 5: appearance.shadowImage = rng.pick(images)
    default:
      appearance.titleTextAttributes = rng.pick([
        nil, TitleTextAttributes(font: "Menlo", size: 12, color: nil), TitleTextAttributes(size: 14),
      ])
    }
  }

  @Test("R48 appearances are equal exactly when every field is, and equal ones hash alike, boxed apart or together")
  func equalityIsTheFields() {
    let seed = SplitMix64.testSeed(default: 0xA99E_A4A1)
    print("AppearanceEqualityTests.equalityIsTheFields: seed \(seed) (NAVD_TEST_SEED to replay)")
    var rng = SplitMix64(seed: seed)
    var equal = 0
    var unequal = 0
    for round in 0..<3000 {
      var a = BarAppearance()
      var b = BarAppearance(tintColor: nil)
      for _ in 0..<rng.int(0...4) { Self.randomField(&rng, of: &a) }
      for _ in 0..<rng.int(0...4) { Self.randomField(&rng, of: &b) }
      if rng.chance(30) { b = a }
      if rng.chance(30) {
        // The same fields, set one by one into a box of their own.
        b = BarAppearance()
        b.barStyle = a.barStyle
        b.tintColor = a.tintColor
        b.barTintColor = a.barTintColor
        b.translucent = a.translucent
        b.backgroundImages = a.backgroundImages
        b.shadowImage = a.shadowImage
        b.titleTextAttributes = a.titleTextAttributes
      }
      let expected = Self.fieldsEqual(a, b)
      #expect((a == b) == expected, "seed \(seed) round \(round): \(a) vs \(b)")
      if expected {
        #expect(a.hashValue == b.hashValue, "seed \(seed) round \(round)")
        equal += 1
      } else {
        unequal += 1
      }
    }
    #expect(equal > 500 && unequal > 500, "\(equal) equal, \(unequal) unequal; seed \(seed)")
  }

  @Test("R48 setting a field changes only that appearance, not its copies")
  func copiesAreIndependent() {
    let original = BarAppearance(barStyle: .black, tintColor: Color.black)
    var copy = original
    copy.tintColor = nil
    #expect(original.tintColor == Color.black)
    #expect(copy.tintColor == nil && copy.barStyle == .black)
    #expect(copy != original)
    copy.tintColor = Color.black
    #expect(copy == original)
    #expect(BarAppearance() == BarAppearance(barStyle: nil))
    #expect(String(describing: original).contains("barStyle: Optional(NavModel.BarStyle.black)"), "prints its fields")
  }
}
