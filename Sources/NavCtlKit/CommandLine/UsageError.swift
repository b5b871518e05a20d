/// A command-line mistake: navctl prints it with the command's usage and exits 2.
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What was wrong, in one sentence (without the `navctl:` prefix).
  public var message: String
  /// The command the mistake was made in (`push`, `left set`), when known; its usage is shown.
  public var command: String?

  /// A usage error; `command` names the command whose usage to show.
  public init(_ message: String, command: String? = nil) {
    self.message = message
    self.command = command
  }

  /// The message alone.
  public var description: String { message }

  /// What navctl prints on stderr: the message, the usage line and where to read more.
  public var report: String {
    var lines = ["navctl: \(message)"]
    if let command, let spec = CommandTable.spec(named: command) {
      lines.append("Usage: \(spec.usage)")
      lines.append("Try 'navctl \(command) --help' for more.")
    } else {
      lines.append("Try 'navctl --help' for the list of commands.")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
