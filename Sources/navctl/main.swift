import Foundation
import NavClient
import NavCtlKit

// navctl: parse (NavCtlKit, no IO), then talk to navd (Runner). Exit codes: ExitCode.

let invocation: Invocation
do {
  invocation = try ArgumentParser.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  Terminal.writeError(error.report)
  exit(ExitCode.usage.rawValue)
}

let environment = ProcessInfo.processInfo.environment
let style = RenderStyle.detect(
  isTerminal: Terminal.stdoutIsTerminal, environment: environment, options: invocation.options)
let client = NavClient(
  socketPath: invocation.options.socket,
  timeout: .milliseconds(Int((invocation.options.timeout ?? Runner.defaultTimeout) * 1000)))
let status = await Runner(invocation: invocation, client: client, style: style).run()
exit(status.rawValue)
