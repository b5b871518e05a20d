/// The navigation bar with a width (SEMANTICS R35–R37): the title reserves
/// its centred region, the left side is placed first (the back button
/// always), then the right side, and whatever would overlap goes to
/// `overflow`; then the title is centred, shifted or truncated.
///
/// Every number is computed in the order R35/R36 write it, so other
/// implementations agree to the bit.
extension LayoutResolver {
  static func layOut(_ draft: inout NavigationBarDraft, width w: Double) {
    let p = WidthModel.edgePadding
    let s = WidthModel.spacing
    guard draft.layout.centre != nil else { return }  // an empty stack draws nothing
    let t = draft.titleWidth

    // Step 1: the title region.
    let cL = (w - t) / 2
    let cR = (w + t) / 2
    let lambdaL = t > 0 ? cL - s : w - p
    let lambdaR = t > 0 ? cR + s : p

    // Step 2: the left pass.
    var x = p
    var previous: LayoutItem.Kind?
    var leftEdge: Double?
    if let backWidth = draft.backWidth, draft.layout.backButton != nil {
      // The back button is first on its side (no gap) and always placed.
      let end = x + backWidth
      draft.layout.backButton?.extent = Extent(x: x, width: backWidth)
      x = end
      leftEdge = end
      previous = .custom  // a non-space entry for R34
    }
    var left: [LayoutItem] = []
    var overflow: [OverflowedItem] = []
    for (index, candidate) in draft.left.enumerated() {
      let itemWidth = candidate.width ?? 0
      let start = x + WidthModel.gap(after: previous, before: candidate.item.kind)
      let end = start + itemWidth
      guard end <= lambdaL else {
        overflow += draft.left[index...].filter { !$0.item.kind.isSpace }.map { OverflowedItem($0.item, side: .left) }
        break
      }
      var item = candidate.item
      item.extent = Extent(x: start, width: itemWidth)
      left.append(item)
      x = end
      leftEdge = end
      previous = candidate.item.kind
    }

    // Step 3: the right pass, right to left, stopping short of the title and the left side.
    x = w - p
    previous = nil
    let mu = leftEdge.map { max(lambdaR, $0 + s) } ?? lambdaR
    var right: [LayoutItem] = []
    var leftmostRightStart: Double?
    for (index, candidate) in draft.right.enumerated() {
      let itemWidth = candidate.width ?? 0
      let end = x - WidthModel.gap(after: previous, before: candidate.item.kind)
      let start = end - itemWidth
      guard start >= mu else {
        overflow += draft.right[index...].filter { !$0.item.kind.isSpace }.map { OverflowedItem($0.item, side: .right) }
        break
      }
      var item = candidate.item
      item.extent = Extent(x: start, width: itemWidth)
      right.append(item)
      x = start
      leftmostRightStart = start
      previous = candidate.item.kind
    }

    draft.layout.left = left
    draft.layout.right = right.reversed()  // R28: on-screen order, left to right
    draft.layout.overflow = overflow

    // Step 4 (R36): the title within the band the sides left free.
    let bandStart = leftEdge.map { $0 + s } ?? p
    let bandEnd = leftmostRightStart.map { $0 - s } ?? w - p
    let extent: Extent
    var truncated = false
    if t == 0 {
      extent = Extent(x: w / 2, width: 0)
    } else if bandStart <= cL && cR <= bandEnd {
      extent = Extent(x: cL, width: t)
    } else if t <= bandEnd - bandStart {
      extent = Extent(x: min(max(cL, bandStart), bandEnd - t), width: t)
    } else {
      extent = Extent(x: bandStart, width: max(0, bandEnd - bandStart))
      truncated = true
    }
    draft.layout.centre?.extent = extent
    draft.layout.centre?.truncated = truncated
  }
}
