/// The toolbar with a width (SEMANTICS R47): fit items left to right, share
/// the free width among the fitting flexible spaces, then place.
extension LayoutResolver {
  static func layOut(_ draft: inout ToolbarDraft, width w: Double) {
    let p = WidthModel.edgePadding

    // Step 1: fit. A flexible space counts as 0 here; the rest is cut at the first misfit.
    var used = p
    var previous: LayoutItem.Kind?
    var fitting: [Candidate] = []
    var overflow: [LayoutItem] = []
    for (index, candidate) in draft.items.enumerated() {
      let gap = WidthModel.gap(after: previous, before: candidate.item.kind)
      let itemWidth = candidate.width ?? 0
      guard used + gap + itemWidth + p <= w else {
        // Overflowed spaces are dropped: there is nothing to show for them.
        overflow = draft.items[index...].map(\.item).filter { !$0.kind.isSpace }
        break
      }
      used += gap + itemWidth
      fitting.append(candidate)
      previous = candidate.item.kind
    }

    // Step 2: share the free width; with no flexible space it stays at the right end.
    let free = w - (used + p)
    let flexibleCount = fitting.filter { $0.item.kind == .flexibleSpace }.count
    let share = flexibleCount > 0 ? free / Double(flexibleCount) : 0

    // Step 3: place.
    var x = p
    previous = nil
    var items: [LayoutItem] = []
    for candidate in fitting {
      x += WidthModel.gap(after: previous, before: candidate.item.kind)
      let itemWidth = candidate.item.kind == .flexibleSpace ? share : candidate.width ?? 0
      var item = candidate.item
      item.extent = Extent(x: x, width: itemWidth)
      items.append(item)
      x += itemWidth
      previous = candidate.item.kind
    }
    draft.layout.items = items
    draft.layout.overflow = overflow
  }
}
