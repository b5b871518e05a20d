import NavModel
import NavWire

/// What navctl prints for a reply: text for stdout and, sometimes, notes for stderr.
public struct PresentedOutput: Sendable, Hashable {
  /// Text for standard output.
  public var stdout: String
  /// Notes for standard error (what a last-writer-wins mutation overwrote).
  public var stderr: String

  /// Output for both streams.
  public init(stdout: String, stderr: String = "") {
    self.stdout = stdout
    self.stderr = stderr
  }
}

/// Turns navd's replies into what navctl prints: JSON with `--json`, readable text otherwise.
public enum ReplyPresenter {
  /// The output for the (first, or only) reply to `invocation.request(...)`.
  ///
  /// - `build`: for `mutate`, the plan's build (its generated ids are printed, one per line).
  /// - `columns`: the drawing width for `show` without `--width`.
  ///
  /// Throws a `MalformedReply` for a reply the text is read from that this navctl cannot read.
  public static func present(
    _ invocation: Invocation, reply: JSONValue, style: RenderStyle, columns: Int = 80, build: MutationBuild? = nil
  ) throws -> PresentedOutput {
    let json = invocation.options.json
    switch invocation.action {
    case .mutate, .apply:
      return mutation(reply, json: json, generatedIds: build?.generatedIds ?? [], scene: invocation.options.scene)
    case .deleteScene(let name):
      return PresentedOutput(stdout: json ? line(reply) : deleted(name, reply: reply))
    case .call(let command):
      return PresentedOutput(stdout: json ? line(reply) : try command.text(reply, style, columns))
    case .watch(let width, _, _):
      if json { return PresentedOutput(stdout: line(reply)) }
      guard case .snapshot(let snapshot) = try SubscribeFrame(parameters: reply) else {
        throw MalformedReply("Subscribe frame: a drawing needs a snapshot")
      }
      return PresentedOutput(
        stdout: try watchFrame(document: snapshot.document, columns: width ?? columns, style: style, clear: false))
    case .watchActions:
      return PresentedOutput(stdout: activation(reply, json: json))
    case .listIds(let kind):
      return PresentedOutput(stdout: try ids(fromStateReply: reply, kind: kind))
    case .help(let text):
      return PresentedOutput(stdout: text)
    case .version, .completion, .exportState, .importState:
      return PresentedOutput(stdout: "")
    }
  }

  /// One JSON object on its own line (streams print one per update, flushed at once).
  public static func line(_ reply: JSONValue) -> String { JSONWriter.string(reply) + "\n" }

  /// A `watch` frame: the drawing of the current layout document; with `clear`, preceded
  /// by the escape sequence that homes the cursor and clears the screen, so it redraws in place.
  /// A document this navctl cannot read is a `MalformedReply`.
  public static func watchFrame(document: JSONValue, columns: Int, style: RenderStyle, clear: Bool)
    throws(MalformedReply) -> String
  {
    let layout = try Layout(document: document, context: "Subscribe frame")
    return (clear ? "\u{1B}[H\u{1B}[2J" : "") + BarRenderer.render(layout: layout, width: columns, style: style)
  }

  /// An `Activate` reply (an `ActivationResult`): `activated compose: action new, delivered to 1 watcher`.
  /// The back button (`@back`): `went back (version 7)`.
  static func activated(_ item: String, reply: JSONValue) throws(MalformedReply) -> String {
    let result = try ActivationResult(parameters: reply)
    if item == CommandTable.backButton {
      return "went back" + (result.version.map { " (version \($0))" } ?? "") + "\n"
    }
    let action = result.action.map { "action \($0)" } ?? "no action"
    let watchers = result.watchers
    return "activated \(item): \(action), delivered to \(watchers) watcher\(watchers == 1 ? "" : "s")\n"
  }

  /// One `WatchActions` reply (a `WatchFrame`): `compose  action new-message  tag 0  version 12`.
  /// A frame this navctl cannot read (a newer navd's) is printed as its JSON line.
  public static func activation(_ reply: JSONValue, json: Bool) -> String {
    guard !json, let frame = try? WatchFrame(parameters: reply) else { return line(reply) }
    switch frame {
    case .watching(let scene, let version):
      return "watching \(DisplayWidth.sanitize(scene)) from version \(version)\n"
    case .dropped(let scene, let count, _):
      return "dropped \(count) activations of \(DisplayWidth.sanitize(scene)) (not read in time)\n"
    case .activation(let activation):
      let action = activation.action.map { "action \(DisplayWidth.sanitize($0))" } ?? "no action"
      return
        "\(DisplayWidth.sanitize(activation.item))  \(action)  tag \(activation.tag)  version \(activation.version)\n"
    case .unknown:
      return line(reply)
    }
  }

  /// A mutation's reply (a `MutationReply`): the generated ids (text), or the reply with them
  /// (`--json`); what last-writer-wins overwrote goes to stderr.
  /// A write that created its scene says so on stderr (`navctl: created scene mian`), in
  /// text and JSON alike, so a mistyped `--scene` shows while stdout stays the reply.
  static func mutation(_ reply: JSONValue, json: Bool, generatedIds: [String], scene: String = "main")
    -> PresentedOutput
  {
    var stderr = ""
    if let typed = try? MutationReply(parameters: reply) {
      if typed.created { stderr += "navctl: created scene \(DisplayWidth.sanitize(scene))\n" }
      for overwrite in typed.overwritten {
        stderr += "navctl: overwrote \(overwrite.field) (written at version \(overwrite.version)"
        stderr += ", was \(JSONWriter.string(overwrite.previousValue)))\n"
      }
      if typed.replayed { stderr += "navctl: navd had already applied this mutation\n" }
    }
    if json {
      var members = reply.objectValue ?? [:]
      if !generatedIds.isEmpty { members["generatedIds"] = .array(generatedIds.map(JSONValue.string)) }
      return PresentedOutput(stdout: line(.object(members)), stderr: stderr)
    }
    return PresentedOutput(stdout: generatedIds.map { $0 + "\n" }.joined(), stderr: stderr)
  }

  /// A `DeleteScene` reply: `deleted scene mian (version 3, epoch 5f0c2d1e9a7b3c48)`.
  static func deleted(_ name: String, reply: JSONValue) -> String {
    guard let typed = try? DeletedScene(parameters: reply) else { return line(reply) }
    return "deleted scene \(DisplayWidth.sanitize(name)) (version \(typed.version), epoch \(typed.epoch))\n"
  }

  /// The scene names of a `ListScenes` reply, one per line (for `__complete scenes`).
  static func sceneNames(_ reply: JSONValue) -> String {
    ((try? SceneList(parameters: reply))?.scenes ?? []).map { DisplayWidth.sanitize($0.name) + "\n" }.joined()
  }

  /// A `ListScenes` reply (a `SceneList`) as a table; one this navctl cannot read as its JSON line.
  static func scenes(_ reply: JSONValue) -> String {
    guard let scenes = (try? SceneList(parameters: reply))?.scenes else { return line(reply) }
    let width = max(5, min(scenes.map(\.name.count).max() ?? 0, 64))
    func row(_ a: String, _ b: String, _ c: String) -> String {
      a + String(repeating: " ", count: width + 2 - a.count) + b + String(repeating: " ", count: max(1, 10 - b.count))
        + c + "\n"
    }
    var out = row("SCENE", "VERSION", "SUBSCRIBERS")
    for scene in scenes {
      out += row(scene.name, String(scene.version), String(scene.subscribers))
    }
    return out
  }

  /// A `GetServerInfo` reply (a `ServerInfo`), one fact a line.
  static func serverInfo(_ reply: JSONValue) throws(MalformedReply) -> String {
    let info = try ServerInfo(parameters: reply)
    var out = ""
    let rows: [(String, String)] = [
      ("navd version", info.version), ("protocol", info.protocolVersion), ("pid", String(info.pid)),
      ("uptime", duration(info.uptimeSeconds)), ("scenes", String(info.scenes)),
      ("connections", String(info.connections)), ("subscribers", String(info.subscribers)),
    ]
    for (name, value) in rows {
      out += name + ":" + String(repeating: " ", count: max(1, 13 - name.count)) + value + "\n"
    }
    return out
  }

  /// `3d 4h 5m 6s`, leaving out leading zero units.
  static func duration(_ seconds: Double) -> String {
    var rest = wholeNumber(.number(seconds)) ?? 0
    let parts = [(86_400, "d"), (3_600, "h"), (60, "m"), (1, "s")].compactMap { size, unit -> String? in
      let value = rest / size
      rest %= size
      return value > 0 ? "\(value)\(unit)" : nil
    }
    return parts.isEmpty ? "0s" : parts.joined(separator: " ")
  }

  /// Ids from a `GetState` reply (a `StateReply`), one per line (for `__ids`).
  public static func ids(fromStateReply reply: JSONValue, kind: IdKind) throws(MalformedReply) -> String {
    let state = try StateReply(parameters: reply).state
    let ids: [String]
    switch kind {
    case .navigation: ids = state.navigationBar.items.map(\.id)
    case .bar: ids = state.barButtonItems.items.map(\.id)
    }
    return ids.map { $0 + "\n" }.joined()
  }

  /// A reply's number as an `Int`, rounded down; nil when it is missing, not a number, negative
  /// or beyond 2^53 (a reply never makes navctl trap, whatever navd or an impostor sends).
  static func wholeNumber(_ json: JSONValue?) -> Int? {
    guard let value = json?.numberValue, value >= 0, value <= Double(ValueReader.largestExactInteger) else {
      return nil
    }
    return Int(value.rounded(.down))
  }
}
