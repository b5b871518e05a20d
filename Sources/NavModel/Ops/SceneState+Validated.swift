extension SceneState {
  /// The state itself, once it is checked against every rule a mutation holds a scene to:
  /// what a whole document must pass where it enters navd (an import, a stored snapshot at
  /// start-up), so that no state reaches the engine that no mutation could have made.
  ///
  /// The rules: ids of the id syntax (R66) and unique, in the stack and among the bar button
  /// items (R3); every reference names a defined bar button item (R4); no id twice in one
  /// array or on both sides of one navigation item (R5); no system item with a title, image
  /// or custom view (R41); every count, length and size within `limits` (R66); text of one
  /// line (R67). The first failure is thrown; its `field` is the path into the document
  /// under `path` (`navigationBar.items[1].id`), its message cites the rule, and a
  /// LimitExceeded names the limit and its maximum.
  public func validated(limits: ModelLimits = .default, path: String = "") throws(NavError) -> SceneState {
    let validation = Validation(limits: limits)
    func field(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

    let items = barButtonItems.items
    try validation.count(
      items.count, limit: "barButtonItemsPerScene", max: limits.barButtonItemsPerScene, field: field("barButtonItems"))
    for (i, item) in items.enumerated() {
      try validation.barButtonItem(item, field: field("barButtonItems[\(i)]"))
    }

    let stack = navigationBar.items
    try validation.count(stack.count, limit: "stackDepth", max: limits.stackDepth, field: field("navigationBar.items"))
    var seen = Set<String>()
    for (i, item) in stack.enumerated() {
      let itemField = field("navigationBar.items[\(i)]")
      try validation.navigationItem(item, in: self, field: itemField)
      guard seen.insert(item.id).inserted else {
        throw NavError(
          .duplicateItem, "\(itemField).id: navigation item \"\(item.id)\" is on the stack twice (SEMANTICS R3)",
          field: "\(itemField).id", value: item.id)
      }
    }

    try validation.itemArray(toolbar.items, in: self, field: field("toolbar.items"))
    try validation.appearance(navigationBar.appearance, field: field("navigationBar.appearance"))
    try validation.appearance(toolbar.appearance, field: field("toolbar.appearance"))
    try validation.appearance(appearanceDefaults.navigationBar, field: field("appearanceDefaults.navigationBar"))
    try validation.appearance(appearanceDefaults.toolbar, field: field("appearanceDefaults.toolbar"))
    return self
  }
}
