import NavAccess
import NavConfig
import NavServer
import NavService
import NavSystem
import NavSystemd
import NavWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// navd's composition root: the log, the service manager link, the engine and service,
/// and the server are built here, once, from the settings — and run until a signal
/// stops them.
final class Daemon: Sendable {
  let configuration: Configuration
  let log: Log
  let notifier: ServiceNotifier
  let service: NavdService
  let server: VarlinkServer
  let listener: Listener
  /// The state directory's lock and the open store (closed after the last call).
  let durable: DurableState
  private let settings: Mutex<NavdSettings>
  private let stopRequests = Atomic<Int>(0)
  /// What a predecessor handed over through the fd store (names to remove once adopted).
  private let adopted: FDStoreHandOver.Adopted
  /// Set by SIGUSR2: the connections to store once the loop has stopped.
  private let handOver = Mutex<HandOverReceipt?>(nil)
  /// Reloads of other parts of navd, given the new configuration files (the access policy
  /// registers here); a throw keeps that part's running configuration and is logged.
  private let reloadHooks: [@Sendable ([ConfigFile]) throws -> Void]

  /// Builds everything; `files` are the configuration files `settings` came from (the
  /// access policy reads their [Access] sections unless `--policy` names a file).
  init(configuration: Configuration, settings: NavdSettings, files: [ConfigFile], passed: [PassedSocket])
    throws(StartupError)
  {
    self.configuration = configuration
    self.settings = Mutex(settings)
    log = Self.makeLog(settings)
    notifier = ServiceNotifier()
    let log = log
    // The state directory first: a second navd on the same state is refused before it
    // touches a socket, and READY=1 comes only after the scenes are loaded.
    do {
      durable = try openDurableState(settings, environment: configuration.environment)
    } catch {
      throw StartupError("\(error)")
    }
    let access: AccessControl
    do {
      access = try makeAccessControl(files: try policyFiles(configuration.arguments, configuration: files))
    } catch {
      throw StartupError("invalid access policy: \(error)")
    }
    let group = try socketGroup(settings.socketGroup)
    adopted = FDStoreHandOver.adopt(from: passed)
    listener = try Listener.choose(
      passed: adopted.others, stored: adopted.listener, configuredPath: settings.socket, group: group,
      environment: configuration.environment, warn: { log.warning($0) })
    let executor = EventLoopExecutor()
    do {
      service = try makeService(settings, access: access, durable: durable, executor: executor)
    } catch {
      throw StartupError("\(error)")
    }
    log.info(
      "state in \(durable.directory) (durability \(durable.store.durability.rawValue)): "
        + "\(durable.scenes.count) scene(s) loaded")
    if let dropped = durable.store.droppedAtStart { log.warning(dropped) }
    if let problem = durable.store.applierPriorityProblem { log.warning(problem, [("event", "redo-priority")]) }
    for problem in durable.store.sideTableProblems { log.warning(problem, [("event", "damaged-side-table")]) }
    let renewed = durable.store.newEpochs
    if !renewed.isEmpty {
      log.warning(
        "started a new epoch for \(renewed.count) scene(s), keeping their state and versions, because "
          + durable.store.newEpochReasons.joined(separator: "; and ")
          + ": a client resuming from an older epoch gets a snapshot",
        [
          ("event", "new-epoch"), ("scenes", renewed.map(\.scene).joined(separator: " ")),
          ("epochs", renewed.map { "\($0.scene):\($0.from)->\($0.to)" }.joined(separator: " ")),
          ("reason", durable.store.newEpochReasons.joined(separator: "; ")),
        ])
    }
    var serverConfiguration = ServerConfiguration(listener: listener.serverListener)
    serverConfiguration.serveNavd()
    if let group {
      serverConfiguration.socketGroup = group
      serverConfiguration.socketMode = 0o660
    }
    serverConfiguration.maxConnections = settings.maxConnections
    serverConfiguration.maxConnectionsPerUser = settings.maxConnectionsPerUser
    serverConfiguration.maxOutputBytesPerUser = settings.maxOutputBytesPerUser
    serverConfiguration.maxFrameBytes = settings.maxFrameBytes
    serverConfiguration.partialFrameTimeout = .seconds(settings.partialFrameTimeoutSeconds)
    serverConfiguration.outputStallTimeout = .seconds(settings.subscriberStallSeconds)
    serverConfiguration.idleTimeout = settings.idleTimeoutSeconds == 0 ? nil : .seconds(settings.idleTimeoutSeconds)
    serverConfiguration.adopted = adopted.connections
    if let watchdog = Watchdog.fromEnvironment(notifier: notifier) {
      serverConfiguration.heartbeat = .init(interval: watchdog.tickInterval) { watchdog.tick() }
      log.info("watchdog enabled", [("interval_usec", "\(watchdog.interval / .microseconds(1))")])
    }
    server = VarlinkServer(
      configuration: serverConfiguration, interfaces: makeInterfaces(), handler: service, log: log,
      executor: executor)
    let arguments = configuration.arguments
    let service = service
    reloadHooks = [
      { [log] files in
        let policy = try access.reload(from: try policyFiles(arguments, configuration: files))
        // Streams admitted on a right the new policy no longer grants end now.
        let revoked = service.accessPolicyChanged()
        log.notice(
          "access policy reloaded", [("rules", String(policy.rules.count)), ("revoked_streams", String(revoked))])
      }
    ]
  }

  private static func makeLog(_ settings: NavdSettings) -> Log {
    let useJournal =
      switch settings.logTarget {
      case "journal": true
      case "stderr": false
      default: JournalLogSink.isJournalAvailable()
      }
    let sink: any LogSink = useJournal ? JournalLogSink() : StderrLogSink()
    return Log(minimumLevel: LogLevel(configured: settings.logLevel), sink: sink)
  }

  /// Serves until stopped; returns the exit status.
  func run() -> Int32 {
    let signals = SignalWatcher(handlers: [
      SIGTERM: { self.stop(signal: "SIGTERM") }, SIGINT: { self.stop(signal: "SIGINT") },
      SIGHUP: { self.reload() }, SIGUSR1: { self.logStatus() }, SIGUSR2: { self.restart() },
    ])
    do {
      try server.start()
    } catch {
      let message = "\(error)" + (listener.bindHint.map { "\n" + $0 } ?? "")
      log.error("cannot start: \(message)")
      log.flush()
      StandardError.write("navd: \(message)\n")
      return 1
    }
    if !adopted.names.isEmpty {
      log.notice(
        "took over \(adopted.connections.count) connection(s) from the previous navd",
        [("event", "listening"), ("dropped", "\(adopted.dropped)")])
      for name in adopted.names { notifier.send("FDSTOREREMOVE=1\nFDNAME=\(name)") }
    }
    let reporter = StatusReporter(engine: service.engine, server: server, notifier: notifier)
    print("navd: listening on \(listener.description)")
    fflush(nil)  // nil flushes every stream, stdout included
    Task { [self] in
      let status = await reporter.text()
      notifier.ready(status: status)
      log.notice("ready", [("event", "ready"), ("listener", listener.description)])
    }
    server.waitUntilStopped()
    // Every acknowledged mutation was stored before its reply; closing writes what the redo
    // log holds into the database, removes the log, checkpoints the database and releases it
    // for the next navd.
    durable.store.close()
    var status: Int32 = 0
    if let handOver = handOver.withLock({ $0 })?.handOver {
      let (stored, refused) = FDStoreHandOver.store(handOver, notifier: notifier)
      log.notice(
        "handed \(stored) connection(s) and the socket to the service manager for the next navd",
        [("event", "stopped"), ("refused", "\(refused)")])
      status = Self.restartExitStatus
    }
    log.info("stopped", [("event", "stopped")])
    log.flush()
    notifier.flush()
    withExtendedLifetime((signals, reporter)) {}
    return status
  }

  /// Exit status after a hand-over: navd.service restarts on it
  /// (`RestartForceExitStatus=75`) and counts it as success (`SuccessExitStatus=75`).
  static let restartExitStatus: Int32 = 75

  /// SIGUSR2: a restart that keeps clients. Calls in progress finish; connections between
  /// calls and Subscribe/WatchActions streams go to the fd store (FDSTORE=1) with what
  /// the next navd needs to continue them; the rest end with ServerStopping
  /// (`restarting: true`). Exits 75, which makes systemd start the next navd at once.
  private func restart() {
    guard notifier.isEnabled else {
      log.warning(
        "SIGUSR2 asks for a restart that keeps clients, but no service manager holds descriptors "
          + "(NOTIFY_SOCKET is not set); ignored", [("event", "signal"), ("signal", "SIGUSR2")])
      return
    }
    guard stopRequests.add(1, ordering: .relaxed).newValue == 1 else { return }
    let timeout = settings.withLock { $0.stopTimeoutSeconds }
    log.notice("restarting on SIGUSR2: handing connections to the next navd", [("event", "stopping")])
    notifier.stopping(status: "restarting: handing connections to the next navd")
    let finalReply = ServerStopping(
      message: "navd is restarting; subscribe again with sinceVersion and epoch", restarting: true
    ).replyFrame
    // Under the lock: run() reads the receipt only after the loop stopped, which it cannot
    // do before this post.
    handOver.withLock { $0 = server.stopForHandOver(finalReply: finalReply, timeout: .seconds(timeout)) }
  }

  /// SIGTERM/SIGINT: stop gracefully (PROTOCOL.md "Stopping and restarting"); a second
  /// signal stops at once.
  private func stop(signal name: String) {
    let count = stopRequests.add(1, ordering: .relaxed).newValue
    guard count == 1 else {
      log.warning("\(name) again: stopping now", [("event", "signal")])
      server.stop()
      return
    }
    let timeout = settings.withLock { $0.stopTimeoutSeconds }
    log.notice(
      "stopping on \(name): finishing calls in progress, ending streams", [("event", "stopping"), ("signal", name)])
    notifier.stopping(status: "stopping: finishing \(server.statistics.openConnections) connection(s)")
    let finalReply = ServerStopping(message: "navd is stopping", restarting: false).replyFrame
    server.stopGracefully(finalReply: finalReply, timeout: .seconds(timeout))
  }

  /// SIGHUP: re-read the configuration files; apply what can change while running
  /// (`[Log] Level`, the reload hooks), say which changed keys need a restart. Clients
  /// stay connected. A bad file keeps the running configuration.
  private func reload() {
    notifier.reloading()
    log.info("reloading configuration", [("event", "signal"), ("signal", "SIGHUP"), ("path", configuration.path)])
    do throws(ConfigError) {
      let (new, files) = try configuration.load()
      let old = settings.withLock { $0 }
      for key in new.changedKeys(comparedTo: old) where !key.reloadable {
        log.notice(
          "\(key.section) \(key.name)= changed from \"\(key.current(old))\" to \"\(key.current(new))\"; "
            + "it takes effect when navd restarts", [("key", key.qualifiedName)])
      }
      log.setMinimumLevel(LogLevel(configured: new.logLevel))
      settings.withLock { current in
        for key in NavdSettings.keys where key.reloadable { try? key.assign(&current, key.current(new)) }
      }
      for hook in reloadHooks {
        do {
          try hook(files)
        } catch {
          log.error("access policy refused; the previous policy stays in force: \(error)")
        }
      }
      log.notice("configuration reloaded", [("event", "reloaded"), ("files", "\(files.count)")])
    } catch {
      log.error("reload failed, keeping the running configuration: \(error)", [("event", "reloaded")])
    }
    Task { [self] in notifier.ready(status: await StatusReporter.text(engine: service.engine, server: server)) }
  }

  /// SIGUSR1: one log line with the status (what STATUS= says).
  private func logStatus() {
    Task { [self] in
      let status = await StatusReporter.text(engine: service.engine, server: server)
      log.notice(status, [("event", "signal"), ("signal", "SIGUSR1")])
    }
  }
}
