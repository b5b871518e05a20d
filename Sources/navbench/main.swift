import Foundation
import NavWire

// navbench: measures a running navd over its socket and prints a table,
// with the command line that produced it.

let usage = """
  Usage: navbench [--socket PATH] [--iterations N] [--subscribers 1,16,64,256] [--window N]

  Measures a running navd: Mutate round trip (p50/p99), pipelined Mutate
  throughput, and the latency from Mutate to the update reaching the first and
  the last of N layout subscribers. Start navd first (`navd --socket PATH`).
  Uses the scenes bench-rt, bench-pipe and bench-fan-N.

  Options:
    --socket PATH         navd's socket (default: as navd: $NAVD_SOCKET, $XDG_RUNTIME_DIR/navd/navd.sock, ./.navd/navd.sock)
    --iterations N        samples per measurement (default 5000; fan-out uses N/10 rounds, at least 200)
    --subscribers LIST    subscriber counts for fan-out (default 1,16,64,256)
    --window N            calls in flight for the pipelined measurement (default 64)
  """

var socketPath = NavSocketPath.defaultPath(environment: ProcessInfo.processInfo.environment).path
var iterations = 5000
var subscriberCounts = [1, 16, 64, 256]
var window = 64
var arguments = CommandLine.arguments.dropFirst()
@MainActor func value(_ option: String) -> String {
  guard let v = arguments.popFirst() else {
    FileHandle.standardError.write(Data("navbench: \(option) needs a value\n".utf8))
    exit(2)
  }
  return v
}
func number(_ option: String, _ text: String) -> Int {
  guard let n = Int(text), n > 0 else {
    FileHandle.standardError.write(Data("navbench: \(option) takes a positive whole number, got \"\(text)\"\n".utf8))
    exit(2)
  }
  return n
}
while let argument = arguments.popFirst() {
  switch argument {
  case "--socket": socketPath = value(argument)
  case "--iterations": iterations = number(argument, value(argument))
  case "--window": window = number(argument, value(argument))
  case "--subscribers":
    subscriberCounts = value(argument).split(separator: ",").map { number("--subscribers", String($0)) }
  case "-h", "--help":
    print(usage)
    exit(0)
  default:
    FileHandle.standardError.write(Data("navbench: unknown option \(argument)\n\(usage)\n".utf8))
    exit(2)
  }
}

let benchmarks = Benchmarks(socketPath: socketPath, iterations: iterations)
do {
  print("$ navbench \(CommandLine.arguments.dropFirst().joined(separator: " "))")
  print("socket unix:\(socketPath), \(iterations) iterations\n")
  let roundTrip = try benchmarks.roundTrip()
  print("| measurement | p50 µs | p99 µs | rate |")
  print("|---|---|---|---|")
  print("| Mutate round trip | \(format(roundTrip.p50)) | \(format(roundTrip.p99)) | |")
  let rate = try benchmarks.pipelined(window: window)
  print("| Mutate pipelined (window \(window)) | | | \(format(rate, decimals: 0)) /s |")
  for count in subscriberCounts {
    let rounds = max(200, iterations / 10)
    let (first, last) = try benchmarks.fanOut(subscribers: count, rounds: rounds)
    print("| Mutate → first of \(count) subscribers | \(format(first.p50)) | \(format(first.p99)) | |")
    print("| Mutate → last of \(count) subscribers | \(format(last.p50)) | \(format(last.p99)) | |")
  }
} catch {
  FileHandle.standardError.write(Data("navbench: \(error)\n".utf8))
  exit(1)
}
