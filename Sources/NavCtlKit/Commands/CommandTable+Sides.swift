import NavModel

extension CommandTable {
  /// `left …` or `right …`: set, add, remove, move, clear, first.
  static func sideCommands(_ side: BarSide) -> [CommandSpec] {
    let name = side.rawValue
    let order =
      side == .left
      ? "left to right" : "in array order: the first is the rightmost, each next one to its left"
    let before = OptionSpec.value(
      "--before", "ID", "insert before this item (default: at the end)", hint: .barButtonItem)
    let item = PositionalSpec("ID", .required, "a bar button item", hint: .barButtonItem)
    let sample = side == .left ? "edit" : "compose"
    return [
      CommandSpec(
        "\(name) set", "Replace the \(name) bar button items of a navigation item", group: .barButtonItems,
        positionals: [PositionalSpec("ID", .oneOrMore, "bar button items, \(order)", hint: .barButtonItem)],
        options: [itemOption, animated],
        example: side == .left ? "left set edit" : "right set compose search",
        build: { args throws(UsageError) in
          let list = try ids(args, "ID")
          let animated = args.flag("--animated")
          return try onItem(args) {
            [.setBarButtonItems(navigationItem: $0, side: side, items: list, animated: animated)]
          }
        }),
      CommandSpec(
        "\(name) add", "Add a bar button item to the \(name) side", group: .barButtonItems,
        positionals: [item], options: [before, itemOption],
        example: "\(name) add \(sample)",
        build: { args throws(UsageError) in
          let added = try id(args, "ID")
          let anchor = try read(args, "--before", ValueReader.identifier)
          return try onItem(args) {
            [.insertBarButtonItem(navigationItem: $0, side: side, item: added, before: anchor)]
          }
        }),
      CommandSpec(
        "\(name) remove", "Remove a bar button item from the \(name) side (the item itself stays defined)",
        group: .barButtonItems,
        positionals: [item], options: [itemOption],
        example: "\(name) remove \(sample)",
        build: { args throws(UsageError) in
          let removed = try id(args, "ID")
          return try onItem(args) { [.removeBarButtonItem(navigationItem: $0, side: side, item: removed)] }
        }),
      CommandSpec(
        "\(name) move", "Move a \(name) bar button item before another (or to the end)", group: .barButtonItems,
        positionals: [item], options: [before, itemOption],
        example: "\(name) move \(sample) --before search",
        build: { args throws(UsageError) in
          let moved = try id(args, "ID")
          let anchor = try read(args, "--before", ValueReader.identifier)
          return try onItem(args) {
            [.moveBarButtonItem(navigationItem: $0, side: side, item: moved, before: anchor)]
          }
        }),
      CommandSpec(
        "\(name) clear", "Remove every \(name) bar button item", group: .barButtonItems,
        options: [itemOption, animated],
        example: "\(name) clear",
        build: { args throws(UsageError) in
          let animated = args.flag("--animated")
          return try onItem(args) {
            [.setBarButtonItems(navigationItem: $0, side: side, items: [], animated: animated)]
          }
        }),
      CommandSpec(
        "\(name) first", "Set the \(name)BarButtonItem: replace the first \(name) item (no ID: remove it)",
        group: .barButtonItems,
        positionals: [PositionalSpec("ID", .optional, "a bar button item", hint: .barButtonItem)],
        options: [itemOption, animated],
        example: "\(name) first \(sample)",
        notes: ["An item already on this side moves to the front instead; the others keep their order."],
        build: { args throws(UsageError) in
          let first = args.positional("ID") == nil ? nil : try id(args, "ID")
          let animated = args.flag("--animated")
          return try onItem(args) {
            [.setBarButtonItem(navigationItem: $0, side: side, item: first, animated: animated)]
          }
        }),
    ]
  }
}
