import Foundation
import NavCtlKit
import NavModel
import Testing

/// The terminal front end of issue 29: colour depth, the glyph legend, suggestions, the back
/// button, follow options, mutation ids, and errors by class (text and JSON).
@Suite struct TerminalFrontEndTests {
  static let mail =
    ShowGoldenTests.mailItems + [
      "push Inbox --id inbox --left edit --right compose", "toolbar set refresh flex trash",
    ]

  static func style(_ environment: [String: String], terminal: Bool = true, noColor: Bool = false) -> RenderStyle {
    var options = GlobalOptions()
    options.noColor = noColor
    return RenderStyle.detect(isTerminal: terminal, environment: environment, options: options)
  }

  @Test("colour depth comes from COLORTERM and TERM; NO_COLOR, --no-color, dumb and pipes get none")
  func colourDepth() {
    #expect(Self.style(["COLORTERM": "truecolor", "TERM": "xterm"]).colorDepth == .trueColor)
    #expect(Self.style(["COLORTERM": "24bit", "TERM": "screen"]).colorDepth == .trueColor)
    #expect(Self.style(["TERM": "xterm-256color"]).colorDepth == .ansi256)
    #expect(Self.style(["TERM": "tmux-256color"]).colorDepth == .ansi256)
    #expect(Self.style(["TERM": "xterm"]).colorDepth == .ansi16)
    #expect(Self.style(["TERM": "linux"]).colorDepth == .ansi16)
    #expect(Self.style(["TERM": "dumb", "COLORTERM": "truecolor"]).colorDepth == ColorDepth.none)
    #expect(Self.style(["TERM": "xterm-256color", "NO_COLOR": "1"]).colorDepth == ColorDepth.none)
    #expect(Self.style(["TERM": "xterm-256color"], noColor: true).colorDepth == ColorDepth.none)
    #expect(Self.style(["TERM": "xterm-256color", "COLORTERM": "truecolor"], terminal: false).colorDepth == .none)
  }

  @Test("a drawing steps its colours down to the depth: 38;2 at 24-bit, 38;5 at 256, 30–37/90–97 at 16")
  func colourSequences() throws {
    let state = try Support.scene(
      Self.mail + ["item trash --tint '#ff0000'", "appearance navigation-bar --style black"])
    let layout = try Layout(json: Support.layout(state, columns: 48))
    func drawing(_ depth: ColorDepth) -> String {
      BarRenderer.render(layout: layout, width: 48, style: RenderStyle(unicode: true, colorDepth: depth))
    }
    #expect(drawing(.trueColor).contains("38;2;255;0;0"))
    let palette = drawing(.ansi256)
    #expect(!palette.contains(";2;") && palette.contains("38;5;196"), "\(palette)")
    let sixteen = drawing(.ansi16)
    #expect(!sixteen.contains("38;5;") && !sixteen.contains("38;2;"))
    #expect(sixteen.contains(";91m") || sixteen.contains(";91;"), "pure red is bright red (91)")
    #expect(!drawing(.none).contains("\u{1B}["))
    #expect(ColorDepth.palette256(Color(red: 128, green: 128, blue: 128)) == 244)
    #expect(ColorDepth.palette16(Color(red: 0, green: 0, blue: 0)) == 0)
  }

  @Test("--labels adds a legend of the glyphs drawn, in both glyph sets")
  func legend() throws {
    let layout = Support.layout(try Support.scene(Self.mail), columns: 48)
    var ascii = RenderStyle.ascii
    #expect(!BarRenderer.render(layout: try Layout(json: layout), width: 48, style: ascii).contains("legend"))
    ascii.legend = true
    let text = BarRenderer.render(layout: try Layout(json: layout), width: 48, style: ascii)
    #expect(text.contains("legend: ed edit  new compose  @ refresh\n  del trash\n"), "\(text)")
    #expect(
      BarRenderer.render(layout: try Layout(json: layout), width: 60, style: ascii).contains("@ refresh  del trash\n"))
    var unicode = RenderStyle.unicode
    unicode.legend = true
    #expect(BarRenderer.render(layout: try Layout(json: layout), width: 48, style: unicode).contains("↻ refresh"))
    #expect(try Support.parse("--labels show").options.labels)
  }

  @Test("suggestions prefer a shared beginning: --system flexspace suggests flexibleSpace")
  func prefixSuggestions() {
    let error = Support.usageError("item x --system flexspace")
    #expect(error?.message.contains("did you mean \"flexibleSpace\"") == true, "\(String(describing: error))")
    #expect(EditDistance.closest(to: "--widht", in: ["--wait", "--width"]) == "--width")
    #expect(EditDistance.closest(to: "psuh", in: ["pop", "push"]) == "push")
  }

  @Test("activate @back and back send Activate for the back button; --expect is for @back only")
  func back() throws {
    for line in ["activate @back", "back", "back --expect message --width 320"] {
      guard case .call(let command) = try Support.parse(line).action else {
        Issue.record("\(line) is not a call")
        continue
      }
      let request = command.request("main", 80)
      #expect(request.method == "io.navd.Activate")
      #expect(request.parameters["item"]?.stringValue == "@back")
    }
    guard case .call(let command) = try Support.parse("back --expect message").action else { return }
    #expect(command.request("main", 80).parameters["expectTop"]?.stringValue == "message")
    #expect(Support.usageError("activate compose --expect inbox")?.message.contains("@back only") == true)
    #expect(Support.usageError("activate @front") != nil)
  }

  @Test("watch and actions follow by default; --no-follow and --follow-timeout change it")
  func follow() throws {
    guard case .watch(_, _, let follow) = try Support.parse("watch").action else {
      Issue.record("not watch")
      return
    }
    #expect(follow == Follow(enabled: true, timeout: 60))
    guard case .watch(_, _, let off) = try Support.parse("watch --no-follow --json").action else { return }
    #expect(!off.enabled)
    guard case .watchActions(let short) = try Support.parse("actions --follow-timeout 2.5").action else { return }
    #expect(short == Follow(enabled: true, timeout: 2.5))
    #expect(Support.usageError("watch --follow --no-follow") != nil)
    #expect(Support.usageError("actions --no-follow --follow-timeout 3") != nil)
    #expect(Support.usageError("watch --follow-timeout 0")?.message.contains("above 0") == true)
  }

  @Test("--mutation-id goes into Mutate with a client id; bad ids are usage errors")
  func mutationId() throws {
    let invocation = try Support.parse("--mutation-id retry-7 title Hello --item inbox")
    guard case .mutate(let plan) = invocation.action else {
      Issue.record("not a mutation")
      return
    }
    let request = try #require(
      invocation.request(ops: try plan.ops(for: .empty).ops, clientId: "navctl-uid-1000"))
    #expect(request.parameters["mutationId"]?.stringValue == "retry-7")
    #expect(request.parameters["clientId"]?.stringValue == "navctl-uid-1000")
    let plain = try Support.parse("title Hello --item inbox")
    let without = try #require(plain.request(ops: [], clientId: "navctl-uid-1000"))
    #expect(without.parameters["mutationId"] == nil && without.parameters["clientId"] == nil)
    #expect(Support.usageError("--mutation-id '' pop") != nil)
    #expect(Support.usageError("--mutation-id '\(String(repeating: "x", count: 129))' pop") != nil)
    #expect(Support.usageError("--mutation-id 'a b' pop") != nil)
  }

  @Test("every failure class has its exit status and a JSON report {error, parameters}")
  func failureClasses() throws {
    let cases: [(Failure, ExitCode, String)] = [
      (.usage(UsageError("unknown command \"psuh\"")), .usage, "navctl.UsageError"),
      (.remote(name: "io.navd.CannotPopRoot", parameters: ["message": "root"]), .refused, "io.navd.CannotPopRoot"),
      (.remote(name: "io.navd.InvalidMutation", parameters: ["message": "bad"]), .refused, "io.navd.InvalidMutation"),
      (.remote(name: "io.navd.Conflict", parameters: ["message": "moved"]), .conflict, "io.navd.Conflict"),
      (.remote(name: "io.navd.SceneNotFound", parameters: ["message": "no"]), .notFound, "io.navd.SceneNotFound"),
      (.remote(name: "io.navd.ItemNotFound", parameters: ["message": "no"]), .notFound, "io.navd.ItemNotFound"),
      (
        .remote(name: "org.varlink.service.PermissionDenied", parameters: ["message": "no"]), .permissionDenied,
        "org.varlink.service.PermissionDenied"
      ),
      (.unreachable(socket: "/s", reason: "No such file or directory", errno: 2), .unreachable, "navctl.Unreachable"),
      (.timedOut(socket: "/s", seconds: 5), .timedOut, "navctl.TimedOut"),
      (.gone(socket: "/s", after: 60), .gone, "navctl.Gone"),
      (.gone(socket: "/s", after: nil), .gone, "navctl.Gone"),
      (.remote(name: "io.navd.ServerStopping", parameters: [:]), .gone, "io.navd.ServerStopping"),
      (.requestTooLarge(bytes: 1_300_000, limit: 1_048_576), .refused, "navctl.RequestTooLarge"),
    ]
    for (failure, code, name) in cases {
      #expect(failure.exitCode == code, "\(name)")
      let report = try JSONParser.parse(failure.report(json: true))
      #expect(report["error"]?.stringValue == name)
      #expect(report["parameters"]?.objectValue != nil)
      #expect(failure.report(json: true).hasSuffix("}\n") && !failure.report(json: true).dropLast().contains("\n"))
    }
    #expect(Set(cases.map(\.1)).count == ExitCode.allCases.count - 1, "every failure status is used")
  }

  @Test("a timeout has its own message, not the 'cannot reach navd' one")
  func timeoutText() {
    let text = Failure.timedOut(socket: "/run/navd.sock", seconds: 2.5).report(json: false)
    #expect(text.contains("did not answer within 2.5 s") && text.contains("--timeout"))
    #expect(!text.contains("cannot reach") && !text.contains("Start it"))
    let tooLarge = Failure.requestTooLarge(bytes: 1_300_000, limit: 1_048_576).report(json: false)
    #expect(tooLarge.contains("frame limit of 1048576 bytes") && tooLarge.contains("nothing was sent"))
  }

  @Test("navd's wire field paths are shown as the flag or argument the user typed")
  func fieldNames() throws {
    #expect(FieldNames.option(forField: "ops[0].item.leftBarButtonItems[0]", command: "push") == "--left")
    #expect(FieldNames.option(forField: "ops[0].item.rightBarButtonItems[1]", command: "push") == "--right")
    #expect(FieldNames.option(forField: "ops[1].items[2]", command: "toolbar set") == "ID")
    #expect(FieldNames.option(forField: "ops[0].barButtonItem.tintColor", command: "item") == "--tint")
    #expect(FieldNames.option(forField: "ops[0].item.leftBarButtonItems[0]", command: "apply") == nil)
    let parameters: JSONValue = [
      "message": "names no bar button item \"x\"", "field": "ops[0].item.leftBarButtonItems[0]", "value": "x",
    ]
    let text = ErrorReport.remote(name: "io.navd.ItemNotFound", parameters: parameters, command: "push").text
    #expect(text.contains("in: --left (navd's field ops[0].item.leftBarButtonItems[0])"), "\(text)")
    let json = try JSONParser.parse(
      Failure.remote(name: "io.navd.ItemNotFound", parameters: parameters).report(json: true, command: "push"))
    #expect(json["parameters"]?["option"]?.stringValue == "--left")
  }

  @Test("--help, the man page and the README list every exit status")
  func exitStatusesDocumented() throws {
    let readme = try String(contentsOf: Golden.repository.appendingPathComponent("README.md"), encoding: .utf8)
    for (code, _) in HelpFormatter.exitStatuses {
      #expect(readme.contains("| \(code.rawValue) |"), "README lacks exit status \(code.rawValue)")
    }
    #expect(HelpFormatter.overview.contains("NAVCTL_MUTATION_ID") && HelpFormatter.overview.contains("COLORTERM"))
  }

  @Test(
    "bash completes scene names from navd and command names after help, and never file names for them",
    .enabled(if: GeneratedDocsTests.hasBash))
  func bashCompletesScenesAndCommands() throws {
    let file = try GeneratedDocsTests.scriptFile(.bash)
    defer { try? FileManager.default.removeItem(at: file) }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("navctl-files-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try "".write(to: directory.appendingPathComponent("main-notes.txt"), atomically: true, encoding: .utf8)
    try "".write(to: directory.appendingPathComponent("pushed.txt"), atomically: true, encoding: .utf8)
    func complete(_ words: [String]) throws -> String {
      let array = words.map { "'\($0)'" }.joined(separator: " ")
      let result = try GeneratedDocsTests.bash(
        """
        cd '\(directory.path)'
        source '\(file.path)'
        navctl() { case "$*" in *"__complete scenes") echo main; echo mail-app ;; esac; }
        COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1); _navctl
        echo "${COMPREPLY[*]}"
        """)
      #expect(result.status == 0, "\(result.output)")
      return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    #expect(try complete(["navctl", "--scene", "ma"]) == "main mail-app")
    #expect(try complete(["navctl", "get", "--scene", "mai"]) == "main mail-app")
    #expect(try complete(["navctl", "help", "pu"]) == "push")
    #expect(try complete(["navctl", "help", "main"]) == "", "file names offered after help")
    #expect(try complete(["navctl", "--scene", "x"]) == "", "file names offered for --scene")
    #expect(try complete(["navctl", "apply", "push"]) == "pushed.txt", "FILE arguments still complete files")
  }

  @Test("zsh and fish ask navd for scene names and offer commands after help", arguments: [Shell.zsh, .fish])
  func otherShellsCompleteScenes(_ shell: Shell) {
    let script = CompletionScript.script(for: shell)
    #expect(script.contains("__complete scenes"))
    #expect(script.contains(CommandTable.commandWords.joined(separator: " ")))
  }

  @Test("fish completes scene names from navd", .enabled(if: GeneratedDocsTests.installed("fish")))
  func fishCompletesScenes() throws {
    let file = try GeneratedDocsTests.scriptFile(.fish)
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try GeneratedDocsTests.bash(
      """
      fish -c 'function navctl; echo main; echo mail-app; end; source \(file.path); complete -C "navctl --scene ma"' | cut -f1 | sort | tr '\\n' ' '
      """)
    #expect(result.output.trimmingCharacters(in: .whitespaces) == "mail-app main")
  }
}

@Suite("Progress line")
struct ProgressTextTests {
  @Test("a progress line rewrites the line in place, fits the terminal less one column, and cannot steer it")
  func progressLine() {
    let line = ProgressText.line("reading scene 2 of 9: in\u{1B}[2Jbox", command: "export", columns: 30)
    #expect(line.hasPrefix("\r\u{1B}[K"))
    let text = String(line.dropFirst(ProgressText.erase.count))
    #expect(text == "navctl: export: reading sc...")
    #expect(!text.unicodeScalars.contains { $0.value == 0x1B })
    #expect(ProgressText.line("short", command: "export", columns: 80) == "\r\u{1B}[Knavctl: export: short")
  }
}
