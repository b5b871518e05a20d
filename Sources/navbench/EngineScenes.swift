import NavModel

/// The scenes `navbench --engine` mutates, built from wire-form ops so they
/// read as a client would send them.
enum EngineScene: String, CaseIterable {
  /// One screen with a title: the smallest layout.
  case title
  /// Three screens, bar button items on both sides, a toolbar of 32 items.
  case toolbar

  var label: String {
    switch self {
    case .title: "one screen, title only"
    case .toolbar: "3 screens, 5 bar items, 32 toolbar items"
    }
  }

  /// The ops that build the scene; the benchmark then changes the title of item `top`.
  var setupOps: String {
    switch self {
    case .title:
      return #"[{"op":"setStack","items":[{"id":"top","title":"Bench"}]}]"#
    case .toolbar:
      let systems = ["flexibleSpace", "refresh", "trash", "compose", "reply", "action", "organize", "bookmarks"]
      var ops: [String] = []
      for i in 0..<32 {
        let definition =
          i % 4 == 3
          ? #"{"id":"tool\#(i)","systemItem":"\#(systems[i / 4])"}"# : #"{"id":"tool\#(i)","title":"Tool \#(i)"}"#
        ops.append(#"{"op":"defineBarButtonItem","barButtonItem":\#(definition)}"#)
      }
      for name in ["edit", "add", "done", "search", "save"] {
        ops.append(#"{"op":"defineBarButtonItem","barButtonItem":{"id":"\#(name)","systemItem":"\#(name)"}}"#)
      }
      let toolbar = (0..<32).map { #""tool\#($0)""# }.joined(separator: ",")
      ops.append(#"{"op":"setToolbarItems","items":[\#(toolbar)]}"#)
      ops.append(
        #"{"op":"setStack","items":[{"id":"inbox","title":"Inbox"},{"id":"thread","title":"Thread"},"#
          + #"{"id":"top","title":"Message","leftBarButtonItems":["edit","add"],"#
          + #""rightBarButtonItems":["done","search","save"]}]}"#)
      return "[" + ops.joined(separator: ",") + "]"
    }
  }

  /// The state after the setup ops.
  func initialState() throws -> SceneState {
    try SceneState.empty.applying(try Op.list(json: try JSONParser.parse(setupOps))).state
  }

  /// The parameters of a `Mutate` that retitles `top`, as a client sends them (~200 bytes).
  static func retitle(_ sequence: Int) -> [UInt8] {
    var parameters = Payload.parameters(channel: "bench", sequence: sequence, bytes: 200)
    // Payload names the screen "root"; these scenes call it "top".
    let root = Array(#""item":"root""#.utf8)
    if let range = parameters.firstRange(of: root) {
      parameters.replaceSubrange(range, with: Array(#""item":"top""#.utf8))
    }
    return parameters
  }
}
