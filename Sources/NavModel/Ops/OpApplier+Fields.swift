/// Field writes on navigation items and appearances.
extension OpApplier {
  /// Changes the item's fields where it lies on the stack, not through a copy of the item:
  /// a field that fails leaves the earlier ones changed, which `SceneState.applying` discards
  /// with the rest of the failed batch.
  mutating func updateNavigationItem(_ id: String, _ fields: [NavigationItemField]) throws(NavError) {
    let index = try stackIndex(id, field: field("item"))
    for change in fields {
      switch change {
      case .title(let title):
        try validation.text(title, field: field("set.title"))
        state.navigationBar.items[index].title = title
      case .prompt(let prompt):
        try validation.text(prompt, field: field("set.prompt"))
        state.navigationBar.items[index].prompt = prompt
      case .titleView(let view):
        try validation.customView(view, field: field("set.titleView"))
        state.navigationBar.items[index].titleView = view
      case .backBarButtonItem(let back):
        if let back, !state.barButtonItems.contains(back) {
          throw NavError(
            .itemNotFound, "no bar button item \"\(back)\"", field: field("set.backBarButtonItem"), value: back)
        }
        state.navigationBar.items[index].backBarButtonItem = back
      case .hidesBackButton(let hides):
        state.navigationBar.items[index].hidesBackButton = hides
      case .leftItemsSupplementBackButton(let supplement):
        state.navigationBar.items[index].leftItemsSupplementBackButton = supplement
      }
    }
  }

  mutating func updateAppearance(_ target: AppearanceTarget, _ fields: [AppearanceField]) throws(NavError) {
    var appearance = appearance(of: target)
    for change in fields {
      switch change {
      case .barStyle(let style): appearance.barStyle = style
      case .tintColor(let color): appearance.tintColor = color
      case .barTintColor(let color): appearance.barTintColor = color
      case .translucent(let translucent): appearance.translucent = translucent
      case .backgroundImage(let image, let position, let metrics):
        appearance.setBackgroundImage(image, position: position, metrics: metrics)
      case .shadowImage(let image): appearance.shadowImage = image
      case .titleTextAttributes(let attributes): appearance.titleTextAttributes = attributes
      }
    }
    try validation.appearance(appearance, field: field("set"))
    switch target {
    case .navigationBar: state.navigationBar.appearance = appearance
    case .toolbar: state.toolbar.appearance = appearance
    case .defaultNavigationBar: state.appearanceDefaults.navigationBar = appearance
    case .defaultToolbar: state.appearanceDefaults.toolbar = appearance
    }
  }

  func appearance(of target: AppearanceTarget) -> BarAppearance {
    switch target {
    case .navigationBar: state.navigationBar.appearance
    case .toolbar: state.toolbar.appearance
    case .defaultNavigationBar: state.appearanceDefaults.navigationBar
    case .defaultToolbar: state.appearanceDefaults.toolbar
    }
  }
}
