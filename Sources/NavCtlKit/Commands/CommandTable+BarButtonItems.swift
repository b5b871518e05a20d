import NavModel

extension CommandTable {
  /// Fields `item --unset` can clear.
  static let unsettableFields = [
    "title", "image", "system", "width", "tint", "action", "custom-view", "possible-titles",
  ]

  /// item, delete-item.
  static let barButtonItemCommands: [CommandSpec] = [
    CommandSpec(
      "item", "Define a bar button item, or change it when it exists", group: .barButtonItems,
      positionals: [
        PositionalSpec(
          "ID", .optional, "the item's id (default: made from --title/--system/--image and printed)",
          hint: .barButtonItem)
      ],
      options: [
        .value("--title", "TEXT", "the button's title"),
        .value("--image", "NAME", "a template image, drawn in the item's tint"),
        .value(
          "--system", "NAME", "a system item: \(SystemItem.allCases.map(\.rawValue).joined(separator: ", "))",
          hint: .choices(SystemItem.allCases.map(\.rawValue))),
        .flag("--enabled", "the item can be activated (the default)"),
        .flag("--disabled", "the item is shown dimmed and cannot be activated"),
        .value("--tag", "N", "an integer for the app's own use", hint: .number),
        .value(
          "--style", "STYLE", "plain, bordered or done",
          hint: .choices(ItemStyle.allCases.map(\.rawValue))),
        .value("--width", "W", "a fixed width in points (0: computed from the content)", hint: .number),
        .repeated("--possible-title", "TEXT", "a title the item may show; its width fits the widest"),
        .value("--custom-view", "NAME", "a custom view (needs --view-width)"),
        .value("--view-width", "W", "the custom view's width in points", hint: .number),
        .value("--view-height", "H", "the custom view's height in points (default: 30)", hint: .number),
        .value("--tint", "COLOR", "the item's tint, #RRGGBB[AA] (none: inherit the bar's)", hint: .color),
        .value("--action", "NAME", "the action delivered to 'navctl actions' watchers on activation"),
        .repeated(
          "--unset", "FIELD", "clear a field: \(unsettableFields.joined(separator: ", "))",
          hint: .choices(unsettableFields)),
      ],
      example: "item compose --system compose --action new-message",
      notes: [
        "Setting --title, --image or --custom-view on a system item turns it into a custom item. "
          + "Spaces for toolbars are system items too: 'navctl item flex --system flexibleSpace'."
      ],
      build: buildItem),
    CommandSpec(
      "delete-item", "Delete a bar button item and every reference to it", group: .barButtonItems,
      positionals: [PositionalSpec("ID", .required, "the bar button item", hint: .barButtonItem)],
      example: "delete-item compose",
      build: { args throws(UsageError) in .mutate(.fixed([.deleteBarButtonItem(try id(args, "ID"))])) }),
  ]

  @Sendable static func buildItem(_ args: ParsedArguments) throws(UsageError) -> Action {
    let explicit = args.positional("ID") == nil ? nil : try id(args, "ID")
    var fields: [BarButtonItemField] = []
    let system = try read(args, "--system") { text, option throws(UsageError) in
      try ValueReader.enumeration(text, option: option, SystemItem.self)
    }
    if let system { fields.append(.systemItem(system)) }
    if let title = args.value("--title") { fields.append(.title(title)) }
    if let image = args.value("--image") { fields.append(.image(ImageRef(name: image))) }
    switch (args.value("--custom-view"), try read(args, "--view-width", ValueReader.length)) {
    case (let name?, let width?):
      let height = try read(args, "--view-height", ValueReader.length) ?? 30
      fields.append(.customView(CustomView(name: name, width: width, height: height)))
    case (nil, nil): break
    case (_?, nil): throw args.error("--custom-view needs --view-width W")
    case (nil, _?): throw args.error("--view-width needs --custom-view NAME")
    }
    if system != nil, fields.count > 1 {
      throw args.error("--system cannot be combined with --title, --image or --custom-view")
    }
    switch (args.flag("--enabled"), args.flag("--disabled")) {
    case (true, true): throw args.error("give --enabled or --disabled, not both")
    case (true, false): fields.append(.enabled(true))
    case (false, true): fields.append(.enabled(false))
    case (false, false): break
    }
    if let tag = try read(
      args, "--tag",
      { text, option throws(UsageError) in
        try ValueReader.integer(
          text, option: option, minimum: -ValueReader.largestExactInteger, maximum: ValueReader.largestExactInteger)
      })
    {
      fields.append(.tag(tag))
    }
    if let style = try read(
      args, "--style",
      { text, option throws(UsageError) in
        try ValueReader.enumeration(text, option: option, ItemStyle.self)
      })
    {
      fields.append(.style(style))
    }
    if let width = try read(args, "--width", ValueReader.length) { fields.append(.width(width == 0 ? nil : width)) }
    if args.values["--possible-title"] != nil { fields.append(.possibleTitles(args.values["--possible-title"]!)) }
    if let tint = try read(args, "--tint", ValueReader.optionalColor) { fields.append(.tintColor(tint)) }
    if let action = args.value("--action") { fields.append(.action(action)) }
    var unset: [BarButtonItemField] = []
    for field in args.values["--unset"] ?? [] {
      let name: String
      do throws(UsageError) {
        name = try ValueReader.choice(field, option: "--unset", unsettableFields)
      } catch {
        throw args.error(error.message)
      }
      switch name {
      case "title": unset.append(.title(nil))
      case "image": unset.append(.image(nil))
      case "system": unset.append(.systemItem(nil))
      case "width": unset.append(.width(nil))
      case "tint": unset.append(.tintColor(nil))
      case "action": unset.append(.action(nil))
      case "custom-view": unset.append(.customView(nil))
      default: unset.append(.possibleTitles([]))
      }
    }
    let set = fields
    let cleared = unset
    let nameSource = args.value("--title") ?? args.value("--custom-view") ?? args.value("--image") ?? system?.rawValue
    if explicit == nil, nameSource == nil {
      throw args.error("give the item an ID, or a --title, --system, --image or --custom-view to make one from")
    }
    return .mutate(
      MutationPlan(needsState: true) { state in
        if let explicit, state.barButtonItems.contains(explicit) {
          let all = cleared + set
          return MutationBuild(ops: all.isEmpty ? [] : [.updateBarButtonItem(explicit, all)])
        }
        var generated: [String] = []
        let id =
          explicit
          ?? IdentifierSlug.unique(nameSource ?? "", taken: Set(state.barButtonItems.items.map(\.id)))
        if explicit == nil { generated.append(id) }
        var item = BarButtonItem(id: id)
        for field in set { item.apply(field) }
        return MutationBuild(ops: [.defineBarButtonItem(item)], generatedIds: generated)
      })
  }
}

extension BarButtonItem {
  /// Sets one field on a value being defined (no system-item conversion: the parser forbids mixing).
  mutating func apply(_ field: BarButtonItemField) {
    switch field {
    case .systemItem(let value): systemItem = value
    case .style(let value): style = value
    case .title(let value): title = value
    case .image(let value): image = value
    case .width(let value): width = value
    case .possibleTitles(let value): possibleTitles = value
    case .customView(let value): customView = value
    case .enabled(let value): enabled = value
    case .tag(let value): tag = value
    case .tintColor(let value): tintColor = value
    case .action(let value): action = value
    }
  }
}
