import NavAccess
import NavConfig
import NavEngine
import NavServer
import NavService
import NavStore
import Varlink

// The wiring between the server, the store and the io.navd implementation.

/// The io.navd interface navd serves, with its IDL for GetInterfaceDescription.
func makeInterfaces() -> [InterfaceDescription] {
  [InterfaceDescription(idl: navdInterfaceDefinition)!]
}

/// What navd holds while it runs: its state directory's lock and the open store, with
/// the scenes it held at start-up.
struct DurableState {
  let directory: String
  let lock: StateLock
  let store: SQLiteSceneStore
  let scenes: [StoredScene]
}

/// Resolves, checks and locks the state directory, then opens, checks and loads the
/// database: everything before serving. Throws with a message that says what is wrong.
func openDurableState(_ settings: NavdSettings, environment: [String: String]) throws -> DurableState {
  let directory = try StateDirectory.resolve(explicit: settings.stateDirectory, environment: environment).path
  try StateDirectory.prepare(directory)
  let lock = try StateLock(directory: directory)
  let store = try SQLiteSceneStore(
    path: directory + "/" + SQLiteSceneStore.fileName, durability: Durability(rawValue: settings.durability) ?? .normal,
    syncIntervalMilliseconds: settings.syncIntervalMilliseconds, diskBudgetBytes: settings.diskBudgetBytes)
  return DurableState(directory: directory, lock: lock, store: store, scenes: try store.load())
}

/// The io.navd service over an engine that starts from the stored scenes (each at its
/// stored version and epoch); throws when a stored history does not replay.
func makeService(
  _ settings: NavdSettings, access: AccessControl, durable: DurableState, executor: EventLoopExecutor
) throws -> NavdService {
  var configuration = EngineConfiguration()
  configuration.subscriberQueueBytes = settings.subscriberQueueBytes
  configuration.layoutCacheBytes = settings.layoutCacheBytes
  configuration.opLogCapacity = settings.opLogVersions
  configuration.maxScenes = settings.maxScenes
  configuration.maxScenesPerUser = settings.maxScenesPerUID
  configuration.maxWaitedScenesPerUser = settings.maxWaitedScenesPerUID
  configuration.maxSubscribersPerScene = settings.maxSubscribersPerScene
  configuration.opLogBytes = settings.opLogBytes
  configuration.snapshotInterval = settings.snapshotInterval
  let engine: Engine
  do {
    engine = try Engine(
      configuration: configuration, store: durable.store, restoring: durable.scenes, executor: executor)
  } catch {
    throw durable.store.explained(error)
  }
  return NavdService(engine: engine, access: access, executor: executor)
}
