/// `--help` text, generated from `CommandTable` and `GlobalOptions`.
public enum HelpFormatter {
  /// Lines wrap at this width.
  static let lineWidth = 80

  /// The exit statuses, as `--help` and the man page state them.
  public static let exitStatuses: [(code: ExitCode, meaning: String)] = [
    (.success, "success"),
    (
      .refused,
      "navd refused the request: a rule or a value it rejects (its error name and message are printed on "
        + "stderr), or a request beyond navd's 1 MiB frame limit (not sent); or navctl refused it before sending "
        + "anything: an import document it cannot take (not JSON, not an export, a state that breaks a rule; the "
        + "field and rule are named), an offline import while navd holds navd.lock, a state directory that is "
        + "missing or unsafe"
    ),
    (.usage, "usage error: unknown command or option, missing or malformed argument; nothing was sent"),
    (
      .unreachable,
      "cannot reach navd: no socket, nothing accepting on it, or the socket's permissions refuse you (the socket "
        + "tried is printed; for permissions with its owner, group and mode, and what to do)"
    ),
    (.conflict, "conflict: --expect or --if-version did not match what navd holds"),
    (.notFound, "not found: the scene or item named does not exist (io.navd.SceneNotFound, ItemNotFound)"),
    (.permissionDenied, "permission denied: navd's access policy does not grant you the right"),
    (.timedOut, "timeout: navd did not answer within --timeout (it is running, but busy or stuck)"),
    (
      .gone,
      "navd went away: the connection closed before the reply, or watch/actions could not reconnect within "
        + "--follow-timeout (with --no-follow: as soon as navd stopped)"
    ),
  ]

  /// Environment variables navctl reads.
  public static let environment: [(name: String, meaning: String)] = [
    ("NAVD_SOCKET", "the socket to use when --socket is not given"),
    ("NO_COLOR", "when set and not empty, never use colour"),
    ("COLORTERM", "truecolor or 24bit: draw with 24-bit colour"),
    ("TERM", "a name ending in -256color: draw with the 256-colour palette; dumb: no colour; else 16 colours"),
    ("NAVCTL_MUTATION_ID", "the mutation id when --mutation-id is not given (for idempotent retries)"),
  ]

  /// The walkthrough in `navctl --help` and the man page: the bar of a mail app.
  public static let walkthrough: [(command: String, comment: String?)] = [
    ("item edit --system edit", "define the bar button items"),
    ("item compose --system compose --action new-message", nil),
    ("push Inbox --id inbox --left edit --right compose", "the first screen"),
    ("item refresh --system refresh", nil),
    ("item flex --system flexibleSpace", nil),
    ("item trash --system trash", nil),
    ("toolbar set refresh flex trash", "Refresh on the left, Trash on the right"),
    ("push 'Lunch on Friday?' --id message", "open a message"),
    ("show", "the back button says \"Inbox\""),
    ("watch", "in a second terminal: redraws on every change"),
    ("pop", "back to the inbox"),
  ]

  /// `navctl --help`.
  public static var overview: String {
    var out = "navctl - drive and watch navd, the navigation bar and toolbar service\n\n"
    out += "Usage: navctl [OPTIONS] COMMAND [ARGS]...\n"
    func label(_ spec: CommandSpec) -> String { ([spec.name] + spec.positionals.map(\.usage)).joined(separator: " ") }
    let column = min(CommandTable.visible.map { label($0).count }.max() ?? 0, 24) + 4
    for group in CommandGroup.allCases {
      let specs = CommandTable.visible.filter { $0.group == group }
      guard !specs.isEmpty else { continue }
      out += "\n\(group.rawValue):\n"
      out += table(specs.map(label), specs.map(\.summary), column: column)
    }
    out += "\nGlobal options (before or after the command):\n"
    out += table(GlobalOptions.specs.map(optionLabel), GlobalOptions.specs.map(\.help))
    out += "\nEnvironment:\n" + table(environment.map(\.name), environment.map(\.meaning))
    out += "\nExit status:\n" + table(exitStatuses.map { "\($0.code.rawValue)" }, exitStatuses.map(\.meaning))
    out += "\nExample: the bar of a mail app\n"
    out += walkthroughText
    out += "\nItems are named by id; ids made up by navctl (push without --id) are printed.\n"
    out += "Run 'navctl COMMAND --help' for a command's options and an example.\n"
    return out
  }

  /// The walkthrough as shell lines.
  static var walkthroughText: String {
    let lines = walkthrough.map { "navctl \($0.command)" }
    let column = (zip(lines, walkthrough).filter { $0.1.comment != nil }.map(\.0.count).max() ?? 0) + 2
    var out = ""
    for (line, step) in zip(lines, walkthrough) {
      if let comment = step.comment {
        out += "  " + line + String(repeating: " ", count: max(1, column - line.count)) + "# \(comment)\n"
      } else {
        out += "  \(line)\n"
      }
    }
    return out
  }

  /// `navctl COMMAND --help`.
  public static func help(for spec: CommandSpec) -> String {
    var out = wrap("navctl \(spec.name) - \(spec.summary)", indent: 0) + "\n"
    out += wrapSynopsis("Usage: \(spec.usage)")
    if !spec.positionals.isEmpty {
      out += "\nArguments:\n" + table(spec.positionals.map(\.name), spec.positionals.map(\.help))
    }
    if !spec.options.isEmpty {
      out += "\nOptions:\n" + table(spec.options.map(optionLabel), spec.options.map(\.help))
    }
    for note in spec.notes { out += "\n" + wrap(note, indent: 0) }
    out += "\nExample:\n  navctl \(spec.example)\n"
    out +=
      "\n"
      + wrap(
        "Global options (--socket, --scene, --json, --if-version, --timeout, --ascii, --no-color, --labels, "
          + "--mutation-id) work with every command; see 'navctl --help'.",
        indent: 0)
    out += wrap(
      "Exit status: " + exitStatuses.map { "\($0.code.rawValue) \(shortMeaning($0.code))" }.joined(separator: ", ")
        + ".",
      indent: 0)
    return out
  }

  /// A usage line wrapped at `lineWidth` between its words, never inside `[...]` or `(...)`;
  /// continuation lines are indented under the command.
  static func wrapSynopsis(_ line: String) -> String {
    var words: [String] = []
    var depth = 0
    var current = ""
    for character in line {
      if character == " ", depth == 0 {
        words.append(current)
        current = ""
        continue
      }
      if character == "[" || character == "(" { depth += 1 }
      if character == "]" || character == ")" { depth = max(0, depth - 1) }
      current.append(character)
    }
    words.append(current)
    let indent = String(repeating: " ", count: min(line.count, 7 + "navctl [OPTIONS] ".count))
    var out = ""
    var row = ""
    for word in words {
      if row.isEmpty {
        row = word
      } else if row.count + 1 + word.count <= lineWidth {
        row += " " + word
      } else {
        out += row + "\n"
        row = indent + word
      }
    }
    return out + row + "\n"
  }

  /// `navctl left --help`: the subcommands of one word.
  public static func help(forGroup head: String) -> String {
    let specs = CommandTable.visible.filter { $0.name.hasPrefix(head + " ") }
    var out = "navctl \(head) - \(specs.count) commands\n\n"
    out += table(specs.map(\.synopsis), specs.map(\.summary))
    out += "\nRun 'navctl \(head) SUBCOMMAND --help' for details.\n"
    return out
  }

  static func shortMeaning(_ code: ExitCode) -> String {
    switch code {
    case .success: "success"
    case .refused: "navd refused"
    case .usage: "usage error"
    case .unreachable: "cannot reach navd"
    case .conflict: "conflict"
    case .notFound: "not found"
    case .permissionDenied: "permission denied"
    case .timedOut: "timeout"
    case .gone: "navd went away"
    }
  }

  /// `--id ID`, `-h, --help`.
  static func optionLabel(_ option: OptionSpec) -> String {
    let name = option.shortName.map { "\($0), \(option.name)" } ?? option.name
    return option.kind == .flag ? name : "\(name) \(option.valueName)"
  }

  /// Two aligned columns; a label too long for the column puts its text on the next line.
  static func table(_ labels: [String], _ texts: [String], column fixed: Int? = nil) -> String {
    let column = fixed ?? min(labels.map(\.count).max() ?? 0, 28) + 4
    var out = ""
    for (label, text) in zip(labels, texts) {
      let wrapped = wrapLines(text, width: lineWidth - column)
      if label.count + 4 > column {
        out += "  \(label)\n"
        for line in wrapped { out += String(repeating: " ", count: column) + line + "\n" }
      } else {
        for (i, line) in wrapped.enumerated() {
          let lead =
            i == 0
            ? "  " + label + String(repeating: " ", count: column - 2 - label.count)
            : String(repeating: " ", count: column)
          out += lead + line + "\n"
        }
      }
    }
    return out
  }

  /// A paragraph wrapped at `lineWidth`, each line indented.
  static func wrap(_ text: String, indent: Int) -> String {
    wrapLines(text, width: lineWidth - indent).map { String(repeating: " ", count: indent) + $0 + "\n" }.joined()
  }

  /// Splits `text` into lines of at most `width` characters at spaces (a longer word gets its own line).
  static func wrapLines(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      if line.isEmpty {
        line = String(word)
      } else if line.count + 1 + word.count <= width {
        line += " " + word
      } else {
        lines.append(line)
        line = String(word)
      }
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
  }
}
