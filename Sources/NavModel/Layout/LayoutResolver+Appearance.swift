/// Appearance resolution (SEMANTICS R48–R56): inheritance from the appearance
/// defaults, background image lookup, translucency, background colour, shadow
/// image and tint.
extension LayoutResolver {
  /// The opacity a translucent bar gives an opaque background image (R54).
  static let forcedTranslucentImageOpacity = 0.9

  static func resolveAppearance(
    _ bar: Bar, in state: SceneState, barMetrics: BarMetrics, position: BarPosition
  ) -> ResolvedAppearance {
    let own = ownAppearance(bar, in: state)
    let defaults = defaultAppearance(bar, in: state)
    let barStyle = own.barStyle ?? defaults.barStyle ?? .default
    let explicitTranslucent = own.translucent ?? defaults.translucent
    let found = backgroundImage(
      in: effectiveBackgroundImages(own: own, defaults: defaults), barMetrics: barMetrics, position: position)

    // R52: explicit wins; else the image's opacity decides; else translucent.
    let translucent = explicitTranslucent ?? found.map { !$0.image.opaque } ?? true

    // R53: barTintColor wins over the style's colour.
    let base = own.barTintColor ?? defaults.barTintColor ?? (barStyle == .black ? Color.black : Color.white)
    let backgroundColor: Color?
    if !translucent {
      var opaque = base
      opaque.alpha = 255
      backgroundColor = opaque
    } else {
      backgroundColor = found == nil ? base : nil
    }

    let resolvedImage = found.map { entry in
      // R54: only an explicit `translucent: true` fades an opaque image.
      let forced = explicitTranslucent == true && entry.image.opaque
      return ResolvedBackgroundImage(
        image: entry.image, position: entry.position, metrics: entry.metrics,
        opacity: forced ? forcedTranslucentImageOpacity : 1)
    }

    return ResolvedAppearance(
      barStyle: barStyle, translucent: translucent, backgroundColor: backgroundColor,
      backgroundImage: resolvedImage,
      // R55: a custom shadow needs a custom background.
      shadowImage: found == nil ? nil : own.shadowImage ?? defaults.shadowImage,
      tint: barTint(bar, of: state),
      titleTextAttributes: bar == .navigationBar ? own.titleTextAttributes ?? defaults.titleTextAttributes : nil)
  }

  /// The bar's own appearance.
  static func ownAppearance(_ bar: Bar, in state: SceneState) -> BarAppearance {
    switch bar {
    case .navigationBar: state.navigationBar.appearance
    case .toolbar: state.toolbar.appearance
    }
  }

  /// The appearance defaults ("appearance proxy") for bars of this kind.
  static func defaultAppearance(_ bar: Bar, in state: SceneState) -> BarAppearance {
    switch bar {
    case .navigationBar: state.appearanceDefaults.navigationBar
    case .toolbar: state.appearanceDefaults.toolbar
    }
  }

  /// R48: the defaults' entries, each overridden by the bar's entry for the same (position, metrics).
  static func effectiveBackgroundImages(own: BarAppearance, defaults: BarAppearance) -> [BackgroundImage] {
    let inherited = defaults.backgroundImages.filter { entry in
      own.backgroundImage(position: entry.position, metrics: entry.metrics) == nil
    }
    return own.backgroundImages + inherited
  }

  /// R51: metrics outer, position inner; the first entry found wins.
  static func backgroundImage(
    in images: [BackgroundImage], barMetrics: BarMetrics, position: BarPosition
  ) -> BackgroundImage? {
    for metrics in metricsChain(barMetrics) {
      for position in positionChain(position) {
        if let entry = images.first(where: { $0.metrics == metrics && $0.position == position }) { return entry }
      }
    }
    return nil
  }

  /// R51's metrics fallbacks.
  static func metricsChain(_ metrics: BarMetrics) -> [BarMetrics] {
    switch metrics {
    case .default: [.default]
    case .compact: [.compact, .default]
    case .defaultPrompt: [.defaultPrompt, .default]
    case .compactPrompt: [.compactPrompt, .defaultPrompt, .compact, .default]
    }
  }

  /// R51's position fallbacks; `any` (which R7 never passes) looks up only itself.
  static func positionChain(_ position: BarPosition) -> [BarPosition] {
    switch position {
    case .topAttached: [.topAttached, .top, .any]
    case .top: [.top, .any]
    case .bottom: [.bottom, .any]
    case .any: [.any]
    }
  }

  // MARK: - Tint (R56)

  /// A bar's tint: bar → scene → appearance defaults for the bar → system blue.
  static func barTint(_ bar: Bar, of state: SceneState) -> Color {
    ownAppearance(bar, in: state).tintColor ?? state.tintColor ?? defaultAppearance(bar, in: state).tintColor
      ?? .systemBlue
  }

  /// An item's tint in `bar`: item → bar → scene → item appearance default →
  /// bar appearance default → system blue. A nil item (a back button without
  /// `backBarButtonItem`) starts at the bar.
  static func itemTint(_ item: BarButtonItem?, in bar: Bar, of state: SceneState) -> Color {
    item?.tintColor ?? ownAppearance(bar, in: state).tintColor ?? state.tintColor
      ?? state.appearanceDefaults.barButtonItemTintColor ?? defaultAppearance(bar, in: state).tintColor
      ?? .systemBlue
  }
}
