import Foundation
import NavClient
import NavCtlKit
import NavModel
import NavWire

/// Runs one parsed invocation against navd and returns the exit status.
///
/// Everything user-facing (parsing, texts, drawings, exit codes) comes from
/// NavCtlKit; this file only does the IO.
struct Runner {
  let invocation: Invocation
  let client: NavClient
  let style: RenderStyle

  var options: GlobalOptions { invocation.options }

  func run() async -> ExitCode {
    do {
      return try await perform()
    } catch let error as NavClientError {
      return report(error)
    } catch let error as UsageError {
      Terminal.writeError(error.report)
      return .usage
    } catch let error as NavError {
      Terminal.writeError("navctl: \(error.code.rawValue): \(error.message)\n")
      return .refused
    } catch is CancellationError {
      return .success
    } catch {
      Terminal.writeError("navctl: \(error)\n")
      return .refused
    }
  }

  private func perform() async throws -> ExitCode {
    var state = SceneState.empty
    var stateReply: JSONValue = .null
    if invocation.needsState {
      do {
        stateReply = try await client.call(
          method: invocation.stateRequest.method, parameters: invocation.stateRequest.parameters.objectValue ?? [:])
        state = try SceneState(json: stateReply["state"] ?? .null)
      } catch let error as NavClientError where error.remoteName == NavErrorName.sceneNotFound.rawValue {
        state = .empty
        stateReply = StateReply(version: 0, epoch: nil, state: .empty).parameters
      }
    }
    var build: MutationBuild?
    var ops: [Op] = []
    switch invocation.action {
    case .help(let text):
      Terminal.write(text)
      return .success
    case .version:
      Terminal.write("navctl \(NavdRelease.version) (protocol \(NavProtocol.version))\n")
      return .success
    case .completion(let shell):
      Terminal.write(CompletionScript.script(for: shell))
      return .success
    case .exportState(let directory):
      return StateFiles.export(stateDirectory: directory, scene: options.sceneGiven ? options.scene : nil)
    case .importState(let directory, let source):
      return StateFiles.importArchive(stateDirectory: directory, source: source)
    case .listIds:
      Terminal.write(ReplyPresenter.present(invocation, reply: stateReply, style: style).stdout)
      return .success
    case .mutate(let plan):
      build = try plan.ops(for: state)
      ops = build?.ops ?? []
      if ops.isEmpty {
        Terminal.writeError("navctl: nothing to change\n")
        return .success
      }
    case .apply(let source):
      ops = try ApplyDocument.ops(from: try Self.read(source), source: Self.name(source))
    default:
      break
    }
    guard let request = invocation.request(ops: ops, terminalColumns: Terminal.columns) else { return .success }
    if request.more { return try await stream(request) }
    let reply = try await client.call(method: request.method, parameters: request.parameters.objectValue ?? [:])
    let output = ReplyPresenter.present(invocation, reply: reply, style: style, columns: Terminal.columns, build: build)
    Terminal.write(output.stdout)
    Terminal.writeError(output.stderr)
    return .success
  }

  /// `watch` and `actions`: print each reply as it comes, until interrupted.
  private func stream(_ request: NavRequest) async throws -> ExitCode {
    switch invocation.action {
    case .watch(let columns, let waitForScene) where !options.json:
      if let columns {
        try await draw(columns: columns, waitForScene: waitForScene)
      } else {
        try await drawFollowingResizes(waitForScene: waitForScene)
      }
    case .watchActions:
      for try await reply in client.replies(method: request.method, parameters: request.parameters.objectValue ?? [:]) {
        Terminal.write(ReplyPresenter.activation(reply, json: options.json))
      }
    default:
      for try await reply in client.replies(method: request.method, parameters: request.parameters.objectValue ?? [:]) {
        Terminal.write(ReplyPresenter.line(reply))
      }
    }
    return .success
  }

  /// Draws every update of the layout resolved at `columns`, in place on a terminal.
  private func draw(columns: Int, waitForScene: Bool) async throws {
    let width = BarRenderer.layoutWidth(forColumns: columns)
    for try await update in client.updates(
      scene: options.scene, view: .layout, width: width, waitForScene: waitForScene)
    {
      Terminal.write(
        ReplyPresenter.watchFrame(
          document: update.document, columns: columns, style: style, clear: Terminal.stdoutIsTerminal))
    }
  }

  /// `watch` without `--width`: on every terminal resize, follow the layout at the new width
  /// (overflow depends on it), starting with a fresh drawing.
  private func drawFollowingResizes(waitForScene: Bool) async throws {
    enum Round: Sendable {
      case resized, ended
    }
    while true {
      let columns = Terminal.columns
      let round = try await withThrowingTaskGroup(of: Round.self) { group in
        group.addTask {
          try await draw(columns: columns, waitForScene: waitForScene)
          return .ended
        }
        group.addTask {
          for await _ in ResizeSignal.stream() { return .resized }
          return .ended
        }
        defer { group.cancelAll() }
        return try await group.next() ?? .ended
      }
      if round == .ended { return }
    }
  }

  private func report(_ error: NavClientError) -> ExitCode {
    switch error {
    case .remote(let name, let parameters):
      let (text, code) = ErrorReport.remote(name: name, parameters: parameters, scene: options.scene)
      Terminal.writeError(text)
      return code
    case .unreachable(let path, let errno, _):
      Terminal.writeError(ErrorReport.unreachable(socket: path, reason: String(cString: strerror(errno))))
      return .unreachable
    case .timedOut:
      Terminal.writeError(
        ErrorReport.unreachable(
          socket: client.socketPath, reason: "no answer within \(options.timeout ?? Self.defaultTimeout) s"))
      return .unreachable
    default:
      Terminal.writeError("navctl: \(error)\n")
      return .refused
    }
  }

  static let defaultTimeout = 5.0

  static func read(_ source: ApplySource, command: String = "apply") throws -> String {
    switch source {
    case .standardInput:
      return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    case .file(let path):
      guard let data = FileManager.default.contents(atPath: path) else {
        throw UsageError("cannot read \(path)", command: command)
      }
      return String(decoding: data, as: UTF8.self)
    }
  }

  static func name(_ source: ApplySource) -> String {
    switch source {
    case .standardInput: "standard input"
    case .file(let path): path
    }
  }
}
