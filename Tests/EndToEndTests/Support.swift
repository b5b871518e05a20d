import NavClient
import NavModel
import Testing

/// A `NavClient` of `navd`; every plain call is bounded by `timeout`.
func makeClient(_ navd: RunningNavd, clientId: String? = nil, timeout: Duration = .seconds(300)) -> NavClient {
  NavClient(socketPath: navd.socketPath, clientId: clientId, timeout: timeout)
}

/// The document `view` (at `width`) as navd's plain reads return it right now, and its version.
///
/// The state view is read with a raw `GetState` call so the JSON is compared exactly as sent,
/// not after a decode/encode round trip.
func currentDocument(
  _ client: NavClient, view: DocumentKind, width: Double? = nil, scene: String = "main"
) async throws -> (version: UInt64, document: JSONValue) {
  switch view {
  case .state:
    let reply = try await client.call(method: "io.navd.GetState", parameters: ["scene": .string(scene)])
    let version = try #require(reply["version"]?.numberValue, "GetState reply without a version: \(reply)")
    let document = try #require(reply["state"], "GetState reply without a state: \(reply)")
    return (UInt64(version), document)
  case .layout:
    let (version, layout) = try await client.layout(scene: scene, width: width)
    return (version, layout)
  }
}

/// A subscription reader with a readable name.
func subscribe(
  _ client: NavClient, view: DocumentKind, width: Double? = nil, since: DocumentCheckpoint? = nil
) -> StreamReader<DocumentUpdates> {
  StreamReader(
    client.updates(view: view, width: width, since: since),
    name: "updates(view: \(view), width: \(width.map { "\($0)" } ?? "nil"))")
}

/// The op setting navigation item `item`'s title.
func setTitle(_ item: String, _ title: String?) -> Op {
  .updateNavigationItem(item, [.title(title)], animated: false)
}

/// The title of navigation item `item` in `state`, nil when unset or not on the stack.
func title(of item: String, in state: SceneState) -> String? {
  state.navigationBar.items.first { $0.id == item }?.title
}

/// A few varied mutations (stack, titles, items, toolbar, bars) used to drive subscriptions.
///
/// Each element is one mutation; applied in order from an empty `main` they all succeed.
let varietyOfMutations: [[Op]] = [
  [.push(NavigationItem(id: "inbox", title: "Inbox"), animated: false)],
  [
    .defineBarButtonItem(BarButtonItem(id: "compose", systemItem: .compose, action: "compose")),
    .defineBarButtonItem(BarButtonItem(id: "edit", title: "Edit", possibleTitles: ["Edit", "Done"])),
    .setBarButtonItems(navigationItem: "inbox", side: .right, items: ["compose", "edit"], animated: false),
  ],
  [.push(NavigationItem(id: "message", title: "A rather long message subject line"), animated: true)],
  [
    .updateNavigationItem("message", [.prompt("Draft"), .title("Re: lunch")], animated: false),
    .setToolbarItems(["compose"], animated: false),
  ],
  [.updateBarButtonItem("edit", [.title("Done"), .enabled(false)])],
  [.pop(expectTop: "message", animated: true)],
  [.setBarHidden(.toolbar, hidden: true, animated: false), setTitle("inbox", "Mailboxes")],
]
