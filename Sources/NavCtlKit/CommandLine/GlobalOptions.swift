/// Options that apply to every command; they may appear before or after the command.
public struct GlobalOptions: Sendable, Hashable {
  /// `--socket PATH`; nil means `$NAVD_SOCKET`, then navd's default path.
  public var socket: String?
  /// `--scene NAME`.
  public var scene: String = "main"
  /// Whether `--scene` was given (`export` then exports only that scene, else every scene).
  public var sceneGiven = false
  /// `--json`: print navd's replies as JSON instead of text.
  public var json = false
  /// `--if-version N`: send mutations with this base version and the fail-on-conflict policy.
  public var ifVersion: Int?
  /// `--timeout SECONDS`: give up waiting for navd after this long (not for streams).
  public var timeout: Double?
  /// `--ascii`: draw with ASCII only.
  public var ascii = false
  /// `--no-color`: never use ANSI colour.
  public var noColor = false
  /// `--labels`: print a legend of the glyphs under `show` and `watch` drawings.
  public var labels = false
  /// `--mutation-id ID` (else `$NAVCTL_MUTATION_ID`, which the executable reads): the id a mutation
  /// is sent with, so that running the same command again with it applies it at most once.
  public var mutationId: String?

  /// Every default.
  public init() {}
}

/// A global option: its spec and what it does to the parse.
struct GlobalOptionSpec: Sendable {
  var spec: OptionSpec
  var apply: @Sendable (inout ParseFlags, String) throws(UsageError) -> Void
}

/// What the global options set while a command line is parsed.
struct ParseFlags: Sendable {
  var options = GlobalOptions()
  var help = false
  var version = false
}

extension GlobalOptions {
  /// The global options, in the order `--help` lists them.
  static let table: [GlobalOptionSpec] = [
    GlobalOptionSpec(
      spec: .value(
        "--socket", "PATH",
        "talk to navd on PATH (default: $NAVD_SOCKET, else $XDG_RUNTIME_DIR/navd/navd.sock, else /run/navd/navd.sock)",
        hint: .file),
      apply: { flags, value throws(UsageError) in
        guard !value.isEmpty else { throw UsageError("--socket needs a non-empty path") }
        flags.options.socket = value
      }),
    GlobalOptionSpec(
      spec: .value("--scene", "NAME", "the scene to act on (default: main)", hint: .scene),
      apply: { flags, value throws(UsageError) in
        flags.options.scene = try ValueReader.identifier(value, option: "--scene")
        flags.options.sceneGiven = true
      }),
    GlobalOptionSpec(
      spec: .flag("--json", "print replies as JSON (one object per line for streams)"),
      apply: { flags, _ in flags.options.json = true }),
    GlobalOptionSpec(
      spec: .value(
        "--if-version", "N", "mutate only if nothing changed since version N (else exit 4)", hint: .number),
      apply: { flags, value throws(UsageError) in
        flags.options.ifVersion = try ValueReader.integer(
          value, option: "--if-version", minimum: 0, maximum: ValueReader.largestExactInteger)
      }),
    GlobalOptionSpec(
      spec: .value(
        "--timeout", "SECONDS", "give up waiting for navd after SECONDS, above 0 and at most 86400 (default: 5)",
        hint: .number),
      apply: { flags, value throws(UsageError) in
        let seconds = try ValueReader.number(value, option: "--timeout")
        guard seconds > 0, seconds <= ValueReader.longestTimeout else {
          throw UsageError("--timeout needs a number of seconds above 0 and at most 86400, got \"\(value)\"")
        }
        flags.options.timeout = seconds
      }),
    GlobalOptionSpec(
      spec: .flag("--ascii", "draw with plain ASCII characters"),
      apply: { flags, _ in flags.options.ascii = true }),
    GlobalOptionSpec(
      spec: .flag("--no-color", "never use colour (also: NO_COLOR set, or output not a terminal)"),
      apply: { flags, _ in flags.options.noColor = true }),
    GlobalOptionSpec(
      spec: .flag("--labels", "under drawings, print what each glyph stands for (@ refresh, del trash, ...)"),
      apply: { flags, _ in flags.options.labels = true }),
    GlobalOptionSpec(
      spec: .value(
        "--mutation-id", "ID",
        "send mutations with this id (default: $NAVCTL_MUTATION_ID): a retry with the same id applies once",
        hint: .none),
      apply: { flags, value throws(UsageError) in
        flags.options.mutationId = try ValueReader.mutationId(value, option: "--mutation-id")
      }),
    GlobalOptionSpec(
      spec: .flag("--help", short: "-h", "show help (for a command: navctl COMMAND --help)"),
      apply: { flags, _ in flags.help = true }),
    GlobalOptionSpec(
      spec: .flag("--version", "print navctl's version"),
      apply: { flags, _ in flags.version = true }),
  ]

  /// The global options' specs, for help, completion and the man page.
  public static var specs: [OptionSpec] { table.map(\.spec) }
}
