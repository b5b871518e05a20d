/// One row of the command table: a command's name, what it does, what it takes, an
/// example, and the builder that turns parsed words into what navctl should do.
public struct CommandSpec: Sendable {
  /// The command's words: `push`, or `left set` for a command with a subcommand.
  public var name: String
  /// One line: what the command does.
  public var summary: String
  /// Where `navctl --help` lists it.
  public var group: CommandGroup
  /// Positional arguments, in order; only the last may be variadic.
  public var positionals: [PositionalSpec]
  /// The command's own options (global options are separate and apply everywhere).
  public var options: [OptionSpec]
  /// A complete, working example (without the leading `navctl`).
  public var example: String
  /// Replaces the generated synopsis when the words need explaining (`title (TEXT | --clear)`).
  public var synopsisOverride: String?
  /// Further paragraphs for `--help` and the man page.
  public var notes: [String]
  /// Kept out of `--help` and the man page (internal helpers for completion).
  public var hidden: Bool
  /// Turns the parsed arguments into the action; throws for combinations the spec cannot express.
  public var build: @Sendable (ParsedArguments) throws(UsageError) -> Action

  /// A command.
  public init(
    _ name: String, _ summary: String, group: CommandGroup, positionals: [PositionalSpec] = [],
    options: [OptionSpec] = [], example: String, synopsis: String? = nil, notes: [String] = [], hidden: Bool = false,
    build: @escaping @Sendable (ParsedArguments) throws(UsageError) -> Action
  ) {
    self.name = name
    self.summary = summary
    self.group = group
    self.positionals = positionals
    self.options = options
    self.example = example
    self.synopsisOverride = synopsis
    self.notes = notes
    self.hidden = hidden
    self.build = build
  }

  /// The words after `navctl`: `push TITLE [--id ID] ...`.
  public var synopsis: String {
    if let synopsisOverride { return "\(name) \(synopsisOverride)" }
    return ([name] + positionals.map(\.usage) + options.map(\.usage)).joined(separator: " ")
  }

  /// The whole usage line: `navctl [OPTIONS] push TITLE ...`.
  public var usage: String { "navctl [OPTIONS] \(synopsis)" }

  /// The option named `name` (long or short), if the command has it.
  public func option(named name: String) -> OptionSpec? {
    options.first { $0.name == name || $0.shortName == name }
  }
}

/// Headings of `navctl --help`, in order.
public enum CommandGroup: String, Sendable, Hashable, CaseIterable {
  case stack = "The stack"
  case navigationItem = "The top item (or --item ID)"
  case barButtonItems = "Bar button items"
  case toolbar = "Toolbar"
  case appearance = "Appearance"
  case reading = "Reading and watching"
  case actions = "Actions"
  case scenes = "Scenes"
  case state = "Saved state (navd's database, read directly)"
  case other = "Other"
}
