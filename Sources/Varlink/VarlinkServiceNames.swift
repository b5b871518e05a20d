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
  /// `(parameter: string)` — a parameter (or a call flag the service does not offer) is invalid.
  public static let invalidParameter = "org.varlink.service.InvalidParameter"
  /// `()`, a service may add fields — the peer is not allowed to make this call.
  public static let permissionDenied = "org.varlink.service.PermissionDenied"
  /// `()` — the method only works with `"more": true`.
  public static let expectedMore = "org.varlink.service.ExpectedMore"
}
