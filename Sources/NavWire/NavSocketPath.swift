/// Where navd listens when not told otherwise; navd and its clients share these rules.
///
/// 1. `$NAVD_SOCKET` if set and not empty;
/// 2. else `$XDG_RUNTIME_DIR/navd/navd.sock` (the `navd` directory is created 0700);
/// 3. else `./.navd/navd.sock` relative to the working directory.
public struct NavSocketPath: Sendable, Hashable {
  /// The socket's path.
  public var path: String
  /// Directory navd creates (mode 0700) before binding, when it is navd's own.
  public var directoryToCreate: String?

  /// Creates a path with an optional directory to create.
  public init(path: String, directoryToCreate: String? = nil) {
    self.path = path
    self.directoryToCreate = directoryToCreate
  }

  /// Applies the rules above to `environment` (pass `ProcessInfo.processInfo.environment`).
  public static func defaultPath(environment: [String: String]) -> NavSocketPath {
    if let explicit = environment["NAVD_SOCKET"], !explicit.isEmpty {
      return NavSocketPath(path: explicit)
    }
    if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
      let directory = runtime.hasSuffix("/") ? runtime + "navd" : runtime + "/navd"
      return NavSocketPath(path: directory + "/navd.sock", directoryToCreate: directory)
    }
    return NavSocketPath(path: "./.navd/navd.sock", directoryToCreate: "./.navd")
  }
}
