import NavEngine
import NavServer
import NavSystemd

/// Keeps the service manager's `STATUS=` current: scenes, clients, subscribers and the
/// newest version, checked every second and sent only when it changed (so at most one
/// datagram a second, none while nothing happens).
final class StatusReporter: Sendable {
  private let engine: Engine
  private let server: VarlinkServer
  private let notifier: ServiceNotifier
  private let task: Task<Void, Never>?

  init(engine: Engine, server: VarlinkServer, notifier: ServiceNotifier) {
    self.engine = engine
    self.server = server
    self.notifier = notifier
    guard notifier.isEnabled else {
      task = nil
      return
    }
    task = Task { [engine, server, notifier] in
      while !Task.isCancelled {
        try? await Task.sleep(for: .seconds(1))
        notifier.status(await Self.text(engine: engine, server: server))
      }
    }
  }

  deinit { task?.cancel() }

  /// The status line now, e.g. `serving: 2 scenes, 5 clients, 3 subscribers; newest version 41 (main)`.
  func text() async -> String { await Self.text(engine: engine, server: server) }

  /// The status line of `engine` and `server`.
  static func text(engine: Engine, server: VarlinkServer) async -> String {
    var subscribers = 0
    var newest: (scene: String, version: UInt64)?
    let names = engine.sceneNames
    for name in names {
      guard let scene = try? engine.scene(name) else { continue }
      let (version, count) = await scene.summary
      subscribers += count
      if version > (newest?.version ?? 0) { newest = (name, version) }
    }
    let clients = server.statistics.openConnections
    let last = newest.map { "newest version \($0.version) (\($0.scene))" } ?? "no changes yet"
    return "serving: \(names.count) scene\(names.count == 1 ? "" : "s"), \(clients) client\(clients == 1 ? "" : "s"), "
      + "\(subscribers) subscriber\(subscribers == 1 ? "" : "s"); \(last)"
  }
}
