import NavModel

extension CommandTable {
  /// push, pop, pop-to, set-stack.
  static let stackCommands: [CommandSpec] = [
    CommandSpec(
      "push", "Push a new screen (navigation item) on top of the stack", group: .stack,
      positionals: [PositionalSpec("TITLE", .required, "the new item's title")],
      options: [
        .value("--id", "ID", "the new item's id (default: made from TITLE and printed)"),
        .repeated("--left", "ID", "a left bar button item, left to right (repeat, or a,b)", hint: .barButtonItem),
        .repeated("--right", "ID", "a right bar button item; the first is the rightmost", hint: .barButtonItem),
        .value(
          "--back-button", "ID", "bar button item shown as the back button once a screen is pushed above this one",
          hint: .barButtonItem),
        .value("--prompt", "TEXT", "one line of text shown above the bar"),
        .value("--title-view", "NAME", "a custom title view shown instead of the title (needs --title-view-width)"),
        .value("--title-view-width", "W", "the title view's width in points", hint: .number),
        .flag("--hide-back", "hide the back button"),
        .flag("--supplement-back", "show left items after the back button instead of in its place"),
        animated,
      ],
      example: "push Inbox --id inbox --left edit --right compose",
      notes: [
        "Bar button items named by --left, --right and --back-button must exist: define them first with 'navctl item'."
      ],
      build: { args throws(UsageError) in
        let explicit = try read(args, "--id", ValueReader.identifier)
        var item = NavigationItem(id: explicit ?? "", title: args.positional("TITLE"))
        item.leftBarButtonItems = try ids(option: "--left", args)
        item.rightBarButtonItems = try ids(option: "--right", args)
        item.backBarButtonItem = try read(args, "--back-button", ValueReader.identifier)
        item.prompt = args.value("--prompt")
        item.hidesBackButton = args.flag("--hide-back")
        item.leftItemsSupplementBackButton = args.flag("--supplement-back")
        switch (args.value("--title-view"), try read(args, "--title-view-width", ValueReader.length)) {
        case (let name?, let width?): item.titleView = CustomView(name: name, width: width)
        case (nil, nil): break
        case (_?, nil): throw args.error("--title-view needs --title-view-width W")
        case (nil, _?): throw args.error("--title-view-width needs --title-view NAME")
        }
        let animated = args.flag("--animated")
        let template = item
        return .mutate(
          MutationPlan(needsState: explicit == nil) { state in
            var item = template
            var generated: [String] = []
            if explicit == nil {
              item.id = IdentifierSlug.unique(
                item.title ?? "", taken: Set(state.navigationBar.items.map(\.id)), fallback: "screen")
              generated.append(item.id)
            }
            return MutationBuild(ops: [.push(item, animated: animated)], generatedIds: generated)
          })
      }),
    CommandSpec(
      "pop", "Pop the top screen off the stack (never the root)", group: .stack,
      options: [
        .value("--expect", "ID", "pop only if ID is the top item (else exit 4)", hint: .navigationItem),
        animated,
      ],
      example: "pop --expect message",
      build: { args throws(UsageError) in
        .mutate(
          .fixed([
            .pop(expectTop: try read(args, "--expect", ValueReader.identifier), animated: args.flag("--animated"))
          ]))
      }),
    CommandSpec(
      "pop-to", "Pop every screen above ID, so that ID is the top", group: .stack,
      positionals: [PositionalSpec("ID", .required, "the navigation item to return to", hint: .navigationItem)],
      options: [animated],
      example: "pop-to inbox",
      build: { args throws(UsageError) in
        .mutate(.fixed([.popTo(try id(args, "ID"), animated: args.flag("--animated"))]))
      }),
    CommandSpec(
      "set-stack", "Replace the whole stack, root first (no items: clear it)", group: .stack,
      positionals: [
        PositionalSpec(
          "ID[=TITLE]", .zeroOrMore, "an item; an id already on the stack keeps its fields unless =TITLE is given",
          hint: .navigationItem)
      ],
      options: [animated],
      example: "set-stack mailboxes=Mailboxes inbox=Inbox",
      build: { args throws(UsageError) in
        var entries: [(id: String, title: String?)] = []
        for word in args.positionalList("ID[=TITLE]") {
          let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
          let id: String
          do throws(UsageError) {
            id = try ValueReader.identifier(String(parts[0]), option: "ID")
          } catch {
            throw args.error(error.message)
          }
          if entries.contains(where: { $0.id == id }) { throw args.error("\(id) is listed twice") }
          entries.append((id, parts.count == 2 ? String(parts[1]) : nil))
        }
        let animated = args.flag("--animated")
        let list = entries
        return .mutate(
          MutationPlan(needsState: !list.isEmpty) { state in
            let items = list.map { entry in
              var item = state.navigationBar.items.first { $0.id == entry.id } ?? NavigationItem(id: entry.id)
              if let title = entry.title { item.title = title }
              return item
            }
            return MutationBuild(ops: [.setStack(items, animated: animated)])
          })
      }),
  ]
}
