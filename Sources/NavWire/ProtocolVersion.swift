/// The wire protocol's version and the message names the IO layer itself puts on
/// the wire, in one place (as tmux keeps `tmux-protocol.h`).
///
/// **Bump `NavProtocol.version` whenever a name or a message shape in this file
/// or in `NavInterface.swift` (the io.navd method and error names) changes.**
/// Adding a method or an optional field is compatible and bumps the minor part;
/// renaming or removing anything bumps the major part.
public enum NavProtocol {
  /// Version of the io.navd protocol as a whole (methods, errors, framing rules).
  public static let version = "1.0"

  /// The one interface navd serves besides `org.varlink.service`.
  public static let interface = "io.navd"

  /// Sent by the IO layer itself when a connection arrives past the connection
  /// limit (parameters: `limit`, `max`, `value`, `field`, `message`). The engine
  /// uses the same error for its own limits; NavInterface.swift may alias it.
  public static let limitExceededError = "io.navd.LimitExceeded"
}

/// Names of `org.varlink.service`, which every Varlink service implements.
public enum VarlinkServiceNames {
  /// The interface name itself.
  public static let interface = "org.varlink.service"

  /// `GetInfo() -> (vendor, product, version, url, interfaces)`.
  public static let getInfo = "org.varlink.service.GetInfo"
  /// `GetInterfaceDescription(interface) -> (description)`.
  public static let getInterfaceDescription = "org.varlink.service.GetInterfaceDescription"

  /// `(interface: string)` — the call named an interface the service does not have.
  public static let interfaceNotFound = "org.varlink.service.InterfaceNotFound"
  /// `(method: string)` — the interface exists but has no such method.
  public static let methodNotFound = "org.varlink.service.MethodNotFound"
  /// `(method: string)` — the interface declares the method but it is not implemented.
  public static let methodNotImplemented = "org.varlink.service.MethodNotImplemented"
  /// `(parameter: string)` — a parameter (or, for navd, a call flag) is invalid.
  public static let invalidParameter = "org.varlink.service.InvalidParameter"
  /// `()` — the peer is not allowed to make this call.
  public static let permissionDenied = "org.varlink.service.PermissionDenied"
  /// `()` — the method only works with `"more": true`.
  public static let expectedMore = "org.varlink.service.ExpectedMore"
}

/// The released software version navd reports in `GetInfo` and `--version`.
public enum NavdRelease {
  /// Semantic version of this build of navd and its tools.
  public static let version = "0.1.0"
}
