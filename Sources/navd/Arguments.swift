import NavStore

/// navd's command line, parsed without Foundation's help so errors are exact.
struct Arguments: Equatable {
  /// What the invocation asks for.
  enum Command: Equatable {
    case run
    case help
    case version
  }

  var command: Command = .run
  var socketPath: String?
  var maxConnections: Int?
  var maxFrameBytes: Int?
  var partialFrameTimeoutSeconds: Int?
  var subscriberQueueBytes: Int?
  var subscriberStallSeconds: Int?
  var idleTimeoutSeconds: Int?
  var opLogVersions: Int?
  var maxScenes: Int?
  var policyPath: String?
  var socketGroup: String?
  var maxConnectionsPerUser: Int?
  var maxOutputBytesPerUser: Int?
  var stateDirectory: String?
  var opLogBytes: Int?
  var snapshotInterval: Int?
  var durability: Durability?

  /// A command-line mistake; navd prints it with the usage hint and exits 2.
  struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  static let usage = """
    Usage: navd [OPTIONS]

    Serves the io.navd Varlink interface on a Unix socket.

    Options:
      --socket PATH            Listen on PATH. Default: $NAVD_SOCKET, else
                               $XDG_RUNTIME_DIR/navd/navd.sock, else ./.navd/navd.sock
      --socket-group GROUP     Share the socket with GROUP (name or gid): the socket
                               is made 0660 and a directory navd creates for it 0750,
                               both with that group. Default: 0600 and 0700, navd's own
      --max-connections N      Connections served at once (default 4096); more are
                               answered io.navd.LimitExceeded at once and closed
      --max-connections-per-uid N
                               Connections of one user at once (default 1024; navd's
                               own uid is exempt); more are answered LimitExceeded
      --max-output-bytes-per-uid N
                               Output queued to one user's connections (default
                               67108864); past it that user's connections that are
                               not reading are closed
      --policy FILE            Read the access policy ([Access] Allow= entries) from
                               FILE; re-read on SIGHUP. Default: only navd's own uid
                               and root may use navd (see navd(8), ACCESS POLICY)
      --idle-timeout S         Close a connection with no call, no stream, no partial
                               message and no output waiting for S seconds
                               (default 300; 0 never)
      --max-frame-bytes N      Largest message accepted, in bytes (default 1048576)
      --partial-frame-timeout S
                               Close a connection holding a message without its NUL
                               for S seconds (default 30)
      --subscriber-queue-bytes N
                               Updates queued for one subscriber before they are
                               coalesced into one, and activations queued for one
                               WatchActions watcher before more are dropped and
                               counted (default 1048576)
      --subscriber-stall-seconds S
                               Disconnect a client (typically a subscriber) with
                               output waiting of which nothing could be written
                               for S seconds, also when no new update comes
                               (default 60)
      --op-log N               Versions kept per scene for baseVersion and
                               sinceVersion (default 1024)
      --max-scenes N           Scenes navd holds at most (default 1024)
      --op-log-bytes N         Bytes of ops kept per scene in the op log (default
                               8388608); the oldest versions go first, as past --op-log
      --snapshot-interval N    Store a snapshot of a scene every N versions (default
                               256): start-up replays at most N versions per scene
      --state-dir DIR          Keep the database (navd.db) and lock here. Default:
                               $STATE_DIRECTORY, else $XDG_STATE_HOME/navd, else ./.navd
      --durability full|normal full (default): every acknowledged mutation survives a
                               power loss (fsync per commit); normal: it survives a
                               crash of navd, not of the machine
      --version                Print the version and exit
      -h, --help               Print this help and exit
    """

  /// Parses `arguments` (without the program name).
  static func parse(_ arguments: [String]) throws(UsageError) -> Arguments {
    var result = Arguments()
    var index = 0
    func value(for option: String) throws(UsageError) -> String {
      index += 1
      guard index < arguments.count else { throw UsageError(message: "\(option) needs a value") }
      return arguments[index]
    }
    func positive(_ text: String, for option: String, minimum: Int = 1) throws(UsageError) -> Int {
      guard let number = Int(text), number >= minimum else {
        throw UsageError(message: "\(option) needs an integer of at least \(minimum), got \"\(text)\"")
      }
      return number
    }
    while index < arguments.count {
      var argument = arguments[index]
      var inlineValue: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        inlineValue = String(argument[argument.index(after: equals)...])
        argument = String(argument[..<equals])
      }
      func optionValue() throws(UsageError) -> String {
        if let inlineValue { return inlineValue }
        return try value(for: argument)
      }
      switch argument {
      case "-h", "--help": result.command = .help
      case "--version": result.command = .version
      case "--socket":
        let path = try optionValue()
        guard !path.isEmpty else { throw UsageError(message: "--socket needs a non-empty path") }
        result.socketPath = path
      case "--max-connections":
        result.maxConnections = try positive(try optionValue(), for: argument)
      case "--max-connections-per-uid":
        result.maxConnectionsPerUser = try positive(try optionValue(), for: argument)
      case "--max-output-bytes-per-uid":
        result.maxOutputBytesPerUser = try positive(try optionValue(), for: argument, minimum: 65536)
      case "--socket-group":
        let group = try optionValue()
        guard !group.isEmpty else { throw UsageError(message: "--socket-group needs a group name or gid") }
        result.socketGroup = group
      case "--policy":
        let path = try optionValue()
        guard !path.isEmpty else { throw UsageError(message: "--policy needs a non-empty path") }
        result.policyPath = path
      case "--max-frame-bytes":
        result.maxFrameBytes = try positive(try optionValue(), for: argument, minimum: 256)
      case "--partial-frame-timeout":
        result.partialFrameTimeoutSeconds = try positive(try optionValue(), for: argument)
      case "--subscriber-queue-bytes":
        result.subscriberQueueBytes = try positive(try optionValue(), for: argument, minimum: 4096)
      case "--subscriber-stall-seconds":
        result.subscriberStallSeconds = try positive(try optionValue(), for: argument)
      case "--idle-timeout":
        result.idleTimeoutSeconds = try positive(try optionValue(), for: argument, minimum: 0)
      case "--op-log":
        result.opLogVersions = try positive(try optionValue(), for: argument)
      case "--op-log-bytes":
        result.opLogBytes = try positive(try optionValue(), for: argument, minimum: 4096)
      case "--snapshot-interval":
        result.snapshotInterval = try positive(try optionValue(), for: argument)
      case "--state-dir":
        let path = try optionValue()
        guard !path.isEmpty else { throw UsageError(message: "--state-dir needs a non-empty path") }
        result.stateDirectory = path
      case "--durability":
        let text = try optionValue()
        guard let durability = Durability(rawValue: text) else {
          throw UsageError(message: "--durability needs full or normal, got \"\(text)\"")
        }
        result.durability = durability
      case "--max-scenes":
        result.maxScenes = try positive(try optionValue(), for: argument)
      default:
        throw UsageError(message: "unknown argument \"\(arguments[index])\"")
      }
      if inlineValue != nil, ["-h", "--help", "--version"].contains(argument) {
        throw UsageError(message: "\(argument) takes no value")
      }
      index += 1
    }
    return result
  }
}
