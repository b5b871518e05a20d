import Foundation

/// Shell completion scripts, generated from `CommandTable`, so they complete exactly what the parser accepts.
///
/// Ids of navigation items and bar button items are completed from the live scene
/// (`navctl __ids navigation|bar`, with the `--socket` and `--scene` already typed), scene
/// names from navd's list (`navctl __complete scenes`). Only `FILE` arguments complete file names.
public enum CompletionScript {
  /// The script for `shell`.
  public static func script(for shell: Shell) -> String {
    switch shell {
    case .bash: bash
    case .zsh: zsh
    case .fish: fish
    }
  }

  /// A hint as one shell word: `ids:bar`, `file`, `choices:a,b`, or `none`.
  static func word(_ hint: ValueHint) -> String {
    switch hint {
    case .navigationItem: "ids:navigation"
    case .barButtonItem: "ids:bar"
    case .file: "file"
    case .scene: "scenes"
    case .command: "commands"
    case .choices(let choices): "choices:" + choices.joined(separator: ",")
    default: "none"
    }
  }

  /// Option names that take a value in any command or globally (the scanner skips their values).
  static var valueOptions: [String] {
    var seen: Set<String> = []
    return (GlobalOptions.specs + CommandTable.all.flatMap(\.options)).filter { $0.kind != .flag }.map(\.name)
      .filter { seen.insert($0).inserted }
  }

  /// For each option that takes a value: the commands that have it and its hint there
  /// (command "" for a global option, which applies everywhere). One shell `case` arm per option.
  static func valueOptionArms() -> [(name: String, arms: [(command: String, hint: ValueHint)])] {
    var order: [String] = []
    var arms: [String: [(command: String, hint: ValueHint)]] = [:]
    let all =
      GlobalOptions.specs.map { ("", $0) } + CommandTable.all.flatMap { spec in spec.options.map { (spec.name, $0) } }
    for (command, option) in all where option.kind != .flag {
      if arms[option.name] == nil { order.append(option.name) }
      arms[option.name, default: []].append((command, option.hint))
    }
    return order.map { ($0, arms[$0]!) }
  }

  /// First words that take a subcommand (`left`, `toolbar`, …).
  static var groups: [String] { CommandTable.commandWords.filter { !CommandTable.subcommands(of: $0).isEmpty } }

  /// The positional hints of a command, one word each; a trailing variadic repeats.
  static func positionalHints(_ spec: CommandSpec) -> String {
    spec.positionals.map { word($0.hint) }.joined(separator: " ")
  }

  /// Text safe inside single quotes.
  static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

  static var visibleGlobals: [OptionSpec] { GlobalOptions.specs }
}
