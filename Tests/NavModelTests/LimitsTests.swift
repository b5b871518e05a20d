import NavModel
import Testing

/// Every limit at its boundary: exactly at the limit passes, one over fails and names the limit.
@Suite("Limits")
struct LimitsTests {
  let limits = ModelLimits.default

  @Test("R66 the documented limits")
  func documentedValues() {
    #expect(limits.idMaxLength == 64)
    #expect(limits.stringMaxBytes == 256)
    #expect(limits.stackDepth == 64)
    #expect(limits.itemsPerArray == 32)
    #expect(limits.barButtonItemsPerScene == 512)
    #expect(limits.opsPerMutation == 256)
    #expect(limits.possibleTitles == 16)
    #expect(limits.maxWidth == 10_000)
    #expect(limits.maxTagMagnitude == 9_007_199_254_740_992)
  }

  // MARK: - Ids

  @Test("R66 ids are at most 64 characters")
  func idLength() throws {
    let atLimit = Fixtures.text("a", 64)
    let over = Fixtures.text("a", 65)
    #expect(
      try SceneState.empty.applying(.defineBarButtonItem(Fixtures.button(atLimit))).state.barButtonItems.contains(
        atLimit))
    #expect(
      try SceneState.empty.applying(.push(NavigationItem(id: atLimit), animated: false)).state.navigationBar.topItem?.id
        == atLimit)
    let error = expectLimit(
      .empty, [.defineBarButtonItem(Fixtures.button(over))], limit: "idMaxLength", max: 64,
      field: "ops[0].barButtonItem.id")
    #expect(error?.value?.hasPrefix("aaaa") == true)
    expectLimit(
      .empty, [.push(NavigationItem(id: over), animated: false)], limit: "idMaxLength", max: 64, field: "ops[0].item.id"
    )
    expectLimit(
      .empty, [.setStack([NavigationItem(id: "ok"), NavigationItem(id: over)], animated: false)], limit: "idMaxLength",
      max: 64,
      field: "ops[0].items[1].id")
  }

  static let validIDs = ["a", "Z", "0", "9", "a.b", "a_b", "a-b", "0.-_", "Inbox-2024.01_x", "a..", "x-"]
  static let invalidIDs = ["", ".a", "_a", "-a", "a b", "a/b", "a:b", "a+b", "é", "aé", "a\u{0}", "a\n", "☃", "a#b"]

  @Test("R66 ids start with a letter or digit and use only A-Z a-z 0-9 . _ -", arguments: validIDs)
  func validID(_ id: String) throws {
    let defined = try SceneState.empty.applying(.defineBarButtonItem(Fixtures.button(id)))
    #expect(defined.state.barButtonItems.contains(id))
    let pushed = try SceneState.empty.applying(.push(NavigationItem(id: id), animated: false))
    #expect(pushed.state.navigationBar.items.map(\.id) == [id])
  }

  @Test("R66 an id outside the alphabet is InvalidMutation", arguments: invalidIDs)
  func invalidID(_ id: String) {
    let error = expectFailure(
      .empty, [.defineBarButtonItem(Fixtures.button(id))], .invalidMutation, field: "ops[0].barButtonItem.id")
    #expect(error?.value == id)
    expectFailure(.empty, [.push(NavigationItem(id: id), animated: false)], .invalidMutation, field: "ops[0].item.id")
  }

  // MARK: - Counts

  @Test("R9 R66 the stack holds at most 64 items, by push")
  func stackDepthPush() throws {
    let state = SceneState(navigationBar: NavigationBarState(items: Fixtures.stack(depth: 63)))
    let full = try state.applying(.push(NavigationItem(id: "top"), animated: false)).state
    #expect(full.navigationBar.items.count == 64)
    expectLimit(
      full, [.push(NavigationItem(id: "over"), animated: false)], limit: "stackDepth", max: 64,
      field: "ops[0].item")
  }

  @Test("R12 R66 the stack holds at most 64 items, by setStack")
  func stackDepthSetStack() throws {
    let full = try SceneState.empty.applying(.setStack(Fixtures.stack(depth: 64), animated: false)).state
    #expect(full.navigationBar.items.count == 64)
    expectLimit(
      .empty, [.setStack(Fixtures.stack(depth: 65), animated: false)], limit: "stackDepth", max: 64,
      field: "ops[0].items")
  }

  @Test("R17 R66 an array holds at most 32 items: setBarButtonItems, push and setStack")
  func itemsPerArraySet() throws {
    let state = Fixtures.scene(buttonCount: 64)
    let ids32 = (0..<32).map { "b\($0)" }
    let ids33 = (0..<33).map { "b\($0)" }
    let otherIDs32 = (32..<64).map { "b\($0)" }
    for side in BarSide.allCases {
      let set = try state.applying(
        .setBarButtonItems(navigationItem: "root", side: side, items: ids32, animated: false))
      #expect(set.state.navigationBar.items[0][side] == ids32)
      expectLimit(
        state, [.setBarButtonItems(navigationItem: "root", side: side, items: ids33, animated: false)],
        limit: "itemsPerArray",
        max: 32, field: "ops[0].items")
    }
    _ = try state.applying(
      .push(NavigationItem(id: "n", leftBarButtonItems: ids32, rightBarButtonItems: otherIDs32), animated: false))
    expectLimit(
      state, [.push(NavigationItem(id: "n", rightBarButtonItems: ids33), animated: false)], limit: "itemsPerArray",
      max: 32,
      field: "ops[0].item.rightBarButtonItems")
    expectLimit(
      state, [.setStack([NavigationItem(id: "n", leftBarButtonItems: ids33)], animated: false)], limit: "itemsPerArray",
      max: 32, field: "ops[0].items[0].leftBarButtonItems")
  }

  @Test("R17 R18 R66 an array holds at most 32 items: insertBarButtonItem")
  func itemsPerArrayInsert() throws {
    var state = Fixtures.scene(buttonCount: 33)
    state.navigationBar.items[0].leftBarButtonItems = (0..<31).map { "b\($0)" }
    let full = try state.applying(.insertBarButtonItem(navigationItem: "root", side: .left, item: "b31", before: "b0"))
      .state
    #expect(full.navigationBar.items[0].leftBarButtonItems.count == 32)
    #expect(full.navigationBar.items[0].leftBarButtonItems.first == "b31")
    expectLimit(
      full, [.insertBarButtonItem(navigationItem: "root", side: .left, item: "b32", before: nil)],
      limit: "itemsPerArray",
      max: 32, field: "ops[0].barButtonItem")
    // setBarButtonItem never grows a full array: it replaces or moves the first element.
    let replaced = try full.applying(
      .setBarButtonItem(navigationItem: "root", side: .left, item: "b32", animated: false))
    #expect(replaced.state.navigationBar.items[0].leftBarButtonItems.count == 32)
    #expect(replaced.state.navigationBar.items[0].leftBarButtonItems.first == "b32")
  }

  @Test("R46 R66 the toolbar holds at most 32 items: setToolbarItems and insertToolbarItem")
  func itemsPerArrayToolbar() throws {
    let state = Fixtures.scene(buttonCount: 33)
    let full = try state.applying(.setToolbarItems((0..<32).map { "b\($0)" }, animated: false)).state
    #expect(full.toolbar.items.count == 32)
    expectLimit(
      state, [.setToolbarItems((0..<33).map { "b\($0)" }, animated: false)], limit: "itemsPerArray", max: 32,
      field: "ops[0].items")
    expectLimit(
      full, [.insertToolbarItem("b32", before: nil)], limit: "itemsPerArray", max: 32, field: "ops[0].barButtonItem")
    let fromEmpty = try state.applying((0..<32).map { .insertToolbarItem("b\($0)", before: nil) })
    #expect(fromEmpty.state.toolbar.items == full.toolbar.items)
  }

  @Test("R43 R66 a scene defines at most 512 bar button items")
  func itemsPerScene() throws {
    let state = Fixtures.scene(buttonCount: 511)
    let full = try state.applying(.defineBarButtonItem(Fixtures.button("last"))).state
    #expect(full.barButtonItems.count == 512)
    expectLimit(
      full, [.defineBarButtonItem(Fixtures.button("over"))], limit: "barButtonItemsPerScene", max: 512,
      field: "ops[0].barButtonItem")
    // Deleting one makes room again.
    let room = try full.applying([.deleteBarButtonItem("b0"), .defineBarButtonItem(Fixtures.button("over"))])
    #expect(room.state.barButtonItems.count == 512)
  }

  @Test("R6 R66 a mutation with no ops is InvalidMutation")
  func noOps() {
    expectFailure(Fixtures.scene, [], .invalidMutation, field: "ops", opIndex: nil)
  }

  @Test("R6 R66 a mutation carries at most 256 ops")
  func opsPerMutation() throws {
    let red = Color(red: 255, green: 0, blue: 0)
    let result = try SceneState.empty.applying(Array(repeating: .setSceneTint(red), count: 256))
    #expect(result.state.tintColor == red)
    let error = expectLimit(
      .empty, Array(repeating: .setSceneTint(red), count: 257), limit: "opsPerMutation", max: 256, field: "ops",
      opIndex: nil)
    #expect(error?.value == "257")
  }

  @Test("R39 R66 an item has at most 16 possibleTitles")
  func possibleTitles() throws {
    let sixteen = (0..<16).map { "T\($0)" }
    let seventeen = (0..<17).map { "T\($0)" }
    let defined = try SceneState.empty.applying(.defineBarButtonItem(BarButtonItem(id: "x", possibleTitles: sixteen)))
    #expect(defined.state.barButtonItems["x"]?.possibleTitles == sixteen)
    expectLimit(
      .empty, [.defineBarButtonItem(BarButtonItem(id: "x", possibleTitles: seventeen))], limit: "possibleTitles",
      max: 16,
      field: "ops[0].barButtonItem.possibleTitles")
    _ = try Fixtures.scene.applying(.updateBarButtonItem("share", [.possibleTitles(sixteen)]))
    expectLimit(
      Fixtures.scene, [.updateBarButtonItem("share", [.possibleTitles(seventeen)])], limit: "possibleTitles", max: 16,
      field: "ops[0].set.possibleTitles")
  }

  @Test("R66 a custom limit set applies instead of the default")
  func customLimits() throws {
    var small = ModelLimits()
    small.stackDepth = 2
    small.opsPerMutation = 3
    let two = try SceneState.empty.applying(.setStack(Fixtures.stack(depth: 2), animated: false), limits: small)
    expectFailure(
      two.state, [.push(NavigationItem(id: "x"), animated: false)], .limitExceeded, field: "ops[0].item",
      limits: small)
    expectFailure(
      .empty, Array(repeating: .setSceneTint(nil), count: 4), .limitExceeded, field: "ops", opIndex: nil, limits: small)
  }

  // MARK: - Numbers

  /// Every place a width or size is written, as an op making it.
  static let widthOps: [@Sendable (Double) -> (Op, String)] = [
    { (.defineBarButtonItem(BarButtonItem(id: "x", width: $0)), "ops[0].barButtonItem.width") },
    { (.updateBarButtonItem("share", [.width($0)]), "ops[0].set.width") },
    { (.updateBarButtonItem("share", [.customView(CustomView(name: "v", width: $0))]), "ops[0].set.customView.width") },
    {
      (
        .updateBarButtonItem("share", [.customView(CustomView(name: "v", width: 1, height: $0))]),
        "ops[0].set.customView.height"
      )
    },
    { (.updateBarButtonItem("share", [.image(ImageRef(name: "i", width: $0))]), "ops[0].set.image.width") },
    { (.updateBarButtonItem("share", [.image(ImageRef(name: "i", height: $0))]), "ops[0].set.image.height") },
    {
      (
        .updateNavigationItem("inbox", [.titleView(CustomView(name: "v", width: $0))], animated: false),
        "ops[0].set.titleView.width"
      )
    },
    {
      (
        .push(NavigationItem(id: "n", titleView: CustomView(name: "v", width: $0)), animated: false),
        "ops[0].item.titleView.width"
      )
    },
    {
      (
        .updateAppearance(
          .toolbar, [.backgroundImage(ImageRef(name: "i", width: $0), position: .any, metrics: .default)]),
        "ops[0].set.backgroundImages.width"
      )
    },
    {
      (
        .updateAppearance(.navigationBar, [.titleTextAttributes(TitleTextAttributes(size: $0))]),
        "ops[0].set.titleTextAttributes.size"
      )
    },
  ]

  @Test("R66 widths and sizes are finite numbers from 0 to 10000; negative ones are InvalidMutation")
  func widths() throws {
    for makeOp in Self.widthOps {
      for valid in [0, -0.0, 0.5, 9_999.999, 10_000] {
        let (op, _) = makeOp(valid)
        _ = try Fixtures.scene.applying(op)
      }
      for invalid in [-0.001, -1, -.infinity, .nan] {
        let (op, field) = makeOp(invalid)
        expectFailure(Fixtures.scene, [op], .invalidMutation, field: field)
      }
    }
  }

  @Test("R66 a width above 10000 is LimitExceeded naming maxWidth")
  func widthsOverLimit() throws {
    for makeOp in Self.widthOps {
      for invalid in [10_000.001, 10_001, 1e300] {
        let (op, field) = makeOp(invalid)
        expectLimit(Fixtures.scene, [op], limit: "maxWidth", max: 10_000, field: field)
      }
      // Not finite is not a size at all.
      let (op, field) = makeOp(.infinity)
      expectFailure(Fixtures.scene, [op], .invalidMutation, field: field)
    }
  }

  @Test("R66 tags are integers within ±2^53")
  func tags() throws {
    let maxTag = 9_007_199_254_740_992
    for valid in [maxTag, -maxTag, 0, 1, -1] {
      let defined = try SceneState.empty.applying(.defineBarButtonItem(BarButtonItem(id: "x", tag: valid)))
      #expect(defined.state.barButtonItems["x"]?.tag == valid)
      #expect(try SceneState(json: defined.state.json) == defined.state)
    }
    for invalid in [maxTag + 1, -maxTag - 1, maxTag * 2, Int.max, Int.min] {
      expectFailure(
        .empty, [.defineBarButtonItem(BarButtonItem(id: "x", tag: invalid))], .invalidMutation,
        field: "ops[0].barButtonItem.tag")
      expectFailure(
        Fixtures.scene, [.updateBarButtonItem("share", [.tag(invalid)])], .invalidMutation, field: "ops[0].set.tag")
    }
  }
}
