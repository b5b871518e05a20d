import NavConfig
import NavServer

/// Where navd's configuration comes from and how the layers combine: defaults, then
/// the main file and its drop-ins (later files win), then the command line.
/// `NAVD_DEBUG` in the environment forces the debug log level.
struct Configuration {
  /// The main file: `--config FILE` or /etc/navd/navd.conf (a missing file is fine).
  var path: String
  var arguments: Arguments
  var environment: [String: String]

  /// Reads the files and merges every layer; an invalid file names the file, line and key.
  func load() throws(ConfigError) -> (settings: NavdSettings, files: [ConfigFile]) {
    let files = try ConfigFile.loadLayered(main: path, dropInDirectory: NavdSettings.dropInDirectory(for: path))
    var settings = NavdSettings()
    try settings.apply(files)
    arguments.apply(to: &settings)
    if environment["NAVD_DEBUG"].map({ !$0.isEmpty }) ?? false { settings.logLevel = "debug" }
    return (settings, files)
  }
}

extension LogLevel {
  /// The level named by `[Log] Level=` (already validated).
  init(configured name: String) {
    self = LogLevel.allCases.first { $0.description == name } ?? .info
  }
}
