import NavWire

/// navctl's exit statuses (documented in `--help` and navctl(1)).
public enum ExitCode: Int32, Sendable, Hashable, CaseIterable {
  case success = 0
  /// navd answered with an error (other than a conflict).
  case refused = 1
  /// The command line was wrong; nothing was sent.
  case usage = 2
  /// navd could not be reached (no socket, refused, timed out).
  case unreachable = 3
  /// `io.navd.Conflict`: `--expect` or `--if-version` did not match.
  case conflict = 4

  /// The status for a Varlink error reply named `name`.
  public static func forError(named name: String) -> ExitCode {
    name == NavErrorName.conflict.rawValue ? .conflict : .refused
  }
}
