import Foundation
import NavClient
import NavCtlKit
import NavModel
import NavSystem
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
    } catch is CancellationError {
      return .success
    } catch {
      let failure = failure(error)
      Terminal.writeError(failure.report(json: options.json, command: invocation.command, scene: options.scene))
      return failure.exitCode
    }
  }

  private func perform() async throws -> ExitCode {
    var state = SceneState.empty
    var stateReply: JSONValue = .null
    if invocation.needsState {
      do {
        let received = try await client.send(invocation.stateCall)
        state = received.reply.state
        stateReply = received.parameters
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
      let only = options.sceneGiven ? options.scene : nil
      if directory == nil, let online = await exportOnline(scene: only) { return online }
      return StateFiles.export(stateDirectory: directory, scene: options.sceneGiven ? options.scene : nil)
    case .importState(let directory, let source):
      let file: ExportFile
      do {
        file = try ExportFile(source)
      } catch let error as UsageError {
        Terminal.writeError(error.report)
        return .usage
      }
      if directory == nil, let online = await importOnline(file) { return online }
      return await StateFiles.importArchive(stateDirectory: directory, file: file)
    case .listIds:
      Terminal.write(try ReplyPresenter.present(invocation, reply: stateReply, style: style).stdout)
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
    guard let request = invocation.request(ops: ops, terminalColumns: Terminal.columns, clientId: Self.clientId)
    else { return .success }
    if request.more { return try await stream(request) }
    let reply = try await send(request.call)
    let output = try ReplyPresenter.present(
      invocation, reply: reply, style: style, columns: Terminal.columns, build: build)
    Terminal.write(output.stdout)
    Terminal.writeError(output.stderr)
    return .success
  }

  /// `watch` and `actions`: print each reply as it comes, until interrupted (or navd is gone).
  private func stream(_ request: NavRequest) async throws -> ExitCode {
    switch invocation.action {
    case .watch(let columns, let waitForScene, let follow):
      let policy = Self.policy(follow)
      if options.json {
        for try await update in updates(width: request.parameters["width"]?.numberValue, waitForScene, policy) {
          Terminal.write(ReplyPresenter.line(update.frame))
        }
      } else if let columns {
        try await draw(columns: columns, waitForScene: waitForScene, policy)
      } else {
        try await drawFollowingResizes(waitForScene: waitForScene, policy)
      }
    case .watchActions(let follow):
      for try await reply in client.replies(request.call, follow: Self.policy(follow)) {
        Terminal.write(ReplyPresenter.activation(reply, json: options.json))
      }
    default:
      for try await reply in client.replies(request.call) {
        Terminal.write(ReplyPresenter.line(reply))
      }
    }
    return .success
  }

  /// Sends a typed call through NavClient: the reply is decoded as its type (a reply of the
  /// wrong shape fails as a protocol violation); what is printed is read from the parameters
  /// navd sent, so `--json` shows the reply as it came.
  private func send<Call: NavCall>(_ call: Call) async throws -> JSONValue {
    try await client.send(call).parameters
  }

  static func policy(_ follow: Follow) -> FollowPolicy {
    FollowPolicy(reconnects: follow.enabled, giveUpAfter: .milliseconds(Int(follow.timeout * 1000)))
  }

  private func updates(width: Double?, _ waitForScene: Bool, _ policy: FollowPolicy) -> DocumentUpdates {
    client.updates(scene: options.scene, view: .layout, width: width, waitForScene: waitForScene, follow: policy)
  }

  /// Draws every update of the layout resolved at `columns`, in place on a terminal.
  private func draw(columns: Int, waitForScene: Bool, _ policy: FollowPolicy) async throws {
    for try await update in updates(width: BarRenderer.layoutWidth(forColumns: columns), waitForScene, policy) {
      Terminal.write(
        try ReplyPresenter.watchFrame(
          document: update.document, columns: columns, style: style, clear: Terminal.stdoutIsTerminal))
    }
  }

  /// `watch` without `--width`: on every terminal resize, follow the layout at the new width
  /// (overflow depends on it), starting with a fresh drawing.
  ///
  /// One SIGWINCH watcher serves the whole run (`ResizeSignal.events`): a drawing task per
  /// width, replaced on each resize; the first to end (an error, or navd gone) ends the watch.
  private func drawFollowingResizes(waitForScene: Bool, _ policy: FollowPolicy) async throws {
    enum Event: Sendable {
      case resized
      case ended(round: Int, failure: (any Error)?)
    }
    let (events, sink) = AsyncStream.makeStream(of: Event.self)
    let resizes = Task {
      for await _ in ResizeSignal.events { sink.yield(.resized) }
    }
    defer { resizes.cancel() }
    var round = 0
    func start() -> Task<Void, Never> {
      let columns = Terminal.columns
      let current = round
      return Task {
        do {
          try await draw(columns: columns, waitForScene: waitForScene, policy)
          sink.yield(.ended(round: current, failure: nil))
        } catch {
          sink.yield(.ended(round: current, failure: error))
        }
      }
    }
    var drawing = start()
    defer { drawing.cancel() }
    for await event in events {
      switch event {
      case .resized:
        drawing.cancel()
        round += 1
        drawing = start()
      case .ended(let ended, let failure) where ended == round:
        if let failure, !(failure is CancellationError) { throw failure }
        return
      case .ended:
        continue
      }
    }
  }

  /// The failure class of anything `perform` throws.
  private func failure(_ error: any Error) -> Failure {
    switch error {
    case let error as UsageError: return .usage(error)
    case let error as NavError:
      // Found against the state read before sending (MutationPlan): reported as navd would.
      return .remote(name: error.errorName, parameters: error.parameters)
    case let error as NavClientError: return failure(error)
    default: return .failed(String(describing: error))
    }
  }

  func failure(_ error: NavClientError) -> Failure {
    switch error {
    case .remote(let name, let parameters):
      return .remote(name: name, parameters: parameters)
    case .unreachable(let path, EACCES, _):
      let diagnosis = SocketPermission.diagnose(path)
      return .unreachable(socket: path, reason: diagnosis.problem, errno: EACCES, advice: diagnosis.remedy)
    case .unreachable(let path, let errno, _):
      return .unreachable(socket: path, reason: String(cString: strerror(errno)), errno: errno)
    case .timedOut:
      return .timedOut(socket: client.socketPath, seconds: options.timeout ?? Self.defaultTimeout)
    case .disconnected:
      return .gone(socket: client.socketPath, after: nil)
    case .gone(let path, let after):
      let (seconds, attoseconds) = after.components
      return .gone(socket: path, after: Double(seconds) + Double(attoseconds) / 1e18)
    case .requestTooLarge(let bytes, let limit):
      return .requestTooLarge(bytes: bytes, limit: limit)
    case .protocolViolation, .system:
      return .failed(error.description)
    }
  }

  static let defaultTimeout = 5.0

  /// The `clientId` of mutations sent with a mutation id: the same for every run by this user,
  /// so that navd recognises a retry (CONFLICTS.md I1).
  static var clientId: String { "navctl-uid-\(getuid())" }

  static func read(_ source: ApplySource) throws -> String {
    switch source {
    case .standardInput:
      return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    case .file(let path):
      guard let data = FileManager.default.contents(atPath: path) else {
        throw UsageError("cannot read \(path)", command: "apply")
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
