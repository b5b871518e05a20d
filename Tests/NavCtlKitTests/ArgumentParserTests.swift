import NavCtlKit
import NavModel
import Testing

/// The command table and the one parser that reads it.
@Suite("Argument parser")
struct ArgumentParserTests {
  static let visibleNames = CommandTable.visible.map(\.name)

  @Test("every command parses its own example", arguments: CommandTable.all.map(\.name))
  func exampleParses(_ name: String) throws {
    let spec = try #require(CommandTable.spec(named: name))
    let invocation = try Support.parse(spec.example)
    if case .help = invocation.action, name != "help" { Issue.record("\(name)'s example asks for help") }
  }

  @Test("every command's --help has its summary, usage, every option and its example", arguments: visibleNames)
  func helpIsComplete(_ name: String) throws {
    let spec = try #require(CommandTable.spec(named: name))
    guard case .help(let text) = try Support.parse("\(name) --help").action else {
      Issue.record("no help for \(name)")
      return
    }
    let flowing = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(flowing.contains(spec.summary))
    #expect(text.contains("Usage: navctl [OPTIONS] \(spec.name)"))
    for option in spec.options { #expect(text.contains(option.name), "\(name) --help lacks \(option.name)") }
    #expect(text.contains("navctl \(spec.example)"))
    #expect(
      flowing.contains(
        "Exit status: 0 success, 1 navd refused, 2 usage error, 3 cannot reach navd, 4 conflict, 5 not found, "
          + "6 permission denied, 7 timeout, 8 navd went away."))
    for line in text.split(separator: "\n") { #expect(line.count <= 80, "\(name) --help: \(line)") }
  }

  @Test("help COMMAND, -h and --help before the command give the same text")
  func helpForms() throws {
    let forms = ["help push", "push -h", "--help push", "push --help", "push Inbox --help"]
    let texts = try forms.map { line -> String in
      guard case .help(let text) = try Support.parse(line).action else { return "" }
      return text
    }
    #expect(Set(texts).count == 1)
    #expect(texts[0].hasPrefix("navctl push - "))
  }

  @Test("navctl --help lists every visible command, the global options, exit codes and the mail walkthrough")
  func overview() throws {
    guard case .help(let text) = try Support.parse("--help").action else {
      Issue.record("no overview")
      return
    }
    for spec in CommandTable.visible { #expect(text.contains("  \(spec.name)"), "overview lacks \(spec.name)") }
    for option in GlobalOptions.specs { #expect(text.contains(option.name)) }
    for code in ExitCode.allCases { #expect(text.contains("  \(code.rawValue)  ")) }
    #expect(text.contains("NAVD_SOCKET"))
    #expect(text.contains("NO_COLOR"))
    #expect(text.contains("navctl toolbar set refresh flex trash"))
    #expect(!text.contains("__ids"))
  }

  @Test("a word with subcommands and --help lists them")
  func groupHelp() throws {
    guard case .help(let text) = try Support.parse("left --help").action else {
      Issue.record("no group help")
      return
    }
    for sub in ["set", "add", "remove", "move", "clear", "first"] { #expect(text.contains("left \(sub)")) }
  }

  @Test("global options are read before and after the command")
  func globalsAnywhere() throws {
    let before = try Support.parse(
      "--scene side --json --socket /tmp/s --if-version 7 --timeout 2.5 --ascii --no-color get")
    let after = try Support.parse(
      "get --scene=side --json --socket=/tmp/s --if-version=7 --timeout 2.5 --ascii --no-color")
    for invocation in [before, after] {
      var expected = GlobalOptions()
      expected.scene = "side"
      expected.sceneGiven = true
      expected.json = true
      expected.socket = "/tmp/s"
      expected.ifVersion = 7
      expected.timeout = 2.5
      expected.ascii = true
      expected.noColor = true
      #expect(invocation.options == expected)
    }
  }

  @Test("--version wins over the command")
  func version() throws {
    guard case .version = try Support.parse("--version").action else {
      Issue.record("not version")
      return
    }
  }

  @Test("-- ends options, so a title may start with a dash")
  func doubleDash() throws {
    let build = try Support.build("push --id dash -- -draft-")
    #expect(build.ops == [.push(NavigationItem(id: "dash", title: "-draft-"), animated: false)])
  }

  @Test("a value option takes the next word even when it starts with a dash")
  func negativeValue() throws {
    let build = try Support.build("item neg --tag -5")
    #expect(build.ops == [.defineBarButtonItem(BarButtonItem(id: "neg", tag: -5))])
  }

  // MARK: Errors

  @Test(
    "an unknown command suggests the closest one",
    arguments: [
      ("pusj Inbox", "did you mean \"push\"?"), ("shwo", "did you mean \"show\"?"),
      ("tolbar set a", "did you mean \"toolbar\"?"),
      ("apperance toolbar", "did you mean \"appearance\"?"), ("left sett a", "did you mean \"left set\"?"),
      ("toolbar hid", "did you mean \"toolbar hide\"?"), ("pop-too x", "did you mean \"pop-to\"?"),
      ("help pusj", "did you mean \"push\"?"),
    ])
  func unknownCommand(_ line: String, _ suggestion: String) throws {
    let error = try #require(Support.usageError(line))
    #expect(error.message.contains(suggestion), "\(error.message)")
  }

  @Test("a word far from every command gets no suggestion")
  func noSuggestion() throws {
    let error = try #require(Support.usageError("xyzzyplugh"))
    #expect(error.message == "unknown command \"xyzzyplugh\"")
  }

  @Test(
    "an unknown option suggests the closest option of the command or a global one",
    arguments: [
      ("push Inbox --animted", "did you mean --animated?"), ("push Inbox --rigth x", "did you mean --right?"),
      ("get --jsno", "did you mean --json?"), ("show --widht 40", "did you mean --width?"),
      ("item x --disable", "did you mean --disabled?"),
    ])
  func unknownOption(_ line: String, _ suggestion: String) throws {
    let error = try #require(Support.usageError(line))
    #expect(error.message.contains(suggestion), "\(error.message)")
    #expect(error.report.contains("Usage: navctl [OPTIONS]"))
  }

  @Test(
    "missing and extra arguments name what is wrong",
    arguments: [
      ("push", "missing TITLE"), ("pop-to", "missing ID"), ("left set", "missing ID"),
      ("left", "left needs a subcommand"),
      ("", "missing command"), ("title", "missing TEXT (or --clear to remove it)"), ("title x --clear", "not both"),
      ("pop extra", "unexpected argument \"extra\""), ("push A --id", "--id needs a value"),
      ("push A --id a --id b", "--id given twice"), ("pop --animated=yes", "--animated takes no value"),
      ("title-view logo", "title-view NAME needs --width W"), ("item", "give the item an ID"),
      ("item x --system edit --title Edit", "--system cannot be combined"), ("item x --enabled --disabled", "not both"),
      ("appearance toolbar", "nothing to change"), ("supplement-back maybe", "\"maybe\" is not one of on, off"),
      ("completion tcsh", "\"tcsh\" is not one of bash, zsh, fish"),
    ])
  func missingArgument(_ line: String, _ message: String) throws {
    let error = try #require(Support.usageError(line))
    #expect(error.message.contains(message), "\(error.message)")
  }

  @Test(
    "bad numbers are usage errors",
    arguments: [
      "show --width abc", "show --width 5", "layout --width -3", "item x --tag 1.5", "item x --width wide",
      "--if-version -1 pop", "--timeout 0 get", "--timeout soon get", "title-view v --width 20000",
      // Issue 13: values that would trap converting to Int or Duration are usage errors.
      "--timeout 1e300 get", "--timeout 86400.5 get", "--if-version 9007199254740993 pop",
      "--if-version 99999999999999999999 pop", "show --width 99999999999999999999", "item x --tag 1e300",
      "layout --width 1e300", "item x --tag 9007199254740993",
    ])
  func badNumber(_ line: String) throws {
    let error = try #require(Support.usageError(line))
    #expect(error.message.contains("needs"), "\(error.message)")
  }

  @Test(
    "bad colours are usage errors",
    arguments: ["item x --tint red", "item x --tint #12345", "tint #GG0000", "appearance toolbar --bar-tint #1234567"])
  func badColour(_ line: String) throws {
    let error = try #require(Support.usageError(line))
    #expect(error.message.contains("needs a colour like #FF9500"), "\(error.message)")
  }

  @Test(
    "bad ids are usage errors", arguments: ["pop-to -x", "push A --id 'a b'", "left set ok,_bad", "--scene '' get"])
  func badId(_ line: String) throws {
    #expect(Support.usageError(line) != nil)
  }

  @Test("a usage error's report names the command's usage and where to read more")
  func usageReport() throws {
    let error = try #require(Support.usageError("push"))
    #expect(
      error.report == """
        navctl: missing TITLE
        Usage: \(CommandTable.spec(named: "push")!.usage)
        Try 'navctl push --help' for more.

        """)
  }

  @Test("the table has no duplicate names, and every command has a summary and an example")
  func tableIsWellFormed() {
    #expect(Set(CommandTable.all.map(\.name)).count == CommandTable.all.count)
    for spec in CommandTable.all {
      #expect(!spec.summary.isEmpty)
      #expect(!spec.example.isEmpty)
      #expect(Set(spec.options.map(\.name)).count == spec.options.count, "\(spec.name) repeats an option")
      for option in spec.options {
        #expect(!GlobalOptions.specs.contains { $0.name == option.name }, "\(spec.name) shadows \(option.name)")
      }
      let variadic = spec.positionals.firstIndex { $0.arity == .oneOrMore || $0.arity == .zeroOrMore }
      if let variadic { #expect(variadic == spec.positionals.count - 1, "\(spec.name): variadic not last") }
    }
  }
}
