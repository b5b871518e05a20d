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
  public static func present(
    _ invocation: Invocation, reply: JSONValue, style: RenderStyle, columns: Int = 80, build: MutationBuild? = nil
  ) -> PresentedOutput {
    let json = invocation.options.json
    switch invocation.action {
    case .mutate, .apply:
      return mutation(reply, json: json, generatedIds: build?.generatedIds ?? [])
    case .call(let command):
      return PresentedOutput(stdout: json ? line(reply) : command.text(reply, style, columns))
    case .watch(let width, _):
      if json { return PresentedOutput(stdout: line(reply)) }
      return PresentedOutput(
        stdout: watchFrame(document: reply["document"] ?? .null, columns: width ?? columns, style: style, clear: false))
    case .watchActions:
      return PresentedOutput(stdout: activation(reply, json: json))
    case .listIds(let kind):
      return PresentedOutput(stdout: ids(fromStateReply: reply, kind: kind))
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
  public static func watchFrame(document: JSONValue, columns: Int, style: RenderStyle, clear: Bool) -> String {
    (clear ? "\u{1B}[H\u{1B}[2J" : "") + BarRenderer.render(layout: document, width: columns, style: style)
  }

  /// An `Activate` reply: `activated compose: action new, delivered to 1 watcher`.
  static func activated(_ item: String, reply: JSONValue) -> String {
    let action = reply["action"]?.stringValue.map { "action \($0)" } ?? "no action"
    let watchers = wholeNumber(reply["watchers"]) ?? 0
    return "activated \(item): \(action), delivered to \(watchers) watcher\(watchers == 1 ? "" : "s")\n"
  }

  /// One `WatchActions` reply: `compose  action new-message  tag 0  version 12`.
  public static func activation(_ reply: JSONValue, json: Bool) -> String {
    if json { return line(reply) }
    let scene = DisplayWidth.sanitize(reply["scene"]?.stringValue ?? "?")
    switch reply["kind"]?.stringValue {
    case WatchFrameKind.watching.rawValue:
      return "watching \(scene) from version \(LayoutText.number(reply["version"]))\n"
    case WatchFrameKind.dropped.rawValue:
      return "dropped \(LayoutText.number(reply["dropped"])) activations of \(scene) (not read in time)\n"
    default: break
    }
    var text = DisplayWidth.sanitize(reply["item"]?.stringValue ?? "?")
    text += "  " + (reply["action"]?.stringValue.map { "action \(DisplayWidth.sanitize($0))" } ?? "no action")
    text += "  tag \(LayoutText.number(reply["tag"]))  version \(LayoutText.number(reply["version"]))"
    return text + "\n"
  }

  /// A mutation's reply: the generated ids (text), or the reply with them (`--json`); what
  /// last-writer-wins overwrote goes to stderr.
  static func mutation(_ reply: JSONValue, json: Bool, generatedIds: [String]) -> PresentedOutput {
    var stderr = ""
    for overwrite in reply["overwritten"]?.arrayValue ?? [] {
      stderr += "navctl: overwrote \(overwrite["field"]?.stringValue ?? "?") "
      stderr += "(written at version \(LayoutText.number(overwrite["version"]))"
      stderr += ", was \(JSONWriter.string(overwrite["previousValue"] ?? .null)))\n"
    }
    if reply["replayed"]?.boolValue == true { stderr += "navctl: navd had already applied this mutation\n" }
    if json {
      var members = reply.objectValue ?? [:]
      if !generatedIds.isEmpty { members["generatedIds"] = .array(generatedIds.map(JSONValue.string)) }
      return PresentedOutput(stdout: line(.object(members)), stderr: stderr)
    }
    return PresentedOutput(stdout: generatedIds.map { $0 + "\n" }.joined(), stderr: stderr)
  }

  static func scenes(_ reply: JSONValue) -> String {
    let scenes = reply["scenes"]?.arrayValue ?? []
    let width = max(5, min(scenes.map { ($0["name"]?.stringValue ?? "").count }.max() ?? 0, 64))
    func row(_ a: String, _ b: String, _ c: String) -> String {
      a + String(repeating: " ", count: width + 2 - a.count) + b + String(repeating: " ", count: max(1, 10 - b.count))
        + c + "\n"
    }
    var out = row("SCENE", "VERSION", "SUBSCRIBERS")
    for scene in scenes {
      out += row(
        scene["name"]?.stringValue ?? "?", LayoutText.number(scene["version"]), LayoutText.number(scene["subscribers"]))
    }
    return out
  }

  static func serverInfo(_ reply: JSONValue) -> String {
    var out = ""
    let rows: [(String, String)] = [
      ("navd version", reply["version"]?.stringValue ?? "?"),
      ("protocol", reply["protocolVersion"]?.stringValue ?? "?"),
      ("pid", LayoutText.number(reply["pid"])), ("uptime", duration(reply["uptimeSeconds"]?.numberValue ?? 0)),
      ("scenes", LayoutText.number(reply["scenes"])), ("connections", LayoutText.number(reply["connections"])),
      ("subscribers", LayoutText.number(reply["subscribers"])),
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

  /// Ids from a `GetState` reply, one per line (for `__ids`).
  public static func ids(fromStateReply reply: JSONValue, kind: IdKind) -> String {
    let state = reply["state"] ?? .null
    let ids: [String]
    switch kind {
    case .navigation: ids = (state["navigationBar"]?["items"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
    case .bar: ids = (state["barButtonItems"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
    }
    return ids.map { $0 + "\n" }.joined()
  }

  static func version(_ reply: JSONValue) -> Int? { wholeNumber(reply["version"]) }

  /// A reply's number as an `Int`, rounded down; nil when it is missing, not a number, negative
  /// or beyond 2^53 (a reply never makes navctl trap, whatever navd or an impostor sends).
  static func wholeNumber(_ json: JSONValue?) -> Int? {
    guard let value = json?.numberValue, value >= 0, value <= Double(ValueReader.largestExactInteger) else {
      return nil
    }
    return Int(value.rounded(.down))
  }
}
