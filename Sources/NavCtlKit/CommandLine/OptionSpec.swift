/// One option of a command (or a global option): its name, how it takes values, and its help.
///
/// The parser, `--help`, the completion scripts and the man page all read
/// these specs, so what navctl accepts and what it documents cannot drift.
public struct OptionSpec: Sendable, Hashable {
  /// How an option takes values.
  public enum Kind: Sendable, Hashable {
    /// `--animated`: present or absent.
    case flag
    /// `--id ID`: one value; giving it twice is a usage error.
    case value
    /// `--left ID`: may be given many times; each value is kept in order.
    case repeated
  }

  /// The long name with its dashes, e.g. `--id`.
  public var name: String
  /// A one-letter alias with its dash (`-h`), if any.
  public var shortName: String?
  /// Flag, single value or repeated.
  public var kind: Kind
  /// The placeholder shown in usage (`ID`, `COLOR`); empty for flags.
  public var valueName: String
  /// One line for `--help` and the man page.
  public var help: String
  /// What the value is, for completion.
  public var hint: ValueHint

  /// A flag: present or absent.
  public static func flag(_ name: String, short: String? = nil, _ help: String) -> OptionSpec {
    OptionSpec(name: name, shortName: short, kind: .flag, valueName: "", help: help, hint: .none)
  }

  /// An option that takes one value.
  public static func value(_ name: String, _ valueName: String, _ help: String, hint: ValueHint = .text) -> OptionSpec {
    OptionSpec(name: name, shortName: nil, kind: .value, valueName: valueName, help: help, hint: hint)
  }

  /// An option that may be repeated; its values are kept in order.
  public static func repeated(_ name: String, _ valueName: String, _ help: String, hint: ValueHint = .text)
    -> OptionSpec
  {
    OptionSpec(name: name, shortName: nil, kind: .repeated, valueName: valueName, help: help, hint: hint)
  }

  /// How the option reads in a usage line: `[--id ID]`, `[--left ID]...`.
  public var usage: String {
    let body = kind == .flag ? name : "\(name) \(valueName)"
    return kind == .repeated ? "[\(body)]..." : "[\(body)]"
  }
}

/// A positional argument of a command.
public struct PositionalSpec: Sendable, Hashable {
  /// How many words the argument takes.
  public enum Arity: Sendable, Hashable {
    case required
    case optional
    /// One or more words; only the last positional may be variadic.
    case oneOrMore
    /// Zero or more words; only the last positional may be variadic.
    case zeroOrMore
  }

  /// The placeholder (`TITLE`, `ID`).
  public var name: String
  /// How many words it takes.
  public var arity: Arity
  /// One line for `--help` and the man page.
  public var help: String
  /// What the words are, for completion (choices are also checked by the parser).
  public var hint: ValueHint

  /// A positional argument.
  public init(_ name: String, _ arity: Arity = .required, _ help: String, hint: ValueHint = .text) {
    self.name = name
    self.arity = arity
    self.help = help
    self.hint = hint
  }

  /// How the argument reads in a usage line: `TITLE`, `[ID]`, `ID...`.
  public var usage: String {
    let shown: String
    // Short lists of words read best spelled out (`on|off`); long ones keep the placeholder.
    if case .choices(let choices) = hint, choices.joined(separator: "|").count <= 20 {
      shown = choices.joined(separator: "|")
    } else {
      shown = name
    }
    switch arity {
    case .required: return shown
    case .optional: return "[\(shown)]"
    case .oneOrMore: return "\(shown)..."
    case .zeroOrMore: return "[\(shown)...]"
    }
  }
}

/// What kind of value an option or argument takes; completion scripts offer matching words.
public enum ValueHint: Sendable, Hashable {
  /// Nothing to complete (flags).
  case none
  /// Free text (titles, prompts).
  case text
  /// A number.
  case number
  /// A colour `#RRGGBB[AA]`.
  case color
  /// A file path.
  case file
  /// One of a fixed list of words.
  case choices([String])
  /// The id of a navigation item on the stack (completed from the live state).
  case navigationItem
  /// The id of a bar button item (completed from the live state).
  case barButtonItem
  /// A scene name (completed from the scenes navd holds: `navctl __complete scenes`).
  case scene
  /// A navctl command (`help COMMAND`).
  case command
}
