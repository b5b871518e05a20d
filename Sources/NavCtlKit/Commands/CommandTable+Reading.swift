import NavModel
import NavWire

extension CommandTable {
  /// get, layout, show, watch, scenes, info.
  static let readingCommands: [CommandSpec] = [
    CommandSpec(
      "get", "Print the scene's state: the stack, the items, the toolbar, the appearance", group: .reading,
      example: "get --json",
      build: { _ in
        .call(
          CallCommand(
            request: { scene, _ in NavRequest(GetStateCall(scene: scene)) },
            text: { reply, _, _ in
              let reply = try StateReply(parameters: reply)
              return StateText.describe(reply.state, version: Int(reply.version))
            }))
      }),
    CommandSpec(
      "layout", "Print the resolved layout: what a front end draws", group: .reading,
      options: [
        .value("--width", "POINTS", "resolve at this bar width: items that do not fit overflow", hint: .number)
      ],
      example: "layout --width 375",
      build: { args throws(UsageError) in
        let width = try read(args, "--width", ValueReader.length)
        return .call(
          CallCommand(
            request: { scene, _ in NavRequest(GetLayoutCall(scene: scene, metrics: LayoutMetrics(width: width))) },
            text: { reply, _, _ in
              let reply = try LayoutReply(parameters: reply)
              return LayoutText.describe(try reply.decodedLayout(), version: Int(reply.version))
            }))
      }),
    CommandSpec(
      "show", "Draw the navigation bar and the toolbar in the terminal", group: .reading,
      options: [
        .value(
          "--width", "COLUMNS", "draw this many columns wide (default: the terminal's width, else 80)",
          hint: .number)
      ],
      example: "show --width 60",
      notes: [
        "One column is 8 points: a drawing COLUMNS wide shows bars (COLUMNS - 2) * 8 points wide. "
          + "Box drawing and colour on a terminal; plain ASCII without colour when output is not a terminal, "
          + "NO_COLOR is set, or with --ascii / --no-color."
      ],
      build: { args throws(UsageError) in
        let columns = try columns(args)
        return .call(
          CallCommand(
            request: { scene, terminalColumns in
              let width = BarRenderer.layoutWidth(forColumns: columns ?? terminalColumns)
              return NavRequest(GetLayoutCall(scene: scene, metrics: LayoutMetrics(width: width)))
            },
            text: { reply, style, terminalColumns in
              BarRenderer.render(
                layout: try LayoutReply(parameters: reply).decodedLayout(), width: columns ?? terminalColumns,
                style: style)
            }))
      }),
    CommandSpec(
      "watch", "Keep 'show' live: redraw on every change (with --json: one JSON line per update)",
      group: .reading,
      options: [
        .value("--width", "COLUMNS", "as for show", hint: .number),
        .flag("--wait", "if the scene does not exist yet, draw it empty and follow it once it is created"),
      ] + followOptions,
      example: "watch",
      synopsis: "[--width COLUMNS] [--wait] [--no-follow | --follow-timeout SECONDS] [--json]",
      notes: [
        "With --json every update is printed as it arrives, one JSON object per line (like 'swaymsg -t subscribe -m'). Stop with Ctrl-C.",
        "Without --wait, a scene that does not exist is an error (exit 1), so a mistyped --scene fails at once; "
          + "with --wait, watch starts before the program that creates the scene (PROTOCOL.md §9.21).",
        followNote,
      ],
      build: { args throws(UsageError) in
        .watch(columns: try columns(args), waitForScene: args.flag("--wait"), follow: try follow(args))
      }),
    CommandSpec(
      "scenes", "List the scenes navd holds, with their versions and subscribers", group: .reading,
      example: "scenes",
      build: { _ in
        .call(
          CallCommand(
            request: { _, _ in NavRequest(ListScenesCall()) }, text: { reply, _, _ in ReplyPresenter.scenes(reply) }))
      }),
    CommandSpec(
      "info", "Print facts about the running navd", group: .reading,
      example: "info",
      build: { _ in
        .call(
          CallCommand(
            request: { _, _ in NavRequest(GetServerInfoCall()) },
            text: { reply, _, _ in try ReplyPresenter.serverInfo(reply) }))
      }),
  ]

  /// `--width COLUMNS` of show and watch: at least 10.
  static func columns(_ args: ParsedArguments) throws(UsageError) -> Int? {
    try read(args, "--width") { text, option throws(UsageError) in
      let columns = try ValueReader.integer(text, option: option, minimum: 10)
      guard columns <= 1250 else { throw UsageError("\(option) needs at most 1250 columns, got \(columns)") }
      return columns
    }
  }

  /// `--follow`, `--no-follow` and `--follow-timeout` of watch and actions.
  static let followOptions: [OptionSpec] = [
    .flag("--follow", "when navd stops or restarts, reconnect and carry on (the default)"),
    .flag("--no-follow", "when navd stops or restarts, exit 8"),
    .value(
      "--follow-timeout", "SECONDS",
      "give up (exit 8) when navd stays unreachable this long, above 0 and at most 86400 (default: 60)",
      hint: .number),
  ]

  static let followNote =
    "When navd stops or restarts (io.navd.ServerStopping, end of file, a lost connection), the command "
    + "reconnects with backoff and resumes where it was (Subscribe with sinceVersion and epoch: a snapshot if "
    + "navd's history changed). navd is gone for good when it cannot be reached for --follow-timeout seconds: "
    + "exit 8. With --no-follow, exit 8 at once. A navd that cannot be reached when the command starts is "
    + "exit 3, as for every command."

  /// The follow policy of watch and actions.
  static func follow(_ args: ParsedArguments) throws(UsageError) -> Follow {
    if args.flag("--follow"), args.flag("--no-follow") { throw args.error("give --follow or --no-follow, not both") }
    let timeout = try read(args, "--follow-timeout") { text, option throws(UsageError) in
      let seconds = try ValueReader.number(text, option: option)
      guard seconds > 0, seconds <= ValueReader.longestTimeout else {
        throw UsageError("\(option) needs a number of seconds above 0 and at most 86400, got \"\(text)\"")
      }
      return seconds
    }
    if timeout != nil, args.flag("--no-follow") { throw args.error("--follow-timeout needs --follow, not --no-follow") }
    return Follow(enabled: !args.flag("--no-follow"), timeout: timeout ?? Follow.defaultTimeout)
  }

  /// The back button's id in `Activate` (PROTOCOL §3).
  static let backButton = "@back"

  /// activate, back, actions.
  static let actionCommands: [CommandSpec] = [
    CommandSpec(
      "activate", "Press a shown, enabled bar button item: its action goes to every 'actions' watcher",
      group: .actions,
      positionals: [
        PositionalSpec("ID", .required, "the bar button item, or @back for the back button", hint: .barButtonItem)
      ],
      options: [
        .value(
          "--width", "POINTS", "the bar width the item was seen at (overflowed items cannot be pressed)",
          hint: .number),
        .value(
          "--expect", "ID", "with @back: press it only if ID is the top item (else exit 4)", hint: .navigationItem),
      ],
      example: "activate compose",
      notes: ["'activate @back' presses the back button, as 'navctl back' does: navd pops the top item."],
      build: { args throws(UsageError) in
        let item = args.positional("ID") == backButton ? backButton : try id(args, "ID")
        return try activation(of: item, args)
      }),
    CommandSpec(
      "back", "Press the back button: pop the top item as a front end's back button does", group: .actions,
      options: [
        .value("--width", "POINTS", "the bar width the back button was seen at", hint: .number),
        .value("--expect", "ID", "press it only if ID is the top item (else exit 4)", hint: .navigationItem),
      ],
      example: "back --expect message",
      notes: [
        "The same as 'navctl activate @back'. Unlike 'pop', it is refused when the back button is not shown "
          + "(the root item, or hidesBackButton)."
      ],
      build: { args throws(UsageError) in try activation(of: backButton, args) }),
    CommandSpec(
      "actions", "Print every activation in the scene as it happens (text or --json)", group: .actions,
      options: followOptions,
      example: "actions --json",
      synopsis: "[--no-follow | --follow-timeout SECONDS] [--json]",
      notes: [followNote],
      build: { args throws(UsageError) in .watchActions(follow: try follow(args)) }),
  ]

  /// `Activate` of `item` with the `--width` and `--expect` of activate and back.
  static func activation(of item: String, _ args: ParsedArguments) throws(UsageError) -> Action {
    let width = try read(args, "--width", ValueReader.length)
    let expect = try read(args, "--expect", ValueReader.identifier)
    if expect != nil, item != backButton { throw args.error("--expect applies to @back only") }
    return .call(
      CallCommand(
        request: { scene, _ in
          NavRequest(ActivateCall(scene: scene, item: item, metrics: LayoutMetrics(width: width), expectTop: expect))
        },
        text: { reply, _, _ in try ReplyPresenter.activated(item, reply: reply) }))
  }

  /// apply, completion, help, and the hidden helper for completion.
  static let otherCommands: [CommandSpec] = [
    CommandSpec(
      "apply", "Apply a batch of ops from a JSON file atomically: all of them or none", group: .other,
      positionals: [
        PositionalSpec("FILE", .required, "a JSON array of ops, or {\"ops\": [...]}; - for stdin", hint: .file)
      ],
      example: "apply ops.json",
      notes: [
        "Ops are the wire form of Protocol/io.navd.varlink, e.g. [{\"op\": \"push\", \"item\": {\"id\": \"inbox\", \"title\": \"Inbox\"}}]."
      ],
      build: { args in
        let file = args.positional("FILE") ?? "-"
        return .apply(file == "-" ? .standardInput : .file(file))
      }),
    CommandSpec(
      "completion", "Print a shell completion script", group: .other,
      positionals: [PositionalSpec("SHELL", .required, "the shell", hint: .choices(Shell.allCases.map(\.rawValue)))],
      example: "completion bash",
      notes: [
        "bash: source <(navctl completion bash). zsh: navctl completion zsh > \"${fpath[1]}/_navctl\". "
          + "fish: navctl completion fish > ~/.config/fish/completions/navctl.fish."
      ],
      build: { args in .completion(Shell(rawValue: args.positional("SHELL") ?? "")!) }),
    CommandSpec(
      "help", "Show help for navctl or for one command", group: .other,
      positionals: [PositionalSpec("COMMAND", .zeroOrMore, "a command, e.g. push or left set", hint: .command)],
      example: "help push",
      build: { args throws(UsageError) in
        let words = args.positionalList("COMMAND")
        if words.isEmpty { return .help(HelpFormatter.overview) }
        let name = words.joined(separator: " ")
        if let spec = spec(named: name) { return .help(HelpFormatter.help(for: spec)) }
        if words.count == 1, !subcommands(of: name).isEmpty { return .help(HelpFormatter.help(forGroup: name)) }
        var message = "no command \"\(name)\""
        let names = visible.map(\.name)
        if let close = EditDistance.closest(to: name, in: names) { message += "; did you mean \"\(close)\"?" }
        throw args.error(message)
      }),
    CommandSpec(
      "__ids", "Print ids from the scene's state, one per line (for completion scripts)", group: .other,
      positionals: [
        PositionalSpec("KIND", .required, "navigation or bar", hint: .choices(IdKind.allCases.map(\.rawValue)))
      ],
      example: "__ids bar", hidden: true,
      build: { args in .listIds(IdKind(rawValue: args.positional("KIND") ?? "")!) }),
    CommandSpec(
      "__complete", "Print the names navd knows of one kind, one per line (for completion scripts)", group: .other,
      positionals: [PositionalSpec("KIND", .required, "scenes", hint: .choices(["scenes"]))],
      example: "__complete scenes", hidden: true,
      build: { _ in
        .call(
          CallCommand(
            request: { _, _ in NavRequest(ListScenesCall()) },
            text: { reply, _, _ in ReplyPresenter.sceneNames(reply) }))
      }),
  ]
}
