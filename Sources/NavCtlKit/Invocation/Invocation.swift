import NavModel

/// What one navctl command line asks for: the global options and the action.
///
/// Made by `ArgumentParser.parse(_:)` without any IO; the executable then
/// makes the Varlink call(s) the action names (`request(terminalColumns:ops:)`)
/// and prints the reply with `ReplyPresenter`.
public struct Invocation: Sendable {
  /// `--socket`, `--scene`, `--json`, `--if-version`, …
  public var options: GlobalOptions
  /// What to do.
  public var action: Action
  /// The command's name (`push`, `left set`); nil for `--help` and `--version` without one.
  public var command: String?

  /// An invocation.
  public init(options: GlobalOptions, action: Action, command: String? = nil) {
    self.options = options
    self.action = action
    self.command = command
  }
}

/// What navctl does for a command.
public enum Action: Sendable {
  /// Print this text on stdout and exit 0 (`--help`, `help`).
  case help(String)
  /// Print `navctl VERSION` and exit 0.
  case version
  /// Print the completion script for a shell and exit 0.
  case completion(Shell)
  /// Build ops from the current state (`MutationPlan`) and send them in one `Mutate`.
  case mutate(MutationPlan)
  /// Read a JSON batch of ops from a file or stdin (`ApplyDocument`) and send them in one `Mutate`.
  case apply(ApplySource)
  /// One call and its one reply, printed (`get`, `layout`, `show`, `activate`, `scenes`, `info`).
  case call(CallCommand)
  /// `Subscribe` to the layout and redraw on every update (`--json`: one JSON line per update);
  /// `waitForScene` (`--wait`): a scene that does not exist yet is drawn empty until it is created.
  case watch(columns: Int?, waitForScene: Bool, follow: Follow)
  /// `WatchActions`: print every activation until interrupted.
  case watchActions(follow: Follow)
  /// `GetState`, then print the ids of one kind one per line (for shell completion).
  case listIds(IdKind)
  /// `DeleteScene` of the scene named (never `--scene`'s default: the name is explicit).
  case deleteScene(String)
  /// Read navd's database directly and print the export document (every scene, or the `--scene` given).
  case exportState(stateDirectory: String?)
  /// Write an export document into navd's database (navd must not be running).
  case importState(stateDirectory: String?, ApplySource)
}

/// What `watch` and `actions` do when navd goes away (`--follow`, `--no-follow`, `--follow-timeout`).
public struct Follow: Sendable, Hashable {
  /// Reconnect and resume (the default); false: exit 8 as soon as navd goes away.
  public var enabled: Bool
  /// How long navd may stay unreachable before navctl gives up (exit 8), in seconds.
  public var timeout: Double

  /// The default `--follow-timeout`: a minute, long enough for a restart of navd (its state
  /// is loaded before it listens) under `systemctl restart`.
  public static let defaultTimeout = 60.0

  /// A policy.
  public init(enabled: Bool = true, timeout: Double = Follow.defaultTimeout) {
    self.enabled = enabled
    self.timeout = timeout
  }
}

/// Shells navctl writes completion scripts for.
public enum Shell: String, Sendable, Hashable, CaseIterable {
  case bash, zsh, fish
}

/// Which ids `listIds` prints.
public enum IdKind: String, Sendable, Hashable, CaseIterable {
  /// Navigation items on the stack, root first.
  case navigation
  /// Bar button items, in definition order.
  case bar
}

/// Where `apply` reads its ops.
public enum ApplySource: Sendable, Hashable {
  case file(String)
  /// `-`
  case standardInput
}
