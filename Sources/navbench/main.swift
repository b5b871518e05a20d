import Foundation
import Glibc

// navbench: one client harness for navd (Varlink) and Redis (RESP), the
// in-process engine benchmark, navd's start-up time, and the table that
// compares rounds of both. Prints markdown with the command that produced it.

func fail(_ message: String, code: Int32) -> Never {
  FileHandle.standardError.write(Data("navbench: \(message)\n".utf8))
  exit(code)
}

let options: Options
do {
  options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  fail("\(error)\nTry 'navbench --help'.", code: 2)
}

// Thousands of subscribers need thousands of descriptors: raise the soft limit to the hard one.
var fileLimit = rlimit()
if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &fileLimit) == 0, fileLimit.rlim_cur < fileLimit.rlim_max {
  fileLimit.rlim_cur = fileLimit.rlim_max
  _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &fileLimit)
}

let measurements = Measurements()
do {
  switch options.mode {
  case .help:
    print(Options.usage)
    exit(0)
  case .report(let navd, let redis):
    print(try ComparisonTable(navdFiles: navd, redisFiles: redis).markdown)
    exit(0)
  case .server:
    print("$ navbench \(CommandLine.arguments.dropFirst().joined(separator: " "))\n")
    let target: any PubSubTarget =
      options.resp
      ? RedisTarget(socketPath: options.socketPath, payloadBytes: options.settings.payloadBytes)
      : NavdTarget(socketPath: options.socketPath, payloadBytes: options.settings.payloadBytes)
    let pid = try? target.serverPid()
    let bench = Bench(target: target, settings: options.settings, measurements: measurements, pid: pid)
    try bench.run(options.scenarios)
  case .engine:
    print("$ navbench \(CommandLine.arguments.dropFirst().joined(separator: " "))\n")
    let seconds = options.settings.seconds
    let scenes = options.engineScenes
    let bench = EngineBench(mutations: options.engineMutations, seconds: seconds, measurements: measurements)
    try bench.run(scenes, kinds: options.settings.opKinds, stages: !options.enginePipelineOnly)
    if !options.enginePipelineOnly {
      try await EngineActorBench(mutations: options.engineMutations, seconds: seconds, measurements: measurements)
        .run(scenes)
      RefcountCost(measurements: measurements).run()
    }
  case .instructions:
    print("$ navbench \(CommandLine.arguments.dropFirst().joined(separator: " "))\n")
    try InstructionWorkloads(
      target: NavdTarget(socketPath: options.socketPath, payloadBytes: options.settings.payloadBytes),
      kinds: options.settings.opKinds, zeroCommand: options.zeroCommand, dumpCommand: options.dumpCommand,
      measurements: measurements
    ).runAll()
  case .startup(let binary):
    print("$ navbench \(CommandLine.arguments.dropFirst().joined(separator: " "))\n")
    try StartupBench(
      binary: binary, extraArguments: options.navdArguments, runs: options.startupRuns, measurements: measurements,
      stateScenes: options.startupStateScenes,
      stateVersions: options.startupStateVersions, populateSeconds: options.settings.memorySeconds,
      window: options.settings.window
    ).run()
  }
} catch {
  if let path = options.tsvPath { try? measurements.write(toFile: path) }
  fail("\(error)", code: 1)
}
if let path = options.tsvPath {
  do { try measurements.write(toFile: path) } catch { fail("cannot write \(path): \(error)", code: 1) }
}
