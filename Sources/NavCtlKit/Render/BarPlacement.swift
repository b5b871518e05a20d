import NavModel

/// Where each element of a bar is drawn, in columns of the bar's interior.
///
/// With geometry (a layout resolved with a width) columns come from the points:
/// `column = round(x / 8)`, `span = floor(width / 8)`. Every label is at most
/// `width / 8` columns, so labels never overlap (round(a) + floor(b) ≤ round(a + b)).
/// Without geometry the same rules (SEMANTICS R34–R36, R47) run in columns, with
/// 1-column padding and spacing, and what does not fit the terminal is listed as overflow.
struct BarPlacement {
  enum Element {
    case back(BackButtonLayout)
    case item(LayoutItem)
    case centre(CentreLayout)
  }

  struct Placed {
    var element: Element
    var column: Int
    var span: Int

    init(element: Element, column: Int, span: Int) {
      self.element = element
      self.column = column
      self.span = span
    }

    /// An element drawn where the layout's geometry puts it.
    init(element: Element, _ extent: Extent) {
      self.init(element: element, column: BarPlacement.column(extent.x), span: BarPlacement.columns(extent.width))
    }
  }

  var placed: [Placed] = []
  /// An item not drawn, and its side when the document's overflow names one.
  struct Unshown {
    var item: LayoutItem
    var side: BarSide?
  }

  /// Items not drawn: the document's overflow, plus what did not fit the terminal.
  var overflow: [Unshown] = []

  static func columns(_ points: Double) -> Int { Int((points / BarRenderer.pointsPerColumn + 1e-9).rounded(.down)) }
  static func column(_ points: Double) -> Int { Int((points / BarRenderer.pointsPerColumn).rounded()) }

  /// Natural span of an item without geometry.
  static func naturalSpan(_ item: LayoutItem) -> Int {
    switch item.kind {
    case .title: DisplayWidth.of(item.title ?? "") + 2
    case .customView: max(1, columns(item.customView?.width ?? 24))
    case .flexibleSpace, .fixedSpace: 0
    case .system, .custom, .image: 3
    }
  }

  /// The navigation bar's elements in an interior `interior` columns wide.
  init(navigationBar bar: NavigationBarLayout, interior: Int) {
    overflow = bar.overflow.map { Unshown(item: $0.item, side: $0.side) }
    let hasGeometry =
      bar.centre?.extent != nil || bar.backButton?.extent != nil
      || (bar.left + bar.right).contains { $0.extent != nil }
    if hasGeometry {
      if let back = bar.backButton, let extent = back.extent {
        placed.append(Placed(element: .back(back), extent))
      }
      for item in bar.left + bar.right where !item.kind.isSpace {
        guard let extent = item.extent else { continue }
        placed.append(Placed(element: .item(item), extent))
      }
      if let centre = bar.centre, let extent = centre.extent {
        placed.append(Placed(element: .centre(centre), extent))
      }
      return
    }
    flow(bar, interior: interior)
  }

  /// R35 and R36 in columns, for a document without geometry.
  private mutating func flow(_ bar: NavigationBarLayout, interior: Int) {
    var title = 0
    if let centre = bar.centre {
      title =
        centre.kind == .titleView
        ? Self.columns(centre.titleView?.width ?? 0) : DisplayWidth.of(centre.title ?? "")
    }
    let cL = (interior - title) / 2
    let lambdaL = title > 0 ? cL - 1 : interior - 1
    let lambdaR = title > 0 ? cL + title + 1 : 1
    var x = 1
    var leftEdge: Int?
    var previousIsSpace: Bool?
    var overflowing = false
    if let back = bar.backButton {
      let span = back.image != nil ? 3 : 2 + DisplayWidth.of(back.title ?? "")
      placed.append(Placed(element: .back(back), column: x, span: span))
      x += span
      leftEdge = x
      previousIsSpace = false
    }
    for item in bar.left where !overflowing {
      let gap = previousIsSpace == nil || previousIsSpace! || item.kind.isSpace ? 0 : 1
      let span = Self.naturalSpan(item)
      if x + gap + span > lambdaL {
        overflowing = true
        overflow.append(Unshown(item: item))
        continue
      }
      if !item.kind.isSpace { placed.append(Placed(element: .item(item), column: x + gap, span: span)) }
      x += gap + span
      leftEdge = x
      previousIsSpace = item.kind.isSpace
    }
    let mu = leftEdge.map { max(lambdaR, $0 + 1) } ?? lambdaR
    var end = interior - 1
    previousIsSpace = nil
    var rightEdge: Int?
    overflowing = false
    for item in bar.right.reversed() where !overflowing {
      let gap = previousIsSpace == nil || previousIsSpace! || item.kind.isSpace ? 0 : 1
      let span = Self.naturalSpan(item)
      let start = end - gap - span
      if start < mu {
        overflowing = true
        overflow.append(Unshown(item: item))
        continue
      }
      if !item.kind.isSpace { placed.append(Placed(element: .item(item), column: start, span: span)) }
      end = start
      rightEdge = start
      previousIsSpace = item.kind.isSpace
    }
    guard let centre = bar.centre else { return }
    let bs = leftEdge.map { $0 + 1 } ?? 1
    let be = rightEdge.map { $0 - 1 } ?? interior - 1
    if title == 0 { return }
    if bs <= cL, cL + title <= be {
      placed.append(Placed(element: .centre(centre), column: cL, span: title))
    } else if title <= be - bs {
      placed.append(Placed(element: .centre(centre), column: min(max(cL, bs), be - title), span: title))
    } else {
      var truncated = centre
      truncated.truncated = true
      placed.append(Placed(element: .centre(truncated), column: bs, span: max(0, be - bs)))
    }
  }

  /// The toolbar's items in an interior `interior` columns wide (R47).
  init(toolbar: ToolbarLayout, interior: Int) {
    overflow = toolbar.overflow.map { Unshown(item: $0) }
    if toolbar.items.contains(where: { $0.extent != nil }) {
      for item in toolbar.items where !item.kind.isSpace {
        guard let extent = item.extent else { continue }
        placed.append(Placed(element: .item(item), extent))
      }
      return
    }
    var used = 1
    var fitting: [(item: LayoutItem, gap: Int, span: Int)] = []
    var previousIsSpace: Bool?
    var overflowing = false
    for item in toolbar.items {
      let gap = previousIsSpace == nil || previousIsSpace! || item.kind.isSpace ? 0 : 1
      let span = item.kind == .flexibleSpace ? 0 : Self.naturalSpan(item)
      if overflowing || used + gap + span + 1 > interior {
        overflowing = true
        if !item.kind.isSpace { overflow.append(Unshown(item: item)) }
        continue
      }
      fitting.append((item, gap, span))
      used += gap + span
      previousIsSpace = item.kind.isSpace
    }
    let flexible = fitting.filter { $0.item.kind == .flexibleSpace }.count
    let free = max(0, interior - used - 1)
    var x = 1
    var shared = 0
    for entry in fitting {
      x += entry.gap
      var span = entry.span
      if entry.item.kind == .flexibleSpace {
        shared += 1
        span = free * shared / flexible - free * (shared - 1) / flexible
      } else {
        placed.append(Placed(element: .item(entry.item), column: x, span: span))
      }
      x += span
    }
  }
}
