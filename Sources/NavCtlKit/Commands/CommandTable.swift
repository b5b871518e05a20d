import NavModel

/// Every navctl command, in the order `navctl --help` lists them.
///
/// The parser, `--help`, the completion scripts and `man/navctl.1` are all
/// generated from this table. The rows live in `CommandTable+<Group>.swift`.
public enum CommandTable {
  /// All commands, hidden ones included.
  public static let all: [CommandSpec] =
    stackCommands + navigationItemCommands + barButtonItemCommands + sideCommands(.left) + sideCommands(.right)
    + toolbarCommands + appearanceCommands + readingCommands + statisticsCommands + actionCommands + sceneCommands
    + stateCommands
    + otherCommands

  static let byName: [String: CommandSpec] = Dictionary(
    all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

  /// The command with exactly this name (`push`, `left set`).
  public static func spec(named name: String) -> CommandSpec? { byName[name] }

  /// The commands users see (not hidden).
  public static var visible: [CommandSpec] { all.filter { !$0.hidden } }

  /// The second words of the commands whose first word is `head` (`left` → `set`, `add`, …).
  public static func subcommands(of head: String) -> [String] {
    all.compactMap { spec in
      let words = spec.name.split(separator: " ")
      return words.count == 2 && words[0] == head ? String(words[1]) : nil
    }
  }

  /// Every first word of a visible command, once, in table order.
  public static var commandWords: [String] {
    var seen: Set<String> = []
    return visible.compactMap { spec in
      let head = String(spec.name.split(separator: " ")[0])
      return seen.insert(head).inserted ? head : nil
    }
  }

  // MARK: Options shared by many commands

  static let animated = OptionSpec.flag("--animated", "animate the change (front ends decide how)")
  static let itemOption = OptionSpec.value(
    "--item", "ID", "the navigation item to change (default: the top item)", hint: .navigationItem)
  static let clear = OptionSpec.flag("--clear", "remove the value instead of setting it")

  /// The navigation item a command changes: `--item ID`, else the top item.
  static func target(_ explicit: String?, in state: SceneState) throws(NavError) -> String {
    if let explicit { return explicit }
    guard let top = state.navigationBar.topItem else {
      throw NavError(.itemNotFound, "the stack is empty: push an item first (navctl push TITLE)", field: "--item")
    }
    return top.id
  }

  /// A plan for ops on one navigation item (`--item`, or the top item read from the state).
  static func onItem(_ args: ParsedArguments, _ ops: @escaping @Sendable (String) -> [Op]) throws(UsageError)
    -> Action
  {
    let explicit = try args.value("--item").map { text throws(UsageError) in
      try ValueReader.identifier(text, option: "--item")
    }
    return .mutate(
      MutationPlan(needsState: explicit == nil) { state throws(NavError) in
        MutationBuild(ops: ops(try target(explicit, in: state)))
      })
  }

  /// Reads an option through `read`, attributing errors to the command.
  static func read<T>(_ args: ParsedArguments, _ name: String, _ read: (String, String) throws(UsageError) -> T)
    throws(UsageError) -> T?
  {
    guard let text = args.value(name) else { return nil }
    do throws(UsageError) {
      return try read(text, name)
    } catch {
      throw args.error(error.message)
    }
  }

  /// A required id positional.
  static func id(_ args: ParsedArguments, _ name: String) throws(UsageError) -> String {
    do throws(UsageError) {
      return try ValueReader.identifier(args.positional(name) ?? "", option: name)
    } catch {
      throw args.error(error.message)
    }
  }

  /// The ids of a variadic positional.
  static func ids(_ args: ParsedArguments, _ name: String) throws(UsageError) -> [String] {
    do throws(UsageError) {
      return try ValueReader.identifiers(
        args.positionalList(name).flatMap { $0.split(separator: ",").map(String.init) }, option: name)
    } catch {
      throw args.error(error.message)
    }
  }

  /// The ids of a repeated option (each value may list several, separated by commas).
  static func ids(option name: String, _ args: ParsedArguments) throws(UsageError) -> [String] {
    do throws(UsageError) {
      return try ValueReader.identifiers(args.list(name), option: name)
    } catch {
      throw args.error(error.message)
    }
  }

  /// Exactly one of a positional value and `--clear`: the value, or nil to clear.
  static func valueOrClear(_ args: ParsedArguments, _ positional: String) throws(UsageError) -> String? {
    switch (args.positional(positional), args.flag("--clear")) {
    case (let value?, false): return value
    case (nil, true): return nil
    case (_?, true): throw args.error("give \(positional) or --clear, not both")
    case (nil, false): throw args.error("missing \(positional) (or --clear to remove it)")
    }
  }
}
