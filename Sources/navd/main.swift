import NavConfig
import NavSystem
import NavSystemd
import NavWire

#if canImport(Glibc)
  import Glibc
#endif

// navd: parse arguments, read the configuration, build the daemon (Daemon.swift, the
// composition root) and run it. Usage errors exit 2; configuration and startup
// failures exit 1; a graceful stop exits 0.

// Before anything starts a thread: every thread inherits the blocked signal mask.
SignalWatcher.blockHandled()
// Before anything allocates much: glibc gives back the free top of every arena, not
// only the main one's (ProcessHeap says why and what it measured).
ProcessHeap.fixTrimThreshold()
// Blocks up to 4 MiB come from the arenas: no mmap and munmap, and no wait for the
// memory-map lock, per large frame (ProcessHeap says why).
ProcessHeap.fixMmapThreshold()

func fail(_ message: String, code: Int32) -> Never {
  StandardError.write("navd: \(message)\n")
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

let configuration = Configuration(
  path: arguments.configPath ?? NavdSettings.defaultConfigPath, arguments: arguments,
  environment: ProcessEnvironment.variables)
let settings: NavdSettings
let files: [ConfigFile]
do {
  (settings, files) = try configuration.load()
} catch {
  fail("invalid configuration: \(error)", code: 1)
}

// Under systemd, libsystemd is needed for what follows; by hand it is never loaded.
do {
  try SystemdLibrary.loadIfNeeded(environment: configuration.environment, journalLog: settings.logTarget == "journal")
} catch {
  fail("\(error)", code: 1)
}

// Thousands of clients need thousands of descriptors: raise the soft limit to the hard one.
var fileLimit = rlimit()
if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &fileLimit) == 0, fileLimit.rlim_cur < fileLimit.rlim_max {
  fileLimit.rlim_cur = fileLimit.rlim_max
  _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &fileLimit)
}

let daemon: Daemon
do {
  daemon = try Daemon(
    configuration: configuration, settings: settings, files: files, passed: PassedSocket.takeFromEnvironment())
} catch {
  fail("\(error)", code: 1)
}
exit(daemon.run())
