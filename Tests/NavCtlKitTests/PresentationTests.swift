import NavCtlKit
import NavModel
import NavWire
import Testing

/// Which call each invocation makes, and how replies and errors are printed.
@Suite("Requests and presentation")
struct PresentationTests {
  @Test("each action names its Varlink call")
  func requests() throws {
    func request(_ line: String, columns: Int = 80) throws -> NavRequest? {
      try Support.parse(line).request(terminalColumns: columns)
    }
    #expect(try request("get") == NavRequest(method: "io.navd.GetState", parameters: ["scene": "main"]))
    #expect(
      try request("--scene side layout --width 375")
        == NavRequest(method: "io.navd.GetLayout", parameters: ["scene": "side", "width": 375]))
    #expect(try request("layout") == NavRequest(method: "io.navd.GetLayout", parameters: ["scene": "main"]))
    #expect(
      try request("show", columns: 100)
        == NavRequest(method: "io.navd.GetLayout", parameters: ["scene": "main", "width": 784]))
    #expect(
      try request("show --width 42")
        == NavRequest(method: "io.navd.GetLayout", parameters: ["scene": "main", "width": 320]))
    #expect(
      try request("watch")
        == NavRequest(
          method: "io.navd.Subscribe", parameters: ["scene": "main", "view": "layout", "width": 624], more: true))
    #expect(
      try request("--scene later watch --wait")
        == NavRequest(
          method: "io.navd.Subscribe",
          parameters: ["scene": "later", "view": "layout", "width": 624, "waitForScene": true], more: true))
    #expect(
      try request("activate compose")
        == NavRequest(method: "io.navd.Activate", parameters: ["scene": "main", "item": "compose"]))
    #expect(
      try request("actions") == NavRequest(method: "io.navd.WatchActions", parameters: ["scene": "main"], more: true))
    #expect(try request("scenes") == NavRequest(method: "io.navd.ListScenes", parameters: [:]))
    #expect(try request("info") == NavRequest(method: "io.navd.GetServerInfo", parameters: [:]))
    #expect(try request("completion zsh") == nil)
    #expect(try request("help") == nil)
  }

  @Test("a mutation is one Mutate; --if-version adds the base version and fail-on-conflict")
  func mutateRequest() throws {
    let invocation = try Support.parse("--if-version 12 pop --expect message")
    #expect(!invocation.needsState)
    guard case .mutate(let plan) = invocation.action else { throw Failure() }
    let ops = try plan.ops(for: .empty).ops
    #expect(
      invocation.request(ops: ops)
        == NavRequest(
          method: "io.navd.Mutate",
          parameters: [
            "scene": "main", "ops": [["op": "pop", "expectTop": "message", "animated": false]], "baseVersion": 12,
            "policy": "failOnConflict",
          ]))
    #expect(try Support.parse("title Hello").needsState)
    #expect(try Support.parse("__ids bar").needsState)
  }

  @Test("apply reads an array of ops or an object with ops; errors are usage errors")
  func applyDocument() throws {
    let ops = try ApplyDocument.ops(from: #"[{"op":"pop"},{"op":"popTo","item":"a"}]"#, source: "ops.json")
    #expect(ops == [.pop(expectTop: nil, animated: false), .popTo("a", animated: false)])
    #expect(
      try ApplyDocument.ops(from: #"{"ops":[{"op":"pop"}]}"#, source: "-") == [.pop(expectTop: nil, animated: false)])
    #expect(throws: UsageError.self) { try ApplyDocument.ops(from: "[", source: "x") }
    #expect(throws: UsageError.self) { try ApplyDocument.ops(from: "[]", source: "x") }
    #expect(throws: UsageError.self) { try ApplyDocument.ops(from: #"[{"op":"fly"}]"#, source: "x") }
    #expect(throws: UsageError.self) { try ApplyDocument.ops(from: #"{"nope":1}"#, source: "x") }
    guard case .apply(.standardInput) = try Support.parse("apply -").action else { throw Failure() }
    guard case .apply(.file("ops.json")) = try Support.parse("apply ops.json").action else { throw Failure() }
  }

  @Test("a mutation prints only the ids it made up; --json adds them to the reply; overwrites go to stderr")
  func mutationOutput() throws {
    let reply: JSONValue = [
      "version": 4, "overwritten": [["field": "navigationItem/inbox/title", "previousValue": "Old", "version": 2]],
      "baseVersionExpired": false, "replayed": false,
    ]
    let build = MutationBuild(ops: [], generatedIds: ["inbox"])
    let text = try ReplyPresenter.present(try Support.parse("push Inbox"), reply: reply, style: .ascii, build: build)
    #expect(text.stdout == "inbox\n")
    #expect(text.stderr == "navctl: overwrote navigationItem/inbox/title (written at version 2, was \"Old\")\n")
    let json = try ReplyPresenter.present(
      try Support.parse("--json push Inbox"), reply: reply, style: .ascii, build: build)
    let parsed = try JSONParser.parse(json.stdout)
    #expect(parsed["generatedIds"] == ["inbox"])
    #expect(parsed["version"] == 4)
    #expect(json.stdout.hasSuffix("}\n"))
  }

  @Test("get, layout and show print readable text; --json prints the reply on one line")
  func readOutputs() throws {
    let state = try Support.scene(
      ShowGoldenTests.mailItems + [
        "item search --system search", "item filter --title Filter --disabled --tag 3", "item add --system add",
        "item share --title Share --style bordered --action share", "item info --image info --tint #FF2D55",
        "item back --title Chats --possible-title Conversations",
        "push Chats --id chats --back-button back",
        "push Messages --id messages --supplement-back --left search,filter --right add,share,info --prompt 'Pick one'",
        "toolbar set refresh flex trash", "appearance toolbar --style black --tint #FF9500",
        "appearance defaults-navigation-bar --background-image wood --shadow-image line --title-font Inter --title-size 17",
        "tint #34C759",
      ])
    let stateReply: JSONValue = ["version": 6, "state": state.json]
    let text = try ReplyPresenter.present(try Support.parse("get"), reply: stateReply, style: .ascii).stdout
    try Golden.check(text, named: "text/get.txt")
    let layoutReply: JSONValue = ["version": 6, "layout": Support.layout(state, columns: 42)]
    try Golden.check(
      try ReplyPresenter.present(try Support.parse("layout --width 320"), reply: layoutReply, style: .ascii).stdout,
      named: "text/layout.txt")
    let json = try ReplyPresenter.present(try Support.parse("get --json"), reply: stateReply, style: .ascii).stdout
    #expect(json.filter { $0 == "\n" }.count == 1)
    #expect(try JSONParser.parse(json) == stateReply)
    let show = try ReplyPresenter.present(try Support.parse("show --width 42"), reply: layoutReply, style: .ascii)
      .stdout
    #expect(show == BarRenderer.render(layout: try Layout(json: layoutReply["layout"]!), width: 42, style: .ascii))
    try Golden.check(show, named: "text/show.txt")
  }

  @Test("info and activate never trap on numbers out of Int's range: the reply is refused by its field (issue 13)")
  func infoWithHugeNumbers() throws {
    var info: JSONValue = [
      "version": "0.1.0", "protocolVersion": "1.0", "pid": 1e300, "uptimeSeconds": 1e300, "scenes": -1,
      "connections": 3, "subscribers": 1,
    ]
    #expect(throws: MalformedReply(#"GetServerInfo reply: "pid" must be an integer, got number"#)) {
      try ReplyPresenter.present(try Support.parse("info"), reply: info, style: .ascii)
    }
    if case .object(var members) = info {
      members["pid"] = 42
      info = .object(members)
    }
    let text = try ReplyPresenter.present(try Support.parse("info"), reply: info, style: .ascii).stdout
    #expect(text.contains("protocol:     1.0\n") && text.contains("uptime:       0s\n"), "\(text)")
    #expect(throws: MalformedReply(#"Activate reply: "watchers" must be an integer, got number"#)) {
      try ReplyPresenter.present(
        try Support.parse("activate compose"), reply: ["action": "new", "watchers": 1e300], style: .ascii)
    }
  }

  @Test("scenes, info, activate and the actions stream")
  func otherOutputs() throws {
    let scenes: JSONValue = [
      "scenes": [["name": "main", "version": 12, "subscribers": 2], ["name": "side", "version": 0, "subscribers": 0]]
    ]
    #expect(
      try ReplyPresenter.present(try Support.parse("scenes"), reply: scenes, style: .ascii).stdout == """
        SCENE  VERSION   SUBSCRIBERS
        main   12        2
        side   0         0

        """)
    let info: JSONValue = [
      "version": "0.1.0", "protocolVersion": "1.0", "pid": 42, "uptimeSeconds": 3725.5, "scenes": 2, "connections": 3,
      "subscribers": 1,
    ]
    #expect(
      try ReplyPresenter.present(try Support.parse("info"), reply: info, style: .ascii).stdout == """
        navd version: 0.1.0
        protocol:     1.0
        pid:          42
        uptime:       1h 2m 5s
        scenes:       2
        connections:  3
        subscribers:  1

        """)
    #expect(
      try ReplyPresenter.present(
        try Support.parse("activate compose"), reply: ["action": "new", "watchers": 1], style: .ascii
      )
      .stdout == "activated compose: action new, delivered to 1 watcher\n")
    let event: JSONValue = ["scene": "main", "item": "compose", "action": "new", "tag": 0, "version": 9]
    #expect(ReplyPresenter.activation(event, json: false) == "compose  action new  tag 0  version 9\n")
    #expect(ReplyPresenter.activation(event, json: true) == JSONWriter.string(event) + "\n")
    let watching: JSONValue = ["kind": "watching", "scene": "main", "version": 9]
    #expect(ReplyPresenter.activation(watching, json: false) == "watching main from version 9\n")
    let dropped: JSONValue = ["kind": "dropped", "scene": "main", "dropped": 3, "version": 9]
    #expect(ReplyPresenter.activation(dropped, json: false) == "dropped 3 activations of main (not read in time)\n")
    let stateReply: JSONValue = ["version": 1, "state": try Support.scene(["item a", "push X --id x"]).json]
    #expect(try ReplyPresenter.ids(fromStateReply: stateReply, kind: .navigation) == "x\n")
    #expect(try ReplyPresenter.ids(fromStateReply: stateReply, kind: .bar) == "a\n")
  }

  @Test("watch redraws in place on a terminal; watch --json prints each update as one line")
  func watch() throws {
    let layout = Support.layout(try Support.scene(["push Inbox --id inbox"]), columns: 30)
    let frame = try ReplyPresenter.watchFrame(document: layout, columns: 30, style: .ascii, clear: true)
    #expect(frame.hasPrefix("\u{1B}[H\u{1B}[2J"))
    let update: JSONValue = ["kind": "update", "fromVersion": 1, "toVersion": 2, "patch": [], "animated": false]
    #expect(
      try ReplyPresenter.present(try Support.parse("watch --json"), reply: update, style: .ascii).stdout
        == JSONWriter.string(update) + "\n")
  }

  @Test("errors from navd: name, message, field, hint, and the exit status")
  func remoteErrors() {
    let notFound = ErrorReport.remote(
      name: "io.navd.ItemNotFound",
      parameters: [
        "message": "no bar button item \"x\"", "field": "ops[0].item.leftBarButtonItems[0]", "value": "x", "opIndex": 0,
      ])
    #expect(
      notFound.text == """
        navctl: io.navd.ItemNotFound: no bar button item "x"
          field: ops[0].item.leftBarButtonItems[0]
          value: x

        """)
    #expect(notFound.code == .notFound)
    let conflict = ErrorReport.remote(
      name: "io.navd.Conflict",
      parameters: [
        "message": "changed since version 3", "currentVersion": 5,
        "conflicts": [["field": "navigationItem/inbox/title", "currentValue": "New", "version": 4]],
      ])
    #expect(conflict.code == .conflict)
    #expect(conflict.text.contains("navd is at version 5"))
    #expect(conflict.text.contains("navigationItem/inbox/title is now \"New\" (version 4)"))
    #expect(
      ErrorReport.remote(name: "io.navd.SceneNotFound", parameters: [:], scene: "side").text.contains("scene side"))
    #expect(ExitCode.forError(named: "io.navd.LimitExceeded") == .refused)
    let denied = ErrorReport.remote(
      name: "org.varlink.service.PermissionDenied",
      parameters: [
        "right": "write", "scene": "mail.inbox", "message": "the write right on scene mail.inbox is not granted",
      ])
    #expect(denied.code == .permissionDenied)
    #expect(denied.text.contains("  missing right: write on scene mail.inbox\n"))
    let unreachable = ErrorReport.unreachable(
      socket: "/run/user/1000/navd/navd.sock", reason: "No such file or directory")
    #expect(unreachable.contains("cannot reach navd at /run/user/1000/navd/navd.sock: No such file or directory"))
    #expect(unreachable.contains("Start it with 'navd'"))
    let refused = ErrorReport.unreachable(
      socket: "/run/navd/navd.sock",
      reason: "permission denied connecting to /run/navd/navd.sock (owner root, group navd, mode 0660): "
        + "you are not in its group navd",
      advice: "add yourself to group navd (`sudo adduser $USER navd`) and log in again")
    #expect(
      refused == "navctl: permission denied connecting to /run/navd/navd.sock (owner root, group navd, mode 0660): "
        + "you are not in its group navd\n  To fix: add yourself to group navd (`sudo adduser $USER navd`) and log in "
        + "again.\n")
  }

  @Test("the render style follows the terminal, NO_COLOR, TERM=dumb, the locale, --ascii and --no-color")
  func styleDetection() {
    let utf8 = ["LANG": "en_GB.UTF-8", "COLORTERM": "truecolor"]
    var options = GlobalOptions()
    #expect(RenderStyle.detect(isTerminal: true, environment: utf8, options: options) == .terminal)
    #expect(RenderStyle.detect(isTerminal: false, environment: utf8, options: options) == .ascii)
    #expect(
      RenderStyle.detect(isTerminal: true, environment: utf8.merging(["NO_COLOR": "1"]) { $1 }, options: options)
        == .unicode)
    #expect(
      RenderStyle.detect(isTerminal: true, environment: utf8.merging(["NO_COLOR": ""]) { $1 }, options: options)
        == .terminal)
    #expect(
      RenderStyle.detect(isTerminal: true, environment: utf8.merging(["TERM": "dumb"]) { $1 }, options: options)
        == .unicode)
    #expect(
      RenderStyle.detect(isTerminal: true, environment: ["LANG": "C", "COLORTERM": "24bit"], options: options)
        == RenderStyle(unicode: false, color: true))
    options.ascii = true
    options.noColor = true
    #expect(RenderStyle.detect(isTerminal: true, environment: utf8, options: options) == .ascii)
  }

  struct Failure: Error {}
}
