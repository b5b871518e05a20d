/// Everything navd's configuration sets, with the documented defaults: the values of
/// `/etc/navd/navd.conf`, its drop-ins and the command line, merged in that order.
///
/// Every key is described once, in `NavdSettings.keys`; `navd --help`, navd(8) and the
/// parsers all come from that table (a test checks the man page against it).
public struct NavdSettings: Sendable, Equatable {
  /// `[Server] Socket=`: where navd binds when no socket is passed; nil = the default
  /// (`$NAVD_SOCKET`, `$XDG_RUNTIME_DIR/navd/navd.sock`, `/run/navd/navd.sock`).
  public var socket: String?
  /// `[Server] SocketGroup=`: share a socket navd binds with this group (name or gid).
  public var socketGroup: String?
  /// `[Server] MaxConnections=`.
  public var maxConnections = 4096
  /// `[Server] MaxConnectionsPerUID=`.
  public var maxConnectionsPerUser = 1024
  /// `[Server] MaxOutputBytesPerUID=`.
  public var maxOutputBytesPerUser = 64 << 20
  /// `[Server] MaxFrameBytes=`.
  public var maxFrameBytes = 1 << 20
  /// `[Server] PartialFrameTimeoutSec=`.
  public var partialFrameTimeoutSeconds = 30
  /// `[Server] StallTimeoutSec=`: a connection whose output does not drain is closed.
  public var subscriberStallSeconds = 60
  /// `[Server] IdleTimeoutSec=`: 0 never closes idle connections.
  public var idleTimeoutSeconds = 300
  /// `[Server] StopTimeoutSec=`: how long a graceful stop may wait for calls and streams.
  public var stopTimeoutSeconds = 5
  /// `[Engine] SubscriberQueueBytes=`.
  public var subscriberQueueBytes = 1 << 20
  /// `[Engine] LayoutCacheBytes=`.
  public var layoutCacheBytes = 8 << 20
  /// `[Engine] OpLogVersions=`.
  public var opLogVersions = 1024
  /// `[Engine] OpLogBytes=`.
  public var opLogBytes = 8 << 20
  /// `[Store] StateDirectory=`: where navd.db and its lock live; nil = the default
  /// (`$STATE_DIRECTORY`, `$XDG_STATE_HOME/navd`, `$HOME/.local/state/navd`).
  public var stateDirectory: String?
  /// `[Store] Durability=`: normal (no fsync per commit; the default) or full (fsync per commit).
  public var durability = "normal"
  /// `[Store] SnapshotInterval=`.
  public var snapshotInterval = 256
  /// `[Store] SyncInterval=`: milliseconds between fsyncs of the redo log (durability normal).
  public var syncIntervalMilliseconds = 1000
  /// `[Store] DiskBudgetBytes=`: bytes navd's own working files (redo log, WAL, reserve) may
  /// take; nil: 32 MiB, or a quarter of the state directory's file system when that is smaller.
  public var diskBudgetBytes: Int?
  /// `[Engine] MaxScenes=`.
  public var maxScenes = 1024
  /// `[Engine] MaxScenesPerUID=`.
  public var maxScenesPerUID = 64
  /// `[Engine] MaxWaitedScenesPerUID=`.
  public var maxWaitedScenesPerUID = 64
  /// `[Engine] MaxSubscribersPerScene=`.
  public var maxSubscribersPerScene = 4096
  /// `[Log] Level=`: debug, info, notice, warning or error.
  public var logLevel = "info"
  /// `[Log] Target=`: auto (the journal when journald runs, else stderr), journal or stderr.
  public var logTarget = "auto"

  /// Every default.
  public init() {}
}

/// A value that does not fit its key; the caller adds where it came from.
public struct SettingValueError: Error, Sendable, Equatable {
  /// What is wrong and what is allowed, e.g. `needs an integer of at least 1, got "x"`.
  public var message: String

  /// An error saying `message`.
  public init(_ message: String) { self.message = message }
}

/// One configuration key: its place in the file, its command-line option, its default and
/// what it means.
public struct SettingKey: Sendable {
  /// `[Section]` it lives in.
  public let section: String
  /// `Key=` within the section.
  public let name: String
  /// The command-line option that overrides it (`--max-connections`).
  public let option: String
  /// The placeholder of its value in help texts (`N`, `PATH`).
  public let valueName: String
  /// The default, as written in help texts.
  public let defaultText: String
  /// What it does, one or two sentences.
  public let summary: String
  /// Whether SIGHUP applies a changed value to the running navd (others need a restart).
  public let reloadable: Bool
  /// Parses `value` into `settings`.
  public let assign: @Sendable (inout NavdSettings, String) throws(SettingValueError) -> Void
  /// The value currently in `settings`, as it would be written in a file.
  public let current: @Sendable (NavdSettings) -> String

  /// `Section.Key`, as used in messages.
  public var qualifiedName: String { "\(section).\(name)" }
}

extension NavdSettings {
  /// Sections whose keys belong to other parts of navd and are checked there (`[Access]`).
  public static let foreignSections: Set<String> = ["Access"]

  /// The key `[section] name=`, if navd has one.
  public static func key(section: String, name: String) -> SettingKey? {
    keys.first { $0.section == section && $0.name == name }
  }

  /// The key set by command-line `option`, if any.
  public static func key(option: String) -> SettingKey? {
    keys.first { $0.option == option }
  }

  /// Applies `files` in order (later files win). An unknown section or key, or a bad
  /// value, is an error naming the file, the line and the key; nothing is applied then.
  public mutating func apply(_ files: [ConfigFile]) throws(ConfigError) {
    var result = self
    for file in files {
      for section in file.sections where !Self.foreignSections.contains(section.name) {
        guard Self.keys.contains(where: { $0.section == section.name }) else {
          let known = Set(Self.keys.map(\.section)).union(Self.foreignSections).sorted()
          throw ConfigError(
            path: file.path, line: section.line,
            message: "unknown section [\(section.name)]; navd reads \(known.map { "[\($0)]" }.joined(separator: ", "))")
        }
        for entry in section.entries {
          guard let key = Self.key(section: section.name, name: entry.key) else {
            let known = Self.keys.filter { $0.section == section.name }.map(\.name)
            throw ConfigError(
              path: file.path, entry: entry,
              message: "unknown key in [\(section.name)]; known keys: \(known.joined(separator: ", "))")
          }
          do {
            try key.assign(&result, entry.value)
          } catch {
            throw ConfigError(path: file.path, entry: entry, message: error.message)
          }
        }
      }
    }
    self = result
  }

  /// The keys whose values differ between `self` and `other`.
  public func changedKeys(comparedTo other: NavdSettings) -> [SettingKey] {
    Self.keys.filter { $0.current(self) != $0.current(other) }
  }
}
