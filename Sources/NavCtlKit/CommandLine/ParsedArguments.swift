/// The words of one command line sorted into options and positional arguments,
/// as the command's spec describes them; builders read typed values from it.
public struct ParsedArguments: Sendable, Hashable {
  /// The command's name (`push`, `left set`).
  public var command: String
  /// Flags that were given.
  public var flags: Set<String> = []
  /// Values of value and repeated options, in the order given.
  public var values: [String: [String]] = [:]
  /// Words of each positional argument, by its placeholder name.
  public var positionals: [String: [String]] = [:]

  /// Arguments of `command`, with nothing given yet.
  public init(command: String) {
    self.command = command
  }

  /// Whether the flag `name` (`--animated`) was given.
  public func flag(_ name: String) -> Bool { flags.contains(name) }

  /// The value of option `name`, if given.
  public func value(_ name: String) -> String? { values[name]?.last }

  /// Every value of a repeated option, in order; each value may also list several words separated by commas.
  public func list(_ name: String) -> [String] {
    (values[name] ?? []).flatMap { $0.split(separator: ",", omittingEmptySubsequences: true).map(String.init) }
  }

  /// The word of positional `name`, if given.
  public func positional(_ name: String) -> String? { positionals[name]?.first }

  /// Every word of a variadic positional, in order.
  public func positionalList(_ name: String) -> [String] { positionals[name] ?? [] }

  /// A usage error attributed to this command.
  public func error(_ message: String) -> UsageError { UsageError(message, command: command) }
}
