/// navctl's one command-line parser: it reads `CommandTable` and nothing else.
///
/// Rules: global options may come before or after the command; `--name=value`
/// and `--name value` are the same; a value option takes the next word even if
/// it starts with `-`; `--` ends options; `-` is a plain word (stdin for
/// `apply`). Commands are matched exactly (no abbreviations, so scripts keep
/// working when commands are added); a mistyped word gets the closest valid one.
public enum ArgumentParser {
  /// Parses the words after `navctl`.
  public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
    var flags = ParseFlags()
    var spec: CommandSpec?
    var group: String?
    var parsed = ParsedArguments(command: "")
    var words: [String] = []
    var index = 0
    var optionsEnded = false

    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if !optionsEnded, argument == "--" {
        optionsEnded = true
        continue
      }
      if !optionsEnded, argument.hasPrefix("-"), argument != "-" {
        var name = argument
        var inline: String?
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
          name = String(argument[..<equals])
          inline = String(argument[argument.index(after: equals)...])
        }
        func takeValue() throws(UsageError) -> String {
          if let inline { return inline }
          guard index < arguments.count else { throw UsageError("\(name) needs a value", command: spec?.name) }
          index += 1
          return arguments[index - 1]
        }
        if let option = spec?.option(named: name) {
          switch option.kind {
          case .flag:
            if inline != nil { throw UsageError("\(option.name) takes no value", command: spec?.name) }
            parsed.flags.insert(option.name)
          case .value:
            if parsed.values[option.name] != nil {
              throw UsageError("\(option.name) given twice", command: spec?.name)
            }
            parsed.values[option.name] = [try takeValue()]
          case .repeated:
            parsed.values[option.name, default: []].append(try takeValue())
          }
          continue
        }
        if let global = GlobalOptions.table.first(where: { $0.spec.name == name || $0.spec.shortName == name }) {
          if global.spec.kind == .flag {
            if inline != nil { throw UsageError("\(global.spec.name) takes no value", command: spec?.name) }
            try global.apply(&flags, "")
          } else {
            let value = try takeValue()
            do throws(UsageError) {
              try global.apply(&flags, value)
            } catch {
              throw UsageError(error.message, command: spec?.name)
            }
          }
          continue
        }
        throw unknownOption(name, spec: spec)
      }
      if spec == nil {
        if let head = group {
          let full = "\(head) \(argument)"
          guard let found = CommandTable.spec(named: full) else {
            let choices = CommandTable.subcommands(of: head)
            var message = "unknown command \"\(full)\"; \(head) takes \(choices.joined(separator: ", "))"
            if let close = EditDistance.closest(to: argument, in: choices) {
              message = "unknown command \"\(full)\"; did you mean \"\(head) \(close)\"?"
            }
            throw UsageError(message)
          }
          spec = found
          parsed = ParsedArguments(command: found.name)
        } else if let found = CommandTable.spec(named: argument) {
          spec = found
          parsed = ParsedArguments(command: found.name)
        } else if !CommandTable.subcommands(of: argument).isEmpty {
          group = argument
        } else {
          var message = "unknown command \"\(argument)\""
          if let close = EditDistance.closest(to: argument, in: CommandTable.commandWords) {
            message += "; did you mean \"\(close)\"?"
          }
          throw UsageError(message)
        }
        continue
      }
      words.append(argument)
    }

    let options = flags.options
    if flags.version { return Invocation(options: options, action: .version) }
    if flags.help {
      if let spec { return Invocation(options: options, action: .help(HelpFormatter.help(for: spec))) }
      if let group { return Invocation(options: options, action: .help(HelpFormatter.help(forGroup: group))) }
      return Invocation(options: options, action: .help(HelpFormatter.overview))
    }
    guard let spec else {
      if let group {
        throw UsageError(
          "\(group) needs a subcommand: \(CommandTable.subcommands(of: group).joined(separator: ", "))")
      }
      throw UsageError("missing command")
    }
    try assign(words, to: &parsed, spec: spec)
    return Invocation(options: options, action: try spec.build(parsed), command: spec.name)
  }

  /// Distributes the positional words over the spec's positionals, in order.
  static func assign(_ words: [String], to parsed: inout ParsedArguments, spec: CommandSpec) throws(UsageError) {
    var rest = words[...]
    for positional in spec.positionals {
      switch positional.arity {
      case .required:
        guard let word = rest.popFirst() else { throw UsageError("missing \(positional.name)", command: spec.name) }
        parsed.positionals[positional.name] = [word]
      case .optional:
        if let word = rest.popFirst() { parsed.positionals[positional.name] = [word] }
      case .oneOrMore:
        guard !rest.isEmpty else { throw UsageError("missing \(positional.name)", command: spec.name) }
        parsed.positionals[positional.name] = Array(rest)
        rest = []
      case .zeroOrMore:
        parsed.positionals[positional.name] = Array(rest)
        rest = []
      }
      if case .choices(let choices) = positional.hint {
        for word in parsed.positionals[positional.name] ?? [] {
          do throws(UsageError) {
            _ = try ValueReader.choice(word, option: positional.name, choices)
          } catch {
            throw UsageError(error.message, command: spec.name)
          }
        }
      }
    }
    if let extra = rest.first {
      throw UsageError("unexpected argument \"\(extra)\"", command: spec.name)
    }
  }

  static func unknownOption(_ name: String, spec: CommandSpec?) -> UsageError {
    let candidates = (spec?.options.map(\.name) ?? []) + GlobalOptions.specs.map(\.name)
    var message = "unknown option \(name)" + (spec.map { " for \($0.name)" } ?? "")
    if name.count > 2, let close = EditDistance.closest(to: name, in: candidates) {
      message += "; did you mean \(close)?"
    }
    return UsageError(message, command: spec?.name)
  }
}
