extension Op {
  /// The fields this op writes or edits, for conflict detection (CONFLICTS.md).
  public var fieldAccesses: FieldAccesses {
    let stack = FieldKey(.bar(.navigationBar), "items")
    let toolbarItems = FieldKey(.bar(.toolbar), "items")
    switch self {
    case .push(let item, _):
      return FieldAccesses(edits: [stack], creations: [.navigationItem(item.id)])
    case .pop, .popTo:
      return FieldAccesses(edits: [stack])
    case .setStack(let items, _):
      return FieldAccesses(writes: [stack], creations: items.map { .navigationItem($0.id) })
    case .updateNavigationItem(let id, let fields, _):
      return FieldAccesses(writes: fields.map { FieldKey(.navigationItem(id), $0.name) })
    case .setBarButtonItems(let id, let side, _, _):
      return FieldAccesses(writes: [
        FieldKey(.navigationItem(id), "\(side.rawValue)BarButtonItems"),
        FieldKey(.navigationItem(id), "\(side.rawValue)BarButtonItem"),
      ])
    case .setBarButtonItem(let id, let side, _, _):
      return FieldAccesses(
        writes: [FieldKey(.navigationItem(id), "\(side.rawValue)BarButtonItem")],
        edits: [FieldKey(.navigationItem(id), "\(side.rawValue)BarButtonItems")])
    case .insertBarButtonItem(let id, let side, _, _), .removeBarButtonItem(let id, let side, _),
      .moveBarButtonItem(let id, let side, _, _):
      return FieldAccesses(edits: [FieldKey(.navigationItem(id), "\(side.rawValue)BarButtonItems")])
    case .defineBarButtonItem(let item):
      return FieldAccesses(creations: [.barButtonItem(item.id)])
    case .deleteBarButtonItem:
      return FieldAccesses()
    case .updateBarButtonItem(let id, let fields):
      return FieldAccesses(writes: fields.map { FieldKey(.barButtonItem(id), $0.name) })
    case .setToolbarItems:
      return FieldAccesses(writes: [toolbarItems])
    case .insertToolbarItem, .removeToolbarItem, .moveToolbarItem:
      return FieldAccesses(edits: [toolbarItems])
    case .setBarHidden(let bar, _, _):
      return FieldAccesses(writes: [FieldKey(.bar(bar), "hidden")])
    case .updateAppearance(let target, let fields):
      return FieldAccesses(writes: fields.map { FieldKey(.appearance(target), $0.name) })
    case .setSceneTint:
      return FieldAccesses(writes: [FieldKey(.scene, "tintColor")])
    case .setDefaultItemTint:
      return FieldAccesses(writes: [FieldKey(.scene, "barButtonItemTintColor")])
    }
  }
}
