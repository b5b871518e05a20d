import NavSystem
import NavWire

#if canImport(Glibc)
  import Glibc
#endif

extension NavClient {
  /// The socket navd listens on when not told otherwise, by the same rules as navd itself
  /// (`NavSocketPath`): `$NAVD_SOCKET`, else `$XDG_RUNTIME_DIR/navd/navd.sock`, else the
  /// system service's `/run/navd/navd.sock`; a relative `$NAVD_SOCKET` made absolute.
  ///
  /// Public so tools can say which path they tried. Empty variables count as unset.
  public static func defaultSocketPath() -> String {
    var environment: [String: String] = [:]
    for name in ["NAVD_SOCKET", "XDG_RUNTIME_DIR"] {
      if let value = getenv(name) { environment[name] = String(cString: value) }
    }
    return AbsolutePath.make(defaultSocketPath(environment: environment))
  }

  /// The default socket path for an explicit environment (tests, or a tool's own variables).
  public static func defaultSocketPath(environment: [String: String]) -> String {
    NavSocketPath.defaultPath(environment: environment).path
  }
}
