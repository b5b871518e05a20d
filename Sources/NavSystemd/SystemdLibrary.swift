import CSystemd

#if canImport(Glibc)
  import Glibc
#endif

/// libsystemd, which navd loads (dlopen) only when it runs under systemd instead of linking
/// it: a navd started by hand never calls it, and loading it with the six libraries behind it
/// cost every start ~0.5 ms (`Sources/CSystemd/include/CSystemd.h`).
public enum SystemdLibrary {
  /// The variables through which a service manager talks to navd; any of them set means
  /// navd needs libsystemd.
  public static let environmentVariables = ["LISTEN_FDS", "NOTIFY_SOCKET", "WATCHDOG_USEC"]

  /// Loads libsystemd when the environment says a service manager is there, or when the
  /// log must go to the journal (`--log-target journal`), so that a missing or broken
  /// library stops the start with a clear error instead of readiness, passed sockets,
  /// watchdog pings or log entries silently not happening.
  public static func loadIfNeeded(environment: [String: String], journalLog: Bool) throws(SystemdUnavailable) {
    let needed =
      environmentVariables.filter { environment[$0] != nil } + (journalLog ? ["--log-target journal"] : [])
    guard !needed.isEmpty else { return }
    guard csd_load() == 0 else {
      let why = csd_load_error().map { String(cString: $0) } ?? "unknown error"
      throw SystemdUnavailable(
        description: "\(needed.joined(separator: ", ")) set, but libsystemd cannot be loaded: \(why)")
    }
  }

  /// Whether libsystemd has been loaded in this process.
  public static var isLoaded: Bool { csd_is_loaded() != 0 }
}

/// The service manager needs libsystemd and it could not be loaded.
public struct SystemdUnavailable: Error, CustomStringConvertible {
  /// Which variables were set and what `dlopen` said.
  public let description: String
}
