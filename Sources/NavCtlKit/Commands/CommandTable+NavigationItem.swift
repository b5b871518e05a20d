import NavModel

extension CommandTable {
  /// title, prompt, title-view, back-button, hide-back, show-back, supplement-back.
  static let navigationItemCommands: [CommandSpec] = [
    CommandSpec(
      "title", "Set or clear a navigation item's title", group: .navigationItem,
      positionals: [PositionalSpec("TEXT", .optional, "the new title")],
      options: [clear, itemOption, animated],
      example: "title 'Inbox (3)'",
      synopsis: "(TEXT | --clear) [--item ID] [--animated]",
      build: { args throws(UsageError) in
        let text = try valueOrClear(args, "TEXT")
        let animated = args.flag("--animated")
        return try onItem(args) { [.updateNavigationItem($0, [.title(text)], animated: animated)] }
      }),
    CommandSpec(
      "prompt", "Set or clear the line of text shown above the bar", group: .navigationItem,
      positionals: [PositionalSpec("TEXT", .optional, "the prompt (one line)")],
      options: [clear, itemOption, animated],
      example: "prompt 'Choose a mailbox'",
      synopsis: "(TEXT | --clear) [--item ID] [--animated]",
      build: { args throws(UsageError) in
        let text = try valueOrClear(args, "TEXT")
        let animated = args.flag("--animated")
        return try onItem(args) { [.updateNavigationItem($0, [.prompt(text)], animated: animated)] }
      }),
    CommandSpec(
      "title-view", "Show a custom view in the centre instead of the title", group: .navigationItem,
      positionals: [PositionalSpec("NAME", .optional, "the view's name (the front end knows what to draw)")],
      options: [
        .value("--width", "W", "the view's width in points (required with NAME)", hint: .number),
        .value("--height", "H", "the view's height in points (default: 30)", hint: .number),
        clear, itemOption, animated,
      ],
      example: "title-view segmented-control --width 180",
      synopsis: "(NAME --width W [--height H] | --clear) [--item ID] [--animated]",
      notes: ["A title view is not shown while the item has left bar button items (the title is shown instead)."],
      build: { args throws(UsageError) in
        let name = try valueOrClear(args, "NAME")
        let width = try read(args, "--width", ValueReader.length)
        let height = try read(args, "--height", ValueReader.length)
        var view: CustomView?
        if let name {
          guard let width else { throw args.error("title-view NAME needs --width W") }
          view = CustomView(name: name, width: width, height: height ?? 30)
        } else if width != nil || height != nil {
          throw args.error("--clear takes no --width or --height")
        }
        let animated = args.flag("--animated")
        let value = view
        return try onItem(args) { [.updateNavigationItem($0, [.titleView(value)], animated: animated)] }
      }),
    CommandSpec(
      "back-button", "Choose the bar button item shown as the back button above a navigation item",
      group: .navigationItem,
      positionals: [
        PositionalSpec("ID", .optional, "a bar button item (its title or image is used)", hint: .barButtonItem)
      ],
      options: [clear, itemOption, animated],
      example: "back-button mail-back --item inbox",
      synopsis: "(ID | --clear) [--item ID] [--animated]",
      notes: [
        "The back button shown on screen comes from the item just below the top: to change it, pass that item with --item. Without a back button item the back item's title is used, else \"Back\"."
      ],
      build: { args throws(UsageError) in
        let value = try valueOrClear(args, "ID")
        if let value { _ = try id(args, "ID") }
        let animated = args.flag("--animated")
        return try onItem(args) { [.updateNavigationItem($0, [.backBarButtonItem(value)], animated: animated)] }
      }),
    CommandSpec(
      "hide-back", "Hide the back button", group: .navigationItem,
      options: [itemOption, animated],
      example: "hide-back",
      build: { args throws(UsageError) in
        let animated = args.flag("--animated")
        return try onItem(args) { [.updateNavigationItem($0, [.hidesBackButton(true)], animated: animated)] }
      }),
    CommandSpec(
      "show-back", "Show the back button again (when there is a screen to go back to)", group: .navigationItem,
      options: [itemOption, animated],
      example: "show-back",
      build: { args throws(UsageError) in
        let animated = args.flag("--animated")
        return try onItem(args) { [.updateNavigationItem($0, [.hidesBackButton(false)], animated: animated)] }
      }),
    CommandSpec(
      "supplement-back", "Show left items beside the back button (on) or in its place (off)",
      group: .navigationItem,
      positionals: [
        PositionalSpec("on|off", .required, "on: back button, then left items", hint: .choices(["on", "off"]))
      ],
      options: [itemOption, animated],
      example: "supplement-back on",
      build: { args throws(UsageError) in
        let on = args.positional("on|off") == "on"
        let animated = args.flag("--animated")
        return try onItem(args) {
          [.updateNavigationItem($0, [.leftItemsSupplementBackButton(on)], animated: animated)]
        }
      }),
  ]
}
