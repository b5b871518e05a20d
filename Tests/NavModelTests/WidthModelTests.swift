import NavTestSupport
import Testing

@testable import NavModel

/// The deterministic width model (SEMANTICS R30–R34).
@Suite("Width model")
struct WidthModelTests {
  @Test("R30 the constants: P = 8, S = 8, chevron 20, 8 per character, text padding 16, icon 30")
  func constants() {
    #expect(WidthModel.edgePadding == 8)
    #expect(WidthModel.spacing == 8)
    #expect(WidthModel.backChevron == 20)
    #expect(WidthModel.pointsPerCharacter == 8)
    #expect(WidthModel.buttonTextPadding == 16)
    #expect(WidthModel.iconWidth == 30)
  }

  @Test("R31 text is 8 per extended grapheme cluster, 0 when unset")
  func textEstimate() {
    let cases: [(String?, Double)] = [
      (nil, 0), ("", 0), ("Inbox", 40), ("e\u{301}", 8), ("é", 8), ("🇫🇷", 8), ("👩‍👩‍👧‍👦", 8), ("Fülle ✓", 56),
      ("日本語", 24), ("a b", 24),
    ]
    for (text, width) in cases {
      #expect(WidthModel.text(text) == width, "\(String(describing: text))")
    }
  }

  @Test("R31 the ASCII count is String.count: CR LF is one cluster, a mark after ASCII joins it, word by word too")
  func characterCount() {
    let seed = SplitMix64.testSeed(default: 0x3131)
    print("WidthModelTests.characterCount: seed \(seed) (NAVD_TEST_SEED to replay)")
    var rng = SplitMix64(seed: seed)
    let pieces = ["a", "Z", " ", "\r", "\n", "\r\n", "\t", "~", "\u{301}", "é", "🇫", "🇷", "👩", "\u{200D}", "日"]
    var cases = [
      "", "Inbox", "a\r\nb", "\r\r\n\n", "\n\r", "e\u{301}", "ab\u{301}c", String(repeating: "x", count: 300),
    ]
    for _ in 0..<2000 { cases.append((0..<rng.int(0...8)).map { _ in rng.pick(pieces) }.joined()) }
    // Long mostly-ASCII strings, so whole eight-byte words are counted at once
    // and the odd CR or non-ASCII byte lands anywhere in a word.
    let ascii = ["a", "Z", " ", "~", "\t", "0"]
    for _ in 0..<2000 {
      cases.append((0..<rng.int(0...40)).map { _ in rng.chance(90) ? rng.pick(ascii) : rng.pick(pieces) }.joined())
    }
    for text in cases {
      #expect(WidthModel.characterCount(text) == text.count, "\(Array(text.unicodeScalars)); seed \(seed)")
    }
  }

  @Test("R32 rule 1: an explicit width > 0 wins over everything but a flexible space")
  func explicitWidth() {
    #expect(WidthModel.width(of: BarButtonItem(id: "a", title: "Long title", width: 44)) == 44)
    #expect(WidthModel.width(of: BarButtonItem(id: "a", width: 44, customView: CustomView(name: "v", width: 90))) == 44)
    #expect(WidthModel.width(of: BarButtonItem(id: "a", systemItem: .done, width: 12.5)) == 12.5)
    #expect(WidthModel.width(of: BarButtonItem(id: "a", systemItem: .fixedSpace, width: 20)) == 20)
    #expect(WidthModel.width(of: BarButtonItem(id: "a", systemItem: .flexibleSpace, width: 20)) == nil)
    // 0 means computed.
    #expect(WidthModel.width(of: BarButtonItem(id: "a", title: "Edit", width: 0)) == 48)
  }

  @Test("R32 rules 2–6: custom view width, fixed space 0, flexible computed later, system and image 30")
  func ruleOrder() {
    #expect(WidthModel.width(of: BarButtonItem(id: "a", customView: CustomView(name: "v", width: 90))) == 90)
    #expect(
      WidthModel.width(
        of: BarButtonItem(id: "a", title: "x", image: ImageRef(name: "i"), customView: CustomView(name: "v", width: 7)))
        == 7)
    #expect(WidthModel.width(of: BarButtonItem(id: "a", systemItem: .fixedSpace)) == 0)
    #expect(WidthModel.width(of: BarButtonItem(id: "a", systemItem: .flexibleSpace)) == nil)
    for systemItem in SystemItem.allCases where !systemItem.isSpace {
      #expect(WidthModel.width(of: BarButtonItem(id: "a", systemItem: systemItem)) == 30, "\(systemItem)")
    }
    // An image's own size is not used (R39).
    #expect(
      WidthModel.width(of: BarButtonItem(id: "a", title: "Long label", image: ImageRef(name: "i", width: 64))) == 30)
  }

  @Test("R32 rule 7: the widest of title and possibleTitles, plus 16; every style the same")
  func textButtons() {
    #expect(WidthModel.width(of: BarButtonItem(id: "a", title: "Done")) == 48)
    #expect(WidthModel.width(of: BarButtonItem(id: "a", title: "Edit", possibleTitles: ["Edit", "Cancel"])) == 64)
    #expect(WidthModel.width(of: BarButtonItem(id: "a", title: "Extended", possibleTitles: ["OK"])) == 80)
    #expect(WidthModel.width(of: BarButtonItem(id: "a", possibleTitles: ["Save"])) == 48)
    #expect(WidthModel.width(of: BarButtonItem(id: "a")) == 16)
    #expect(WidthModel.width(of: BarButtonItem(id: "a", title: "")) == 16)
    for style in ItemStyle.allCases {
      #expect(WidthModel.width(of: BarButtonItem(id: "a", style: style, title: "Done")) == 48)
    }
  }

  @Test("R32 sizes the validator rejects count as computed or 0, never poison the arithmetic")
  func badSizes() {
    #expect(WidthModel.width(of: BarButtonItem(id: "a", title: "Edit", width: .nan)) == 48)
    #expect(WidthModel.width(of: BarButtonItem(id: "a", title: "Edit", width: .infinity)) == 48)
    #expect(WidthModel.width(of: BarButtonItem(id: "a", title: "Edit", width: -3)) == 48)
    #expect(WidthModel.width(of: BarButtonItem(id: "a", customView: CustomView(name: "v", width: -.infinity))) == 0)
  }

  @Test("R33 back button: chevron + icon with an image, else chevron + title; title: view width or text")
  func backAndTitle() {
    #expect(WidthModel.backButtonWidth(title: "Mailboxes", showsImage: false) == 92)
    #expect(WidthModel.backButtonWidth(title: "Mailboxes", showsImage: true) == 50)
    #expect(WidthModel.backButtonWidth(title: nil, showsImage: true) == 50)
    #expect(WidthModel.backButtonWidth(title: "", showsImage: false) == 20)
    #expect(WidthModel.titleWidth(CentreLayout(kind: .title, title: "Inbox", titleView: nil)) == 40)
    #expect(WidthModel.titleWidth(CentreLayout(kind: .title, title: nil, titleView: nil)) == 0)
    #expect(
      WidthModel.titleWidth(
        CentreLayout(kind: .titleView, title: "Inbox", titleView: CustomView(name: "v", width: 123)))
        == 123)
  }

  @Test("R34 the gap is S between non-spaces, 0 next to a space, 0 before the first entry")
  func gaps() {
    for previous in LayoutItem.Kind.allCases {
      for next in LayoutItem.Kind.allCases {
        let expected = previous.isSpace || next.isSpace ? 0.0 : 8.0
        #expect(WidthModel.gap(after: previous, before: next) == expected, "\(previous) \(next)")
      }
      #expect(WidthModel.gap(after: nil, before: previous) == 0)
    }
  }

  @Test("R34 the back button counts as a non-space entry: a left space follows it with no gap, a button with S")
  func backButtonGap() {
    let scene = LayoutScenes.scene(
      [
        NavigationItem(id: "a", title: "A"),
        NavigationItem(id: "b", leftItemsSupplementBackButton: true, leftBarButtonItems: ["fixed", "x"]),
      ], items: [LayoutScenes.system("fixed", .fixedSpace, width: 10), LayoutScenes.system("x", .add)])
    let bar = LayoutResolver.resolve(scene, metrics: LayoutMetrics(width: 375)).navigationBar
    // Back "A": 28 wide at 8 → 36; the fixed space at 36 (no gap), x at 46 (no gap after a space).
    #expect(bar.backButton?.extent == Extent(x: 8, width: 28))
    #expect(bar.left.geometry == ["fixed@36.0+10.0", "x@46.0+30.0"])
    var direct = scene
    direct.navigationBar.items[1].leftBarButtonItems = ["x"]
    #expect(
      LayoutResolver.resolve(direct, metrics: LayoutMetrics(width: 375)).navigationBar.left.geometry == ["x@44.0+30.0"])
  }
}
