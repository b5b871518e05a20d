import NavModel

extension CommandTable {
  /// The words `appearance` takes for its targets.
  static let appearanceTargets: [(word: String, target: AppearanceTarget)] = [
    ("navigation-bar", .navigationBar), ("toolbar", .toolbar), ("defaults-navigation-bar", .defaultNavigationBar),
    ("defaults-toolbar", .defaultToolbar),
  ]

  /// appearance, tint, navigation-bar hide/show.
  static let appearanceCommands: [CommandSpec] = [
    CommandSpec(
      "appearance", "Change a bar's appearance, or the defaults every bar inherits", group: .appearance,
      positionals: [
        PositionalSpec(
          "TARGET", .required,
          "navigation-bar, toolbar, defaults-navigation-bar or defaults-toolbar (the defaults every bar of that kind inherits)",
          hint: .choices(appearanceTargets.map(\.word)))
      ],
      options: [
        .value(
          "--style", "STYLE", "bar style: default, black, or unset", hint: .choices(["default", "black", "unset"])),
        .value("--tint", "COLOR", "tint of the bar's items, #RRGGBB[AA] (none: inherit)", hint: .color),
        .value("--bar-tint", "COLOR", "the bar's background colour (none: by style)", hint: .color),
        .value(
          "--translucent", "WHEN", "yes, no, or unset (follow the background image)",
          hint: .choices(["yes", "no", "unset"])),
        .value("--shadow-image", "NAME", "hairline image under the bar, shown with a background image (none: clear)"),
        .value("--background-image", "NAME", "background image for --position and --metrics (none: clear)"),
        .value(
          "--position", "POS", "bar position of the background image: any (default), bottom, top, topAttached",
          hint: .choices(BarPosition.allCases.map(\.rawValue))),
        .value(
          "--metrics", "METRICS",
          "bar metrics of the background image: default (default), compact, defaultPrompt, compactPrompt",
          hint: .choices(BarMetrics.allCases.map(\.rawValue))),
        .flag("--image-translucent", "the background image has transparent pixels (default: opaque)"),
        .value("--title-font", "NAME", "navigation bar title font (none: clear)"),
        .value("--title-size", "POINTS", "navigation bar title font size", hint: .number),
        .value("--title-color", "COLOR", "navigation bar title colour (none: clear)", hint: .color),
        .flag("--clear-title-attributes", "remove the title font, size and colour"),
      ],
      example: "appearance navigation-bar --style black --tint '#FF9500'",
      notes: [
        "A bar's own value wins over the defaults; the tint falls back to the scene tint ('navctl tint'), then the defaults, then system blue."
      ],
      build: buildAppearance),
    CommandSpec(
      "tint", "Set the scene's tint, inherited by both bars and their items", group: .appearance,
      positionals: [PositionalSpec("COLOR", .required, "#RRGGBB[AA], or none", hint: .color)],
      options: [.flag("--default-items", "set the default tint of every bar button item instead")],
      example: "tint '#34C759'",
      build: { args throws(UsageError) in
        let color: Color?
        do throws(UsageError) {
          color = try ValueReader.optionalColor(args.positional("COLOR") ?? "", option: "COLOR")
        } catch {
          throw args.error(error.message)
        }
        return .mutate(.fixed([args.flag("--default-items") ? .setDefaultItemTint(color) : .setSceneTint(color)]))
      }),
    CommandSpec(
      "navigation-bar hide", "Hide the navigation bar", group: .appearance,
      options: [animated],
      example: "navigation-bar hide",
      build: { args throws(UsageError) in
        .mutate(.fixed([.setBarHidden(.navigationBar, hidden: true, animated: args.flag("--animated"))]))
      }),
    CommandSpec(
      "navigation-bar show", "Show the navigation bar", group: .appearance,
      options: [animated],
      example: "navigation-bar show",
      build: { args throws(UsageError) in
        .mutate(.fixed([.setBarHidden(.navigationBar, hidden: false, animated: args.flag("--animated"))]))
      }),
  ]

  @Sendable static func buildAppearance(_ args: ParsedArguments) throws(UsageError) -> Action {
    let word = args.positional("TARGET") ?? ""
    let target = appearanceTargets.first { $0.word == word }!.target
    var fields: [AppearanceField] = []
    if let style = args.value("--style") {
      let chosen = try read(args, "--style") { text, option throws(UsageError) in
        try ValueReader.choice(text, option: option, ["default", "black", "unset"])
      }
      fields.append(.barStyle(chosen == "unset" ? nil : BarStyle(rawValue: style)))
    }
    if let tint = try read(args, "--tint", ValueReader.optionalColor) { fields.append(.tintColor(tint)) }
    if let tint = try read(args, "--bar-tint", ValueReader.optionalColor) { fields.append(.barTintColor(tint)) }
    if let translucent = try read(
      args, "--translucent",
      { text, option throws(UsageError) in
        try ValueReader.choice(text, option: option, ["yes", "no", "unset"])
      })
    {
      fields.append(.translucent(translucent == "unset" ? nil : translucent == "yes"))
    }
    if let shadow = args.value("--shadow-image") {
      fields.append(.shadowImage(shadow == "none" ? nil : ImageRef(name: shadow)))
    }
    let position = try read(args, "--position") { text, option throws(UsageError) in
      try ValueReader.enumeration(text, option: option, BarPosition.self)
    }
    let metrics = try read(args, "--metrics") { text, option throws(UsageError) in
      try ValueReader.enumeration(text, option: option, BarMetrics.self)
    }
    if let background = args.value("--background-image") {
      let image = background == "none" ? nil : ImageRef(name: background, opaque: !args.flag("--image-translucent"))
      fields.append(.backgroundImage(image, position: position ?? .any, metrics: metrics ?? .default))
    } else if position != nil || metrics != nil || args.flag("--image-translucent") {
      throw args.error("--position, --metrics and --image-translucent go with --background-image NAME")
    }
    let font = args.value("--title-font")
    let size = try read(args, "--title-size", ValueReader.length)
    let color = try read(args, "--title-color", ValueReader.optionalColor)
    let changesTitle = font != nil || size != nil || args.value("--title-color") != nil
    if args.flag("--clear-title-attributes") {
      if changesTitle { throw args.error("--clear-title-attributes cannot be combined with --title-*") }
      fields.append(.titleTextAttributes(nil))
    }
    let fixed = fields
    guard !fixed.isEmpty || changesTitle else {
      throw args.error("nothing to change: give at least one option (see 'navctl appearance --help')")
    }
    return .mutate(
      MutationPlan(needsState: changesTitle) { state in
        var all = fixed
        if changesTitle {
          // The attributes are one value: merge the options into the current ones so that
          // --title-size alone keeps the font and colour.
          var attributes = Self.appearance(target, in: state).titleTextAttributes ?? TitleTextAttributes()
          if let font { attributes.font = font == "none" ? nil : font }
          if let size { attributes.size = size }
          if let color { attributes.color = color }
          all.append(.titleTextAttributes(attributes))
        }
        return MutationBuild(ops: [.updateAppearance(target, all)])
      })
  }

  /// The stored appearance a target names.
  static func appearance(_ target: AppearanceTarget, in state: SceneState) -> BarAppearance {
    switch target {
    case .navigationBar: state.navigationBar.appearance
    case .toolbar: state.toolbar.appearance
    case .defaultNavigationBar: state.appearanceDefaults.navigationBar
    case .defaultToolbar: state.appearanceDefaults.toolbar
    }
  }
}
