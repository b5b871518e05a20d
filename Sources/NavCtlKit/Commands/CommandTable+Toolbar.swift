import NavModel

extension CommandTable {
  /// toolbar set, add, remove, move, clear, hide, show.
  static let toolbarCommands: [CommandSpec] = {
    let item = PositionalSpec("ID", .required, "a bar button item", hint: .barButtonItem)
    let before = OptionSpec.value(
      "--before", "ID", "insert before this item (default: at the end)", hint: .barButtonItem)
    return [
      CommandSpec(
        "toolbar set", "Replace the toolbar's items, left to right", group: .toolbar,
        positionals: [
          PositionalSpec("ID", .oneOrMore, "bar button items, left to right (spaces included)", hint: .barButtonItem)
        ],
        options: [animated],
        example: "toolbar set refresh flex trash",
        notes: ["Flexible spaces share the free width; fixed spaces take their --width."],
        build: { args throws(UsageError) in
          .mutate(.fixed([.setToolbarItems(try ids(args, "ID"), animated: args.flag("--animated"))]))
        }),
      CommandSpec(
        "toolbar add", "Add an item to the toolbar", group: .toolbar,
        positionals: [item], options: [before],
        example: "toolbar add reply --before flex",
        build: { args throws(UsageError) in
          .mutate(
            .fixed([.insertToolbarItem(try id(args, "ID"), before: try read(args, "--before", ValueReader.identifier))])
          )
        }),
      CommandSpec(
        "toolbar remove", "Remove an item from the toolbar (the item itself stays defined)", group: .toolbar,
        positionals: [item],
        example: "toolbar remove trash",
        build: { args throws(UsageError) in .mutate(.fixed([.removeToolbarItem(try id(args, "ID"))])) }),
      CommandSpec(
        "toolbar move", "Move a toolbar item before another (or to the end)", group: .toolbar,
        positionals: [item], options: [before],
        example: "toolbar move trash --before refresh",
        build: { args throws(UsageError) in
          .mutate(
            .fixed([.moveToolbarItem(try id(args, "ID"), before: try read(args, "--before", ValueReader.identifier))]))
        }),
      CommandSpec(
        "toolbar clear", "Remove every toolbar item", group: .toolbar,
        options: [animated],
        example: "toolbar clear",
        build: { args throws(UsageError) in .mutate(.fixed([.setToolbarItems([], animated: args.flag("--animated"))])) }
      ),
      CommandSpec(
        "toolbar hide", "Hide the toolbar", group: .toolbar,
        options: [animated],
        example: "toolbar hide --animated",
        build: { args throws(UsageError) in
          .mutate(.fixed([.setBarHidden(.toolbar, hidden: true, animated: args.flag("--animated"))]))
        }),
      CommandSpec(
        "toolbar show", "Show the toolbar", group: .toolbar,
        options: [animated],
        example: "toolbar show",
        build: { args throws(UsageError) in
          .mutate(.fixed([.setBarHidden(.toolbar, hidden: false, animated: args.flag("--animated"))]))
        }),
    ]
  }()
}
