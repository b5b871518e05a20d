import NavModel
import Testing

/// The back button (SEMANTICS R23–R25, R33), as tables over every combination.
@Suite("Layout resolver: back button")
struct LayoutResolverBackButtonTests {
  /// What the back item's `backBarButtonItem` is, for the table.
  enum BackBarButton: CaseIterable, CustomStringConvertible {
    case none, title, image, titleAndImage, customViewOnly, systemItemOnly

    var item: BarButtonItem? {
      switch self {
      case .none: nil
      case .title: BarButtonItem(id: "bbi", title: "Go")
      case .image: BarButtonItem(id: "bbi", image: ImageRef(name: "chevron"))
      case .titleAndImage: BarButtonItem(id: "bbi", title: "Go", image: ImageRef(name: "chevron"))
      case .customViewOnly: BarButtonItem(id: "bbi", customView: CustomView(name: "badge", width: 99))
      case .systemItemOnly: BarButtonItem(id: "bbi", systemItem: .done)
      }
    }

    var description: String {
      switch self {
      case .none: "none"
      case .title: "title"
      case .image: "image"
      case .titleAndImage: "title+image"
      case .customViewOnly: "customView"
      case .systemItemOnly: "systemItem"
      }
    }
  }

  struct Case: CustomStringConvertible {
    var hasBackItem: Bool
    var hidesBackButton: Bool
    var supplements: Bool
    var hasLeftItems: Bool
    var backBarButton: BackBarButton
    var backItemTitle: String?

    var description: String {
      "back=\(hasBackItem) hides=\(hidesBackButton) supplement=\(supplements) left=\(hasLeftItems) "
        + "B=\(backBarButton) backTitle=\(backItemTitle ?? "nil")"
    }

    static var all: [Case] {
      var cases: [Case] = []
      for hasBackItem in [false, true] {
        for hidesBackButton in [false, true] {
          for supplements in [false, true] {
            for hasLeftItems in [false, true] {
              for backBarButton in BackBarButton.allCases {
                for backItemTitle in ["Inbox", nil] as [String?] {
                  cases.append(
                    Case(
                      hasBackItem: hasBackItem, hidesBackButton: hidesBackButton, supplements: supplements,
                      hasLeftItems: hasLeftItems, backBarButton: backBarButton, backItemTitle: backItemTitle))
                }
              }
            }
          }
        }
      }
      return cases
    }

    var state: SceneState {
      // The top item has its own title and backBarButtonItem: neither may leak into the back button (R24).
      let top = NavigationItem(
        id: "top", title: "Top", backBarButtonItem: "topBack", hidesBackButton: hidesBackButton,
        leftItemsSupplementBackButton: supplements, leftBarButtonItems: hasLeftItems ? ["l1", "l2"] : [])
      let back = NavigationItem(id: "back", title: backItemTitle, backBarButtonItem: backBarButton.item?.id)
      var items = [
        LayoutScenes.titled("l1"), LayoutScenes.titled("l2"), BarButtonItem(id: "topBack", title: "Wrong"),
      ]
      if let item = backBarButton.item { items.append(item) }
      return LayoutScenes.scene(hasBackItem ? [back, top] : [top], items: items)
    }

    var expectShown: Bool { hasBackItem && !hidesBackButton && (!hasLeftItems || supplements) }

    var expectTitle: String? {
      switch backBarButton {
      case .title, .titleAndImage: "Go"
      case .image: nil
      case .none, .customViewOnly, .systemItemOnly: backItemTitle ?? "Back"
      }
    }

    var expectImage: ImageRef? {
      switch backBarButton {
      case .image, .titleAndImage: ImageRef(name: "chevron")
      default: nil
      }
    }
  }

  @Test(
    "R23 R24 R25 back button: shown, title, image and source over every combination",
    arguments: Case.all)
  func backButtonTable(_ row: Case) {
    let layout = LayoutResolver.resolve(row.state)
    let backButton = layout.navigationBar.backButton
    #expect((backButton != nil) == row.expectShown, "\(row)")
    guard let backButton else { return }
    #expect(backButton.sourceItem == "back", "\(row)")
    #expect(backButton.item == row.backBarButton.item?.id, "\(row)")
    #expect(backButton.title == row.expectTitle, "\(row)")
    #expect(backButton.image == row.expectImage, "\(row)")
    #expect(backButton.enabled, "\(row)")
    #expect(backButton.extent == nil, "\(row)")
    // The back button is never one of the left items (R25).
    #expect(!layout.navigationBar.leftIDs.contains("bbi"), "\(row)")
  }

  @Test("R23 the table covers all 192 combinations")
  func tableSize() {
    #expect(Case.all.count == 2 * 2 * 2 * 2 * 6 * 2)
    #expect(Case.all.filter(\.expectShown).count == 3 * 12)
  }

  @Test("R26 left items are shown after the back button or in its place, in every combination", arguments: Case.all)
  func leftItemsInEveryCombination(_ row: Case) {
    let layout = LayoutResolver.resolve(row.state, metrics: LayoutMetrics(width: 1000))
    #expect(layout.navigationBar.leftIDs == (row.hasLeftItems ? ["l1", "l2"] : []), "\(row)")
    if let back = layout.navigationBar.backButton?.extent {
      #expect(back.x == 8, "\(row)")
      if let first = layout.navigationBar.left.first?.extent { #expect(first.x == back.end + 8, "\(row)") }
    } else if let first = layout.navigationBar.left.first?.extent {
      #expect(first.x == 8, "\(row)")
    }
  }

  @Test("R23 the root alone never shows a back button")
  func rootHasNoBackButton() {
    let state = LayoutScenes.scene([NavigationItem(id: "root", title: "Root")])
    #expect(LayoutResolver.resolve(state).navigationBar.backButton == nil)
    #expect(LayoutResolver.resolve(.empty).navigationBar.backButton == nil)
  }

  @Test("R23 R27 left items that are only flexible spaces still replace the back button: the test is on the state")
  func flexibleOnlyLeftItems() {
    var state = LayoutScenes.scene(
      [NavigationItem(id: "a", title: "A"), NavigationItem(id: "b", leftBarButtonItems: ["flex"])],
      items: [LayoutScenes.system("flex", .flexibleSpace)])
    var bar = LayoutResolver.resolve(state).navigationBar
    #expect(bar.backButton == nil)
    #expect(bar.left.isEmpty)
    state.navigationBar.items[1].leftItemsSupplementBackButton = true
    bar = LayoutResolver.resolve(state).navigationBar
    #expect(bar.backButton?.title == "A")
    #expect(bar.left.isEmpty)
  }

  @Test("R24 an empty back item title is a title, not a reason for \"Back\"")
  func emptyBackTitleIsKept() {
    let state = LayoutScenes.scene([NavigationItem(id: "a", title: ""), NavigationItem(id: "b")])
    #expect(LayoutResolver.resolve(state).navigationBar.backButton?.title == "")
  }

  @Test("R8 R24 only the item just below the top gives the back button")
  func deeperItemsDoNotMatter() {
    let state = LayoutScenes.scene(
      [
        NavigationItem(id: "root", title: "Root", backBarButtonItem: "x"),
        NavigationItem(id: "mid", title: "Middle"),
        NavigationItem(id: "top", title: "Top"),
      ], items: [LayoutScenes.titled("x", "Deep")])
    let backButton = LayoutResolver.resolve(state).navigationBar.backButton
    #expect(
      backButton
        == BackButtonLayout(
          sourceItem: "mid", item: nil, title: "Middle", image: nil, enabled: true, tint: .systemBlue))
  }

  @Test("R25 the back button takes enabled and tint from the backBarButtonItem")
  func enabledAndTintFromBackBarButtonItem() {
    var state = LayoutScenes.scene(
      [NavigationItem(id: "a", title: "A", backBarButtonItem: "bbi"), NavigationItem(id: "b")],
      items: [BarButtonItem(id: "bbi", title: "Up", enabled: false, tintColor: LayoutScenes.red)])
    var backButton = LayoutResolver.resolve(state).navigationBar.backButton
    #expect(backButton?.enabled == false)
    #expect(backButton?.tint == LayoutScenes.red)
    // Without its own tint, B inherits like any item in the navigation bar (R56).
    state.barButtonItems["bbi"]?.tintColor = nil
    state.appearanceDefaults.barButtonItemTintColor = LayoutScenes.green
    backButton = LayoutResolver.resolve(state).navigationBar.backButton
    #expect(backButton?.tint == LayoutScenes.green)
    // Without B: enabled, and the bar's chain without an item tint.
    state.navigationBar.items[0].backBarButtonItem = nil
    backButton = LayoutResolver.resolve(state).navigationBar.backButton
    #expect(backButton?.enabled == true)
    #expect(backButton?.tint == LayoutScenes.green)
  }

  @Test("R24 a backBarButtonItem id that names no item is ignored, not trapped on")
  func danglingBackBarButtonItem() {
    let state = LayoutScenes.scene([
      NavigationItem(id: "a", title: "A", backBarButtonItem: "gone"), NavigationItem(id: "b"),
    ])
    let backButton = LayoutResolver.resolve(state).navigationBar.backButton
    #expect(backButton?.item == nil)
    #expect(backButton?.title == "A")
  }

  @Test("R33 the back button is chevron plus title text, or chevron plus icon with an image")
  func backButtonWidth() {
    let metrics = LayoutMetrics(width: 1000)
    for (row, expected) in [
      (BackBarButton.none, 20.0 + 5 * 8), (.title, 20 + 2 * 8), (.image, 50), (.titleAndImage, 50),
    ] {
      let state = Case(
        hasBackItem: true, hidesBackButton: false, supplements: false, hasLeftItems: false, backBarButton: row,
        backItemTitle: "Inbox"
      ).state
      #expect(LayoutResolver.resolve(state, metrics: metrics).navigationBar.backButton?.extent?.width == expected)
    }
  }
}
