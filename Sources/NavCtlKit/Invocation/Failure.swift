import NavModel
import NavWire

/// Why a navctl command failed, in one of the classes `ExitCode` names, and how it is reported:
/// a text for people, or with `--json` one JSON object on stderr, `{"error": NAME, "parameters": {…}}`.
///
/// navd's own errors keep their Varlink name and parameters; failures that never reached navd
/// get a `navctl.` name (`navctl.UsageError`, `navctl.Unreachable`, `navctl.TimedOut`,
/// `navctl.Gone`, `navctl.RequestTooLarge`, `navctl.Failed`).
public enum Failure: Sendable, Hashable {
  /// navd answered with the Varlink error `name`.
  case remote(name: String, parameters: JSONValue)
  /// The command line was wrong.
  case usage(UsageError)
  /// navd could not be reached at `socket` (`reason`: strerror, or what refused a connect with
  /// EACCES), `errno` the error number; `advice`, when given, what to do instead of starting navd.
  case unreachable(socket: String, reason: String, errno: Int32, advice: String? = nil)
  /// No answer within `seconds`.
  case timedOut(socket: String, seconds: Double)
  /// navd went away: `after` seconds of trying to reconnect (`--follow-timeout`), or nil when
  /// the connection closed before a reply.
  case gone(socket: String, after: Double?)
  /// The request was not sent: it is `bytes` long, beyond navd's frame limit of `limit`.
  case requestTooLarge(bytes: Int, limit: Int)
  /// Anything else (a reply navctl cannot read, a failed system call).
  case failed(String)

  /// The error's name in `--json` reports.
  public var name: String {
    switch self {
    case .remote(let name, _): name
    case .usage: "navctl.UsageError"
    case .unreachable: "navctl.Unreachable"
    case .timedOut: "navctl.TimedOut"
    case .gone: "navctl.Gone"
    case .requestTooLarge: "navctl.RequestTooLarge"
    case .failed: "navctl.Failed"
    }
  }

  /// The status navctl exits with.
  public var exitCode: ExitCode {
    switch self {
    case .remote(let name, _): ExitCode.forError(named: name)
    case .usage: .usage
    case .unreachable: .unreachable
    case .timedOut: .timedOut
    case .gone: .gone
    case .requestTooLarge, .failed: .refused
    }
  }

  /// The error's parameters in `--json` reports (navd's as it sent them, plus `option`: the
  /// option or argument of `command` a wire field path stands for).
  public func parameters(command: String? = nil) -> JSONValue {
    switch self {
    case .remote(_, let parameters):
      guard var members = parameters.objectValue else { return parameters }
      if let field = parameters["field"]?.stringValue, let option = FieldNames.option(forField: field, command: command)
      {
        members["option"] = .string(option)
      }
      return .object(members)
    case .usage(let error):
      var members: [String: JSONValue] = ["message": .string(error.message)]
      if let command = error.command { members["command"] = .string(command) }
      return .object(members)
    case .unreachable(let socket, let reason, let errno, let advice):
      var members: [String: JSONValue] = [
        "socket": .string(socket), "message": .string(reason), "errno": .number(Double(errno)),
      ]
      if let advice { members["hint"] = .string(advice) }
      return .object(members)
    case .timedOut(let socket, let seconds):
      return ["socket": .string(socket), "seconds": .number(seconds), "message": .string(text)]
    case .gone(let socket, let after):
      var members: [String: JSONValue] = ["socket": .string(socket), "message": .string(text)]
      if let after { members["seconds"] = .number(after) }
      return .object(members)
    case .requestTooLarge(let bytes, let limit):
      return ["bytes": .number(Double(bytes)), "limit": .number(Double(limit)), "message": .string(text)]
    case .failed(let message):
      return ["message": .string(message)]
    }
  }

  /// What navctl prints on stderr: the text report, or with `json` the one-line JSON object.
  public func report(json: Bool, command: String? = nil, scene: String = "main") -> String {
    if json {
      let object: JSONValue = ["error": .string(name), "parameters": parameters(command: command)]
      return JSONWriter.string(object) + "\n"
    }
    switch self {
    case .remote(let name, let parameters):
      return ErrorReport.remote(name: name, parameters: parameters, scene: scene, command: command).text
    case .usage(let error):
      return error.report
    case .unreachable(let socket, let reason, _, let advice):
      return ErrorReport.unreachable(socket: socket, reason: reason, advice: advice)
    default:
      return "navctl: \(text)\n"
    }
  }

  /// One sentence for the failures that have no report of their own.
  var text: String {
    switch self {
    case .timedOut(let socket, let seconds):
      "navd at \(socket) did not answer within \(LayoutText.number(.number(seconds))) s "
        + "(it is running but busy or stuck; --timeout SECONDS waits longer)"
    case .gone(let socket, let after?):
      "navd at \(socket) went away and did not come back within \(LayoutText.number(.number(after))) s "
        + "(--follow-timeout SECONDS waits longer)"
    case .gone(let socket, nil):
      "navd at \(socket) went away: the connection closed before the reply arrived"
    case .requestTooLarge(let bytes, let limit):
      "the request is \(bytes) bytes, beyond navd's frame limit of \(limit) bytes "
        + "(PROTOCOL.md §9.13, navd --max-frame-bytes); nothing was sent: split it into smaller batches"
    case .failed(let message): message
    case .remote(let name, _): name
    case .usage(let error): error.message
    case .unreachable(let socket, let reason, _, _): "cannot reach navd at \(socket): \(reason)"
    }
  }
}
