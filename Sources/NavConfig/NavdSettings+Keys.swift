/// The table of every configuration key (see `SettingKey`). Order is the order of
/// `navd --help` and navd(8).
extension NavdSettings {
  /// Every key navd reads, in the order they are documented.
  public static let keys: [SettingKey] = [
    SettingKey(
      section: "Server", name: "Socket", option: "--socket", valueName: "PATH",
      defaultText: "$NAVD_SOCKET, else $XDG_RUNTIME_DIR/navd/navd.sock, else /run/navd/navd.sock",
      summary: "Bind and listen on PATH. Ignored when the socket is passed in (socket activation).",
      reloadable: false,
      assign: { settings, value throws(SettingValueError) in
        guard !value.isEmpty else { throw SettingValueError("needs a non-empty path") }
        settings.socket = value
      }, current: { $0.socket ?? "" }),
    SettingKey(
      section: "Server", name: "SocketGroup", option: "--socket-group", valueName: "GROUP",
      defaultText: "none (socket 0600, directory 0700, navd's own group)",
      summary: "Share a socket navd binds with GROUP (name or gid): socket 0660, a directory navd creates 0750.",
      reloadable: false,
      assign: { settings, value throws(SettingValueError) in
        guard !value.isEmpty else { throw SettingValueError("needs a group name or gid") }
        settings.socketGroup = value
      }, current: { $0.socketGroup ?? "" }),
    integer(
      "Server", "MaxConnections", "--max-connections", default: 4096, minimum: 1, \.maxConnections,
      "Connections served at once; more are answered io.navd.LimitExceeded at once and closed."),
    integer(
      "Server", "MaxConnectionsPerUID", "--max-connections-per-uid", default: 1024, minimum: 1,
      \.maxConnectionsPerUser,
      "Connections of one user at once (navd's own uid is exempt); more are answered LimitExceeded."),
    integer(
      "Server", "MaxOutputBytesPerUID", "--max-output-bytes-per-uid", default: 64 << 20, minimum: 65536,
      \.maxOutputBytesPerUser,
      "Output queued to one user's connections (their streams' queues included); past it, that user's "
        + "connections that do not read are closed."),
    integer(
      "Server", "MaxFrameBytes", "--max-frame-bytes", default: 1 << 20, minimum: 256, \.maxFrameBytes,
      "Largest message accepted, in bytes; a larger one closes the connection."),
    integer(
      "Server", "PartialFrameTimeoutSec", "--partial-frame-timeout", valueName: "S", default: 30, minimum: 1,
      \.partialFrameTimeoutSeconds, "Close a connection holding part of a message (no NUL yet) for S seconds."),
    integer(
      "Server", "StallTimeoutSec", "--subscriber-stall-seconds", valueName: "S", default: 60, minimum: 1,
      \.subscriberStallSeconds,
      "Disconnect a client (typically a subscriber) with output waiting of which nothing could be written for S "
        + "seconds, also when no new update comes."),
    integer(
      "Server", "IdleTimeoutSec", "--idle-timeout", valueName: "S", default: 300, minimum: 0, \.idleTimeoutSeconds,
      "Close a connection with no call, no stream, no partial message and no output waiting for S seconds; 0: never."
    ),
    integer(
      "Server", "StopTimeoutSec", "--stop-timeout", valueName: "S", default: 5, minimum: 1, \.stopTimeoutSeconds,
      "On SIGTERM, wait at most S seconds for calls in progress and unread output before closing."),
    integer(
      "Engine", "SubscriberQueueBytes", "--subscriber-queue-bytes", default: 1 << 20, minimum: 4096,
      \.subscriberQueueBytes,
      "Updates queued for one subscriber before they are coalesced into one, and activations queued for one "
        + "WatchActions watcher before more are dropped and counted."),
    integer(
      "Engine", "LayoutCacheBytes", "--layout-cache-bytes", default: 8 << 20, minimum: 0, \.layoutCacheBytes,
      "Bytes of documents one scene keeps for its subscribers' views; past them the least recently read view's "
        + "is dropped and built again from the state when next read."),
    integer(
      "Engine", "OpLogVersions", "--op-log", default: 1024, minimum: 1, \.opLogVersions,
      "Versions kept per scene for baseVersion and sinceVersion."),
    integer(
      "Engine", "MaxScenes", "--max-scenes", default: 1024, minimum: 1, \.maxScenes,
      "Scenes navd holds at most; the last sixteenth are left to root and navd's own uid."),
    integer(
      "Engine", "MaxScenesPerUID", "--max-scenes-per-uid", default: 64, minimum: 1, \.maxScenesPerUID,
      "Scenes one user's mutations may create (root and navd's own uid are exempt)."),
    integer(
      "Engine", "MaxWaitedScenesPerUID", "--max-waited-scenes-per-uid", default: 64, minimum: 1,
      \.maxWaitedScenesPerUID,
      "Names of scenes not yet made that one user's Subscribe with waitForScene may wait for (root and navd's own "
        + "uid are exempt)."),
    integer(
      "Engine", "MaxSubscribersPerScene", "--max-subscribers-per-scene", default: 4096, minimum: 1,
      \.maxSubscribersPerScene,
      "Subscribe and WatchActions streams one scene serves at most; each also needs a connection "
        + "(--max-connections)."),
    integer(
      "Engine", "OpLogBytes", "--op-log-bytes", default: 8 << 20, minimum: 4096, \.opLogBytes,
      "Bytes of ops kept per scene in the op log; the oldest versions go first, as past --op-log."),
    SettingKey(
      section: "Store", name: "StateDirectory", option: "--state-dir", valueName: "DIR",
      defaultText: "$STATE_DIRECTORY (systemd's StateDirectory=), else $XDG_STATE_HOME/navd, else ~/.local/state/navd",
      summary: "Keep the database (navd.db) and its lock in DIR.", reloadable: false,
      assign: { settings, value throws(SettingValueError) in
        guard !value.isEmpty else { throw SettingValueError("needs a non-empty path") }
        settings.stateDirectory = value
      }, current: { $0.stateDirectory ?? "" }),
    choice(
      "Store", "Durability", "--durability", default: "normal", ["full", "normal"], \.durability,
      "normal: every acknowledged mutation survives a crash of navd, not of the machine (no fsync per commit); "
        + "full: it survives a power loss too (fsync per commit, several times slower)."),
    integer(
      "Store", "SnapshotInterval", "--snapshot-interval", default: 256, minimum: 1, \.snapshotInterval,
      "Store a snapshot of a scene every N versions: start-up replays at most N versions per scene."),
    integer(
      "Store", "SyncInterval", "--sync-interval", valueName: "MS", default: 1000, minimum: 1,
      \.syncIntervalMilliseconds,
      "With durability normal, fsync the redo log every MS milliseconds: a crash of the machine takes at most "
        + "about that much of the acknowledged commits, and the next start gives every scene a new epoch."),
    SettingKey(
      section: "Store", name: "DiskBudgetBytes", option: "--disk-budget", valueName: "BYTES|auto",
      defaultText: "auto: 33554432 (32 MiB), or a quarter of the state directory's file system when that is smaller",
      summary: "Bytes navd's own working files (the redo log, the WAL and a reserve kept to free them on a full "
        + "disk) may take; a configured value is used as given. At least \(diskBudgetMinimum) (1 MiB).",
      reloadable: false,
      assign: { settings, value throws(SettingValueError) in
        if value == "auto" {
          settings.diskBudgetBytes = nil
          return
        }
        guard let bytes = Int(value), bytes >= diskBudgetMinimum else {
          throw SettingValueError(
            "needs auto or a number of bytes of at least \(diskBudgetMinimum) (1 MiB), got \"\(value)\"")
        }
        settings.diskBudgetBytes = bytes
      }, current: { $0.diskBudgetBytes.map(String.init) ?? "auto" }),
    choice(
      "Log", "Level", "--log-level", default: "info", ["debug", "info", "notice", "warning", "error"], \.logLevel,
      "Least important messages logged (NAVD_DEBUG=1 in the environment means debug).", reloadable: true),
    choice(
      "Log", "Target", "--log-target", default: "auto", ["auto", "journal", "stderr"], \.logTarget,
      "Where messages go: the journal (structured entries), stderr lines, or auto: the journal when journald runs."),
  ]

  /// The smallest `DiskBudgetBytes=`: a quarter of the smallest state directory navd supports
  /// (4 MiB, STORAGE.md §4), as NavStore's `DiskBudget.minimumBytes`.
  static let diskBudgetMinimum = 1 << 20

  private static func integer(
    _ section: String, _ name: String, _ option: String, valueName: String = "N", default value: Int, minimum: Int,
    _ path: WritableKeyPath<NavdSettings, Int> & Sendable, _ summary: String
  ) -> SettingKey {
    SettingKey(
      section: section, name: name, option: option, valueName: valueName, defaultText: String(value),
      summary: summary + (minimum > 1 ? " At least \(minimum)." : ""), reloadable: false,
      assign: { settings, text throws(SettingValueError) in
        guard let number = Int(text), number >= minimum else {
          throw SettingValueError("needs an integer of at least \(minimum), got \"\(text)\"")
        }
        settings[keyPath: path] = number
      }, current: { String($0[keyPath: path]) })
  }

  private static func choice(
    _ section: String, _ name: String, _ option: String, default value: String, _ choices: [String],
    _ path: WritableKeyPath<NavdSettings, String> & Sendable, _ summary: String, reloadable: Bool = false
  ) -> SettingKey {
    SettingKey(
      section: section, name: name, option: option, valueName: choices.joined(separator: "|"), defaultText: value,
      summary: summary, reloadable: reloadable,
      assign: { settings, text throws(SettingValueError) in
        guard choices.contains(text) else {
          throw SettingValueError("needs one of \(choices.joined(separator: ", ")), got \"\(text)\"")
        }
        settings[keyPath: path] = text
      }, current: { $0[keyPath: path] })
  }
}
