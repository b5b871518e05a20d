import NavModel

/// The io.navd protocol's version and every name it puts on the wire, in one place
/// (as tmux keeps `tmux-protocol.h`): methods, error names, stream frame kinds.
///
/// **Bump `NavProtocol.version` whenever a name here, or a message shape in
/// `Messages/` or `Errors/`, changes.** Adding a method or an optional field is
/// compatible and bumps the minor part; renaming or removing anything bumps the
/// major part. `Protocol/io.navd.varlink` is the same vocabulary on paper.
public enum NavProtocol {
  /// Version of the io.navd protocol as a whole (methods, errors, framing rules).
  public static let version = "1.0"

  /// The one interface navd serves besides `org.varlink.service`.
  public static let interface = "io.navd"
}

/// The io.navd methods; what each takes, answers and needs is its `descriptor`.
public enum NavMethod: String, Sendable, CaseIterable {
  case getServerInfo = "GetServerInfo"
  case listScenes = "ListScenes"
  case getState = "GetState"
  case getLayout = "GetLayout"
  case subscribe = "Subscribe"
  case mutate = "Mutate"
  case activate = "Activate"
  case watchActions = "WatchActions"
  case deleteScene = "DeleteScene"
  case getStatistics = "GetStatistics"
  case export = "Export"
  case importScene = "Import"

  /// `io.navd.<name>`.
  public var qualifiedName: String { "\(NavProtocol.interface).\(rawValue)" }
}

/// The io.navd error names, one per `NavError.Code` (NavModel knows codes, not names).
public enum NavErrorName: String, Sendable, CaseIterable {
  case invalidMutation = "io.navd.InvalidMutation"
  case itemNotFound = "io.navd.ItemNotFound"
  case duplicateItem = "io.navd.DuplicateItem"
  case itemAlreadyOnStack = "io.navd.ItemAlreadyOnStack"
  case cannotPopRoot = "io.navd.CannotPopRoot"
  case limitExceeded = "io.navd.LimitExceeded"
  case conflict = "io.navd.Conflict"
  case sceneNotFound = "io.navd.SceneNotFound"
  case storageFailed = "io.navd.StorageFailed"
  case itemNotActivatable = "io.navd.ItemNotActivatable"

  /// The name of errors with `code`.
  public init(_ code: NavError.Code) {
    switch code {
    case .invalidMutation: self = .invalidMutation
    case .itemNotFound: self = .itemNotFound
    case .duplicateItem: self = .duplicateItem
    case .itemAlreadyOnStack: self = .itemAlreadyOnStack
    case .cannotPopRoot: self = .cannotPopRoot
    case .limitExceeded: self = .limitExceeded
    case .conflict: self = .conflict
    case .sceneNotFound: self = .sceneNotFound
    case .storageFailed: self = .storageFailed
    case .itemNotActivatable: self = .itemNotActivatable
    }
  }

  /// The code of errors with this name.
  public var code: NavError.Code {
    switch self {
    case .invalidMutation: .invalidMutation
    case .itemNotFound: .itemNotFound
    case .duplicateItem: .duplicateItem
    case .itemAlreadyOnStack: .itemAlreadyOnStack
    case .cannotPopRoot: .cannotPopRoot
    case .limitExceeded: .limitExceeded
    case .conflict: .conflict
    case .sceneNotFound: .sceneNotFound
    case .storageFailed: .storageFailed
    case .itemNotActivatable: .itemNotActivatable
    }
  }
}

/// The `kind` of each `Subscribe` reply.
public enum SubscribeFrameKind: String, Sendable, CaseIterable {
  case snapshot, update, events
}

/// The `kind` of each `WatchActions` reply.
public enum WatchFrameKind: String, Sendable, CaseIterable {
  case watching, activation, dropped
}

/// The released software version navd reports in `GetInfo` and `--version`.
public enum NavdRelease {
  /// Semantic version of this build of navd and its tools.
  public static let version = "0.1.0"
}
