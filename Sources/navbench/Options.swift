import Foundation
import NavWire

/// What navbench was asked to do, parsed from its command line.
struct Options {
  enum Mode {
    /// Measure a running server over its socket.
    case server
    /// The in-process engine benchmark.
    case engine
    /// The instruction budget's fixed workloads, between a zero and a dump command.
    case instructions
    /// navd's start-up time (navbench starts navd itself).
    case startup(binary: String)
    /// Medians and ratios from results files.
    case report(navd: [String], redis: [String])
    case help
  }

  var mode = Mode.server
  var socketPath = NavSocketPath.defaultPath(environment: ProcessInfo.processInfo.environment).path
  var resp = false
  var scenarios = Scenario.allCases
  var settings = BenchSettings()
  var tsvPath: String?
  var engineMutations = 1_000_000
  var engineScenes = EngineScene.allCases
  var enginePipelineOnly = false
  var startupRuns = 20
  var startupStateScenes = 0
  var startupStateVersions = 1_000_000
  var navdArguments: [String] = []
  var zeroCommand = ""
  var dumpCommand = ""

  static let usage = """
    Usage: navbench [--socket PATH] [--resp] [OPTIONS]     measure a running navd (or Redis)
           navbench --engine [--mutations N] [--seconds S] [--scene NAME] [--pipeline-only]  the engine in process
           navbench --startup NAVD [--runs N] [--state-scenes N --state-versions N]
           navbench --instructions --zero-command CMD --dump-command CMD [--ops LIST]
                                                               the instruction budget's workloads
           navbench report --navd FILE... --redis FILE...   medians of rounds, navd/Redis ratios

    Measures a server over its Unix socket with one client harness and two
    protocols: Varlink for navd (Mutate changing one title, layout
    subscribers) and, with --resp, Redis's RESP (PUBLISH/SUBSCRIBE with a
    payload of the same size). Every loop is bounded by a count and a time.
    Prints a markdown table; --tsv FILE also writes the numbers for `report`.

    Scenarios (--scenarios, comma-separated; default all):
      idle        server RSS before any load
      many        --many subscribers on one channel: subscribe time, RSS each, latency
      roundtrip   one publish at a time: send to acknowledgement, p50/p99
      pipelined   publishes per second with --window in flight, server CPU per publish
      delivery    closed loop: latency to the first and last of N subscribers
      fanout      pipelined: versions visible per subscriber per second, writer's ack latency
      ops         for each op kind (--ops), on one scene of issue 25's shape (three screens,
                  bar button items on both sides, ten toolbar items with flexible spaces;
                  subscribers at width 768): round trip, delivery to the last of each of
                  --ops-subscribers, pipelined fan-out to each of --ops-fanout, server CPU
                  per round trip and per delivered update (Redis: PUBLISH of the same bytes)
      widths      navd only: --widths subscribers that all read at one width, then as many
                  each at its own width, on the ops scene (a right bar button item's title
                  per publish), closed loop: server CPU per publish for both and the ratio,
                  and the server's RSS per distinct width (settled)
      large       one client streams --large-frames publishes of close to 1 MiB (4 in flight):
                  another client's round trips meanwhile (p50, p99, max), frames per second,
                  server CPU per frame
      memory      server RSS with --memory-subscribers over --memory-mutations, in two bursts
                  (a tenth, then the rest): settled before, after a tenth and after (idle
                  2.5 s, median of 5 samples 0.1 s apart), the peak throughout, growth
                  after vs before and after vs a tenth

    Options:
      --socket PATH            the server's socket (default as navd's: $NAVD_SOCKET,
                               $XDG_RUNTIME_DIR/navd/navd.sock, ./.navd/navd.sock)
      --resp                   the server is Redis (RESP) instead of navd (Varlink)
      --tsv FILE               also write the results as TSV (key, label, unit, value)
      --iterations N           round-trip samples (default 5000; pipelined publishes 4×)
      --seconds S              time bound of each measurement (default 20)
      --window N               publishes in flight when pipelined (default 64)
      --payload-bytes N        Mutate parameters / PUBLISH payload size (default 200)
      --subscribers LIST       delivery: subscriber counts (default 1,16,64,256)
      --fanout LIST            fanout: subscriber counts (default 64,256)
      --fanout-messages N      fanout: publishes per run (default 20000)
      --ops LIST               ops and --engine: op kinds, comma-separated (default all:
                               \(OpKind.allCases.map(\.rawValue).joined(separator: ",")))
      --ops-subscribers LIST   ops: delivery subscriber counts (default 1,64,256)
      --ops-fanout LIST        ops: fan-out subscriber counts (default 64)
      --many N                 many: subscribers (default 10000)
      --widths N               widths: subscribers of each half (default 400; 0 or 1: skip)
      --many-rounds N          many: publishes timed (default 20)
      --large-frames N         large: frames streamed (default 100; 0 skips)
      --large-probe-rate N     large: the other client's round trips a second, at most
                               (default 0: a closed loop, as fast as it can)
      --memory-mutations N     memory: publishes (default 1000000)
      --memory-subscribers N   memory: subscribers (default 64)
      --memory-seconds S       memory: time bound, settling included (default 300)
      --mutations N            --engine: mutations per figure (default 1000000)
      --scene NAME             --engine: only this scene of the title changes (title or toolbar; default both)
      --pipeline-only          --engine: only the mutations per CPU second, no stages, no SceneEngine,
                               no reference-count timing (for callgrind: instructions per mutation)
      --zero-command CMD       --instructions: run (sh -c) once each workload is warm; {} is its name,
                               KIND.WORKLOAD.MUTATIONS (bench/instructions.sh: callgrind_control -z)
      --dump-command CMD       --instructions: run when it is done (callgrind_control --dump={} PID)
      --runs N                 --startup: starts timed (default 20)
      --state-scenes N         --startup: also time a start with N stored scenes (needs --state-dir)
      --state-versions N       --startup: versions stored on the first scene (default 1000000)
      --navd-arg ARG           --startup: one more argument for navd (repeat for several)
      -h, --help               print this help
    """

  struct UsageError: Error, CustomStringConvertible {
    var description: String
  }

  static func parse(_ arguments: [String]) throws(UsageError) -> Options {
    var options = Options()
    var rest = arguments[...]
    func value(_ option: String) throws(UsageError) -> String {
      guard let v = rest.popFirst() else { throw UsageError(description: "\(option) needs a value") }
      return v
    }
    func count(_ option: String, allowZero: Bool = false) throws(UsageError) -> Int {
      let text = try value(option)
      guard let n = Int(text), n > 0 || (allowZero && n == 0) else {
        throw UsageError(
          description: "\(option) takes a \(allowZero ? "whole number" : "positive whole number"), got \"\(text)\"")
      }
      return n
    }
    func seconds(_ option: String) throws(UsageError) -> Double {
      let text = try value(option)
      guard let s = Double(text), s > 0, s <= 3600 else {
        throw UsageError(description: "\(option) takes seconds between 0 and 3600, got \"\(text)\"")
      }
      return s
    }
    func counts(_ option: String) throws(UsageError) -> [Int] {
      let text = try value(option)
      let list = text.split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
      guard !list.isEmpty, list.count == text.split(separator: ",").count else {
        throw UsageError(description: "\(option) takes positive whole numbers separated by commas, got \"\(text)\"")
      }
      return list
    }
    if rest.first == "report" {
      rest.removeFirst()
      var navd: [String] = []
      var redis: [String] = []
      var side = ""
      while let argument = rest.popFirst() {
        switch argument {
        case "--navd", "--redis": side = argument
        default:
          if side == "--navd" {
            navd.append(argument)
          } else if side == "--redis" {
            redis.append(argument)
          } else {
            throw UsageError(description: "report: name files after --navd or --redis, got \"\(argument)\"")
          }
        }
      }
      guard !navd.isEmpty || !redis.isEmpty else { throw UsageError(description: "report needs results files") }
      options.mode = .report(navd: navd, redis: redis)
      return options
    }
    while let argument = rest.popFirst() {
      switch argument {
      case "--socket": options.socketPath = try value(argument)
      case "--resp": options.resp = true
      case "--engine": options.mode = .engine
      case "--instructions": options.mode = .instructions
      case "--zero-command": options.zeroCommand = try value(argument)
      case "--dump-command": options.dumpCommand = try value(argument)
      case "--startup": options.mode = .startup(binary: try value(argument))
      case "--tsv": options.tsvPath = try value(argument)
      case "--scenarios":
        let text = try value(argument)
        var chosen: [Scenario] = []
        for name in text.split(separator: ",") {
          guard let scenario = Scenario(rawValue: String(name)) else {
            throw UsageError(
              description:
                "--scenarios: no scenario \"\(name)\"; choose from \(Scenario.allCases.map(\.rawValue).joined(separator: ","))"
            )
          }
          chosen.append(scenario)
        }
        options.scenarios = chosen
      case "--iterations": options.settings.iterations = try count(argument)
      case "--seconds": options.settings.seconds = try seconds(argument)
      case "--window": options.settings.window = try count(argument)
      case "--payload-bytes": options.settings.payloadBytes = try count(argument)
      case "--subscribers": options.settings.deliveryCounts = try counts(argument)
      case "--fanout": options.settings.fanOutCounts = try counts(argument)
      case "--fanout-messages": options.settings.fanOutMessages = try count(argument)
      case "--ops":
        let text = try value(argument)
        var kinds: [OpKind] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
          guard let kind = OpKind(rawValue: String(name)) else {
            throw UsageError(
              description:
                "--ops: no op kind \"\(name)\"; choose from \(OpKind.allCases.map(\.rawValue).joined(separator: ","))")
          }
          kinds.append(kind)
        }
        options.settings.opKinds = kinds
      case "--ops-subscribers": options.settings.opDeliveryCounts = try counts(argument)
      case "--ops-fanout": options.settings.opFanOutCounts = try counts(argument)
      case "--many": options.settings.manySubscribers = try count(argument, allowZero: true)
      case "--widths": options.settings.widthSubscribers = try count(argument, allowZero: true)
      case "--many-rounds": options.settings.manyRounds = try count(argument)
      case "--large-frames": options.settings.largeFrames = try count(argument, allowZero: true)
      case "--large-probe-rate": options.settings.largeProbeRate = try count(argument, allowZero: true)
      case "--memory-mutations": options.settings.memoryMutations = try count(argument, allowZero: true)
      case "--memory-subscribers": options.settings.memorySubscribers = try count(argument)
      case "--memory-seconds": options.settings.memorySeconds = try seconds(argument)
      case "--mutations": options.engineMutations = try count(argument)
      case "--scene":
        let name = try value(argument)
        guard let scene = EngineScene(rawValue: name) else {
          throw UsageError(
            description:
              "--scene: no scene \"\(name)\"; choose from \(EngineScene.allCases.map(\.rawValue).joined(separator: ","))"
          )
        }
        options.engineScenes = [scene]
      case "--pipeline-only": options.enginePipelineOnly = true
      case "--runs": options.startupRuns = try count(argument)
      case "--navd-arg": options.navdArguments.append(try value(argument))
      case "--state-scenes": options.startupStateScenes = try count(argument, allowZero: true)
      case "--state-versions": options.startupStateVersions = try count(argument)
      case "-h", "--help": options.mode = .help
      default: throw UsageError(description: "unknown option \(argument)")
      }
    }
    if case .instructions = options.mode, options.zeroCommand.isEmpty || options.dumpCommand.isEmpty {
      throw UsageError(description: "--instructions needs --zero-command and --dump-command")
    }
    return options
  }
}
