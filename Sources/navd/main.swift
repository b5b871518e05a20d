import Foundation
import NavAccess
import NavServer
import NavService
import NavWire

#if canImport(Glibc)
  import Glibc
#endif

// navd: parse arguments, pick and prepare the socket path, start the server, and stop
// it cleanly on SIGTERM/SIGINT (exit 0). Usage errors exit 2; startup failures exit 1.

func fail(_ message: String, code: Int32) -> Never {
  FileHandle.standardError.write(Data("navd: \(message)\n".utf8))
  exit(code)
}

let arguments: Arguments
do {
  arguments = try Arguments.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  fail("\(error)\nTry 'navd --help'.", code: 2)
}

switch arguments.command {
case .help:
  print(Arguments.usage)
  exit(0)
case .version:
  print("navd \(NavdRelease.version) (protocol \(NavProtocol.version))")
  exit(0)
case .run:
  break
}

// The state directory first: a second navd on the same state is refused before it touches a socket.
let durable: DurableState
do {
  durable = try openDurableState(arguments, environment: ProcessInfo.processInfo.environment)
} catch {
  fail("\(error)", code: 1)
}

let socket: NavSocketPath =
  arguments.socketPath.map { NavSocketPath(path: $0) }
  ?? NavSocketPath.defaultPath(environment: ProcessInfo.processInfo.environment)

let sharedGroup: UInt32?
do {
  sharedGroup = try socketGroup(arguments)
} catch {
  fail("\(error)\nTry 'navd --help'.", code: 2)
}

do {
  try SocketPath.prepare(
    socket.path, creatingDirectory: socket.directoryToCreate, directoryMode: sharedGroup == nil ? 0o700 : 0o750,
    group: sharedGroup)
} catch {
  fail("\(error)", code: 1)
}

var configuration = ServerConfiguration(socketPath: socket.path)
configuration.serveNavd()
if let sharedGroup {
  configuration.socketGroup = sharedGroup
  configuration.socketMode = 0o660
}
if let value = arguments.maxConnections { configuration.maxConnections = value }
if let value = arguments.maxFrameBytes { configuration.maxFrameBytes = value }
if let value = arguments.partialFrameTimeoutSeconds { configuration.partialFrameTimeout = .seconds(value) }
if let value = arguments.maxConnectionsPerUser { configuration.maxConnectionsPerUser = value }
if let value = arguments.maxOutputBytesPerUser { configuration.maxOutputBytesPerUser = value }
if let value = arguments.subscriberStallSeconds { configuration.outputStallTimeout = .seconds(value) }
if let value = arguments.idleTimeoutSeconds { configuration.idleTimeout = value == 0 ? nil : .seconds(value) }

// Thousands of clients need thousands of descriptors: raise the soft limit to the hard one.
var fileLimit = rlimit()
if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &fileLimit) == 0, fileLimit.rlim_cur < fileLimit.rlim_max {
  fileLimit.rlim_cur = fileLimit.rlim_max
  _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &fileLimit)
}

let log = Log(minimumLevel: ProcessInfo.processInfo.environment["NAVD_DEBUG"] == nil ? .info : .debug)
let access: AccessControl
do {
  access = try makeAccessControl(arguments)
} catch {
  fail("\(error)", code: 1)
}
let service: NavdService
do {
  service = try makeService(arguments, access: access, durable: durable)
} catch {
  fail("\(error)", code: 1)
}
log.info(
  "state in \(durable.directory) (durability \(durable.store.durability.rawValue)): \(durable.scenes.count) scene(s) loaded"
)
let policyReloads = watchPolicyReloads(access, arguments, log: log)
let server = VarlinkServer(configuration: configuration, interfaces: makeInterfaces(), handler: service, log: log)
service.setConnectionCounter { server.statistics.openConnections }
service.setTaskExecutor(server.executor)

let signals = SignalWatcher { number in
  log.info("received signal \(number); stopping")
  server.stop()
}

do {
  try server.start()
} catch {
  fail("\(error)", code: 1)
}

print("navd: listening on unix:\(socket.path)")
fflush(nil)  // nil flushes every stream, stdout included (stdout itself is not concurrency-safe to name)

server.waitUntilStopped()
durable.store.close()
log.flush()
withExtendedLifetime((signals, policyReloads)) {}
exit(0)
