import NavConfig

/// navd's command line, parsed without Foundation's help so errors are exact.
///
/// Every configuration key has an option (`NavdSettings.keys`); options override the
/// configuration files. `--config FILE` reads FILE and `FILE.d/*.conf` instead of
/// `/etc/navd/navd.conf` and its drop-ins.
struct Arguments {
  /// What the invocation asks for.
  enum Command: Equatable {
    case run
    case help
    case version
  }

  var command: Command = .run
  /// `--config FILE`, if given.
  var configPath: String?
  /// `--policy FILE`: the access policy from this file's [Access] alone, if given.
  var policyPath: String?
  /// Options that set configuration keys, in command-line order (each already checked).
  var overrides: [(key: SettingKey, value: String)] = []

  /// A command-line mistake; navd prints it with the usage hint and exits 2.
  struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  static var usage: String {
    """
    Usage: navd [OPTIONS]

    Serves the io.navd Varlink interface on a Unix socket. Under systemd it takes
    its socket from socket activation (LISTEN_FDS), reports readiness and status
    (Type=notify), pings the watchdog and logs to the journal.

    Settings come from \(NavdSettings.defaultConfigPath) and \(NavdSettings.dropInDirectory(for: NavdSettings.defaultConfigPath))/*.conf
    (later files win), then from these options:

    \(NavdSettings.optionsHelp)

    Other options:
      --config FILE            Read FILE and FILE.d/*.conf instead of \(NavdSettings.defaultConfigPath)
      --policy FILE            Take the access policy ([Access] Allow= entries) from FILE
                               alone instead of the configuration files; re-read on
                               SIGHUP. Default: only navd's own uid and root may use navd
      --version                Print the version and exit
      -h, --help               Print this help and exit

    Signals: SIGTERM/SIGINT stop gracefully (exit 0); SIGHUP reloads the configuration
    ([Log] Level and [Access]; other keys need a restart); SIGUSR1 logs a status line;
    SIGUSR2 restarts keeping clients (hands them to systemd's fd store, exits 75);
    SIGPIPE is ignored.
    """
  }

  /// Parses `arguments` (without the program name).
  static func parse(_ arguments: [String]) throws(UsageError) -> Arguments {
    var result = Arguments()
    var index = 0
    while index < arguments.count {
      var argument = arguments[index]
      var inlineValue: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        inlineValue = String(argument[argument.index(after: equals)...])
        argument = String(argument[..<equals])
      }
      func optionValue() throws(UsageError) -> String {
        if let inlineValue { return inlineValue }
        index += 1
        guard index < arguments.count else { throw UsageError(message: "\(argument) needs a value") }
        return arguments[index]
      }
      switch argument {
      case "-h", "--help", "--version":
        if inlineValue != nil { throw UsageError(message: "\(argument) takes no value") }
        result.command = argument == "--version" ? .version : .help
      case "--config", "--policy":
        let path = try optionValue()
        guard !path.isEmpty else { throw UsageError(message: "\(argument) needs a non-empty path") }
        if argument == "--config" { result.configPath = path } else { result.policyPath = path }
      default:
        guard let key = NavdSettings.key(option: argument) else {
          throw UsageError(message: "unknown argument \"\(arguments[index])\"")
        }
        let value = try optionValue()
        var scratch = NavdSettings()
        do {
          try key.assign(&scratch, value)
        } catch {
          throw UsageError(message: "\(argument) \(error.message)")
        }
        result.overrides.append((key, value))
      }
      index += 1
    }
    return result
  }

  /// Applies the options to `settings` (after the files: the command line wins).
  func apply(to settings: inout NavdSettings) {
    for (key, value) in overrides { try? key.assign(&settings, value) }
  }
}
