import Foundation
import NavClient
import NavCtlKit

// navctl: parse (NavCtlKit, no IO), then talk to navd (Runner). Exit codes: ExitCode.

let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessInfo.processInfo.environment
var invocation: Invocation
do {
  invocation = try ArgumentParser.parse(arguments)
  if invocation.options.mutationId == nil, let id = environment["NAVCTL_MUTATION_ID"], !id.isEmpty {
    invocation.options.mutationId = try ValueReader.mutationId(id, option: "NAVCTL_MUTATION_ID")
  }
} catch {
  // The parse failed, so --json is looked for by hand (before a `--`, where it is an option).
  let json = arguments.prefix { $0 != "--" }.contains("--json")
  Terminal.writeError(Failure.usage(error).report(json: json))
  exit(ExitCode.usage.rawValue)
}

let style = RenderStyle.detect(
  isTerminal: Terminal.stdoutIsTerminal, environment: environment, options: invocation.options)
let client = NavClient(
  socketPath: invocation.options.socket,
  timeout: .milliseconds(Int((invocation.options.timeout ?? Runner.defaultTimeout) * 1000)))
let status = await Runner(invocation: invocation, client: client, style: style).run()
exit(status.rawValue)
