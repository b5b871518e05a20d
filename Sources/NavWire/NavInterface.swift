/// The io.navd method names, one place for the service and its clients.
/// Bump `NavProtocol.version` (ProtocolVersion.swift) when any of them changes.
///
/// Error names are `io.navd.<NavError.Code.rawValue>` (NavModel's `NavError`).
public enum NavMethod: String, Sendable, CaseIterable {
  case getServerInfo = "GetServerInfo"
  case listScenes = "ListScenes"
  case getState = "GetState"
  case getLayout = "GetLayout"
  case subscribe = "Subscribe"
  case mutate = "Mutate"
  case activate = "Activate"
  case watchActions = "WatchActions"

  /// `io.navd.<name>`.
  public var qualifiedName: String { "\(NavProtocol.interface).\(rawValue)" }

  /// Methods that only stream (`[Requires 'more' flag]`): a plain call gets ExpectedMore.
  public var requiresMore: Bool { self == .subscribe || self == .watchActions }
}
