import NavModel
import Testing

/// The navigation bar with a width: placement, overflow and the title
/// (SEMANTICS R7, R35–R38), with the worked examples of SEMANTICS §20.
@Suite("Layout resolver: navigation bar overflow")
struct LayoutResolverOverflowTests {
  typealias S = LayoutScenes

  /// Example 1: mailboxes → inbox, right [edit].
  static let example1 = S.scene(
    [
      NavigationItem(id: "mailboxes", title: "Mailboxes"),
      NavigationItem(id: "inbox", title: "Inbox", rightBarButtonItems: ["edit"]),
    ], items: [S.system("edit", .edit)])

  /// Example 2: overflow on both sides.
  static let example2 = S.scene(
    [
      NavigationItem(id: "chats", title: "Chats"),
      NavigationItem(
        id: "messages", title: "Messages", leftItemsSupplementBackButton: true,
        leftBarButtonItems: ["search", "filter"],
        rightBarButtonItems: ["add", "share", "info"]),
    ],
    items: [
      S.system("search", .search), S.titled("filter", "Filter"), S.system("add", .add), S.titled("share", "Share"),
      S.image("info"),
    ])

  /// Example 3: a long back title pushes the top title off centre.
  static func example3(title: String) -> SceneState {
    S.scene(
      [
        NavigationItem(id: "settings", title: "Settings and Privacy"),
        NavigationItem(id: "notifications", title: title, rightBarButtonItems: ["done"]),
      ], items: [BarButtonItem(id: "done", style: .done, title: "Done")])
  }

  @Test("R35 example 1: back button, right item and a centred title at W = 375")
  func example1Layout() {
    let bar = LayoutResolver.resolve(Self.example1, metrics: LayoutMetrics(width: 375)).navigationBar
    #expect(bar.backButton?.extent == Extent(x: 8, width: 92))
    #expect(bar.backButton?.title == "Mailboxes")
    #expect(bar.centre?.extent == Extent(x: 167.5, width: 40))
    #expect(bar.centre?.truncated == false)
    #expect(bar.right.geometry == ["edit@337.0+30.0"])
    #expect(bar.left.isEmpty && bar.overflow.isEmpty)
  }

  @Test("R35 R37 example 2: overflow on both sides at W = 320")
  func example2Layout() {
    let bar = LayoutResolver.resolve(Self.example2, metrics: LayoutMetrics(width: 320)).navigationBar
    #expect(bar.backButton?.extent == Extent(x: 8, width: 60))
    #expect(bar.left.geometry == ["search@76.0+30.0"])
    #expect(bar.right.geometry == ["share@218.0+56.0", "add@282.0+30.0"])
    #expect(bar.overflowIDs == ["left:filter", "right:info"])
    #expect(bar.overflow.allSatisfy { $0.item.extent == nil })
    #expect(bar.centre?.extent == Extent(x: 128, width: 64))
    #expect(bar.centre?.truncated == false)
  }

  @Test("R36 example 3: the title shifts right of a long back button, then truncates")
  func example3Layout() {
    let metrics = LayoutMetrics(width: 375)
    let shifted = LayoutResolver.resolve(Self.example3(title: "Notifications"), metrics: metrics).navigationBar
    #expect(shifted.backButton?.extent == Extent(x: 8, width: 180))
    #expect(shifted.right.geometry == ["done@319.0+48.0"])
    #expect(shifted.centre?.extent == Extent(x: 196, width: 104))
    #expect(shifted.centre?.truncated == false)
    let truncated = LayoutResolver.resolve(Self.example3(title: "Notification Settings"), metrics: metrics)
      .navigationBar
    #expect(truncated.centre?.extent == Extent(x: 196, width: 115))
    #expect(truncated.centre?.truncated == true)
  }

  @Test("R35 the back button is placed even when it passes the title region or the bar")
  func backButtonAlwaysPlaced() {
    let state = S.scene([
      NavigationItem(id: "a", title: String(repeating: "x", count: 60)),
      NavigationItem(id: "b", title: "B"),
    ])
    let bar = LayoutResolver.resolve(state, metrics: LayoutMetrics(width: 320)).navigationBar
    #expect(bar.backButton?.extent == Extent(x: 8, width: 500))
    #expect(bar.overflow.isEmpty)
    // Band [516, 312] is empty: the title truncates to width 0.
    #expect(bar.centre?.extent == Extent(x: 516, width: 0))
    #expect(bar.centre?.truncated == true)
  }

  @Test("R35 the first left entry that does not fit overflows with every entry after it")
  func leftCutAtFirstMisfit() {
    let state = S.scene(
      [
        NavigationItem(
          id: "a", title: "Title", leftBarButtonItems: ["big", "small"], rightBarButtonItems: ["wide", "r"])
      ],
      items: [
        BarButtonItem(id: "big", width: 200), S.system("small", .add), BarButtonItem(id: "wide", width: 200),
        S.system("r", .done),
      ])
    let bar = LayoutResolver.resolve(state, metrics: LayoutMetrics(width: 375)).navigationBar
    // `small` would fit on the left and `r` on the right, but each side is cut at its first misfit.
    #expect(bar.left.isEmpty)
    #expect(bar.right.isEmpty)
    #expect(bar.overflowIDs == ["left:big", "left:small", "right:wide", "right:r"])
    #expect(bar.centre?.extent == Extent(x: 167.5, width: 40))
  }

  @Test("R35 without a title no region is reserved and the left side has priority over the right")
  func noTitleLeftPriority() {
    let state = S.scene(
      [NavigationItem(id: "a", leftBarButtonItems: ["a"], rightBarButtonItems: ["b", "c", "d"])],
      items: [S.titled("a", "AAAAAAAAAA"), S.system("b", .add), S.system("c", .edit), S.system("d", .done)])
    let bar = LayoutResolver.resolve(state, metrics: LayoutMetrics(width: 200)).navigationBar
    #expect(bar.left.geometry == ["a@8.0+96.0"])
    // μ = max(P, 104 + S) = 112: d would start at 86.
    #expect(bar.right.geometry == ["c@124.0+30.0", "b@162.0+30.0"])
    #expect(bar.overflowIDs == ["right:d"])
    // t = 0: the empty title sits at W/2 with width 0.
    #expect(bar.centre?.extent == Extent(x: 100, width: 0))
    #expect(bar.centre?.truncated == false)
  }

  @Test("R35 left items may reach W − P when there is no title")
  func leftReachesEdgeWithoutTitle() {
    let state = S.scene(
      [NavigationItem(id: "a", title: "", leftBarButtonItems: ["w"])], items: [BarButtonItem(id: "w", width: 84)])
    // 8 + 84 = 92 ≤ 100 − 8.
    #expect(
      LayoutResolver.resolve(state, metrics: LayoutMetrics(width: 100)).navigationBar.left.geometry == ["w@8.0+84.0"])
    #expect(LayoutResolver.resolve(state, metrics: LayoutMetrics(width: 99.5)).navigationBar.overflowIDs == ["left:w"])
  }

  @Test("R35 an entry fits exactly at the title clearance (end ≤ λL, start ≥ λR)")
  func exactFitAtClearance() {
    // W = 200, title "Ab" t = 16: cL = 92, λL = 84, cR = 108, λR = 116.
    let state = S.scene(
      [NavigationItem(id: "a", title: "Ab", leftBarButtonItems: ["l"], rightBarButtonItems: ["r"])],
      items: [BarButtonItem(id: "l", width: 76), BarButtonItem(id: "r", width: 76)])
    let bar = LayoutResolver.resolve(state, metrics: LayoutMetrics(width: 200)).navigationBar
    #expect(bar.left.geometry == ["l@8.0+76.0"])
    #expect(bar.right.geometry == ["r@116.0+76.0"])
    var wider = state
    wider.barButtonItems["l"]?.width = 76.5
    wider.barButtonItems["r"]?.width = 76.5
    #expect(
      LayoutResolver.resolve(wider, metrics: LayoutMetrics(width: 200)).navigationBar.overflowIDs == [
        "left:l", "right:r",
      ])
  }

  @Test("R36 a title view too wide for the band is resized to it")
  func titleViewTruncated() {
    let state = S.scene([NavigationItem(id: "a", titleView: CustomView(name: "v", width: 400))])
    let centre = LayoutResolver.resolve(state, metrics: LayoutMetrics(width: 320)).navigationBar.centre
    #expect(centre?.kind == .titleView)
    #expect(centre?.extent == Extent(x: 8, width: 304))
    #expect(centre?.truncated == true)
  }

  @Test("R36 a title view of width 0 sits at the middle")
  func zeroWidthTitleView() {
    let state = S.scene([NavigationItem(id: "a", title: "Ignored", titleView: CustomView(name: "v", width: 0))])
    let centre = LayoutResolver.resolve(state, metrics: LayoutMetrics(width: 301)).navigationBar.centre
    #expect(centre?.extent == Extent(x: 150.5, width: 0))
    #expect(centre?.truncated == false)
  }

  @Test("R37 overflow lists left entries in array order, then right entries in array order, with their side")
  func overflowOrder() throws {
    let state = S.scene(
      [
        NavigationItem(
          id: "a", title: "A long title here", leftBarButtonItems: ["l1", "l2", "l3"],
          rightBarButtonItems: ["r1", "r2", "r3"])
      ], items: ["l1", "l2", "l3", "r1", "r2", "r3"].map { S.titled($0, "Button") })
    let layout = LayoutResolver.resolve(state, metrics: LayoutMetrics(width: 320))
    #expect(layout.navigationBar.overflowIDs == ["left:l2", "left:l3", "right:r2", "right:r3"])
    let overflow = try #require(layout.json["navigationBar"]?["overflow"]?.arrayValue)
    #expect(overflow.map { $0["side"]?.stringValue } == ["left", "left", "right", "right"])
    #expect(overflow.allSatisfy { $0["x"] == nil && $0["width"] == nil && $0["tint"] != nil })
    #expect(!layout.isActivatable("l2") && layout.isActivatable("l1"))
  }

  @Test("R37 R47 an overflowed fixed space is dropped, not listed, in both bars")
  func fixedSpaceOverflows() {
    let state = S.scene(
      [NavigationItem(id: "a", title: "Title", leftBarButtonItems: ["a", "fixed", "b"])],
      items: [S.system("a", .add), S.system("fixed", .fixedSpace, width: 130), S.system("b", .edit)])
    let bar = LayoutResolver.resolve(state, metrics: LayoutMetrics(width: 375)).navigationBar
    // λL = 159.5: a at [8, 38]; the fixed space would end at 168.
    #expect(bar.left.geometry == ["a@8.0+30.0"])
    #expect(bar.overflowIDs == ["left:b"])
    #expect(!bar.overflow.contains { $0.item.kind.isSpace })
  }

  @Test("R38 without a width nothing overflows and there are no x, width or truncated fields")
  func noGeometryWithoutWidth() throws {
    let layout = LayoutResolver.resolve(Self.example2)
    #expect(layout.navigationBar.overflow.isEmpty)
    #expect(layout.navigationBar.leftIDs == ["search", "filter"])
    #expect(layout.navigationBar.rightIDs == ["info", "share", "add"])
    let bar = try #require(layout.json["navigationBar"])
    let objects =
      (bar["left"]?.arrayValue ?? []) + (bar["right"]?.arrayValue ?? [])
      + [bar["backButton"], bar["centre"]]
      .compactMap { $0 }
    #expect(objects.count == 7)
    for object in objects {
      #expect(object["x"] == nil && object["width"] == nil && object["truncated"] == nil, "\(object)")
    }
    let withWidth = try #require(
      LayoutResolver.resolve(Self.example2, metrics: LayoutMetrics(width: 320)).json["navigationBar"])
    #expect(withWidth["centre"]?["truncated"] == .bool(false))
    #expect(withWidth["backButton"]?["x"] == .number(8))
  }

  @Test("R7 a width of 0 places only the back button; out-of-range widths never trap")
  func degenerateWidths() {
    for width in [0, -5, 20_000, .infinity, -.infinity, .nan] as [Double] {
      let layout = LayoutResolver.resolve(Self.example2, metrics: LayoutMetrics(width: width))
      #expect(layout.navigationBar.backButton?.extent != nil)
      #expect(
        layout.navigationBar.left.count + layout.navigationBar.right.count + layout.navigationBar.overflow.count == 5)
    }
    let zero = LayoutResolver.resolve(Self.example2, metrics: LayoutMetrics(width: 0)).navigationBar
    #expect(zero.left.isEmpty && zero.right.isEmpty)
    #expect(zero.overflowIDs == ["left:search", "left:filter", "right:add", "right:share", "right:info"])
  }
}
