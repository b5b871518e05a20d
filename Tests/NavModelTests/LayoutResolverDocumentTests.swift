import NavModel
import Testing

/// The layout document's exact shape (SEMANTICS R62): field names, `null`s
/// and where geometry appears.
@Suite("Layout resolver: document")
struct LayoutResolverDocumentTests {
  typealias S = LayoutScenes

  static let defaultAppearance: JSONValue = [
    "barStyle": "default", "translucent": true, "backgroundColor": "#FFFFFF", "backgroundImage": nil,
    "shadowImage": nil, "tint": "#007AFF", "titleTextAttributes": nil,
  ]

  @Test("R62 an empty scene: nulls for the top item, prompt, back button and centre; empty arrays")
  func emptyScene() {
    let expected: JSONValue = [
      "navigationBar": [
        "hidden": false, "topItem": nil, "prompt": nil, "backButton": nil, "left": [], "centre": nil, "right": [],
        "overflow": [], "appearance": Self.defaultAppearance,
      ],
      "toolbar": ["hidden": false, "items": [], "overflow": [], "appearance": Self.defaultAppearance],
    ]
    #expect(LayoutResolver.resolve(.empty).json == expected)
    #expect(LayoutResolver.resolve(.empty, metrics: LayoutMetrics(width: 375)).json == expected)
  }

  @Test("R62 example 1 as a document, with a width: every field present, geometry on placed things only")
  func example1Document() {
    let layout = LayoutResolver.resolve(LayoutResolverOverflowTests.example1, metrics: LayoutMetrics(width: 375))
    let expected: JSONValue = [
      "hidden": false, "topItem": "inbox", "prompt": nil,
      "backButton": [
        "sourceItem": "mailboxes", "item": nil, "title": "Mailboxes", "image": nil, "enabled": true,
        "tint": "#007AFF", "x": 8, "width": 92,
      ],
      "left": [],
      "centre": ["kind": "title", "title": "Inbox", "titleView": nil, "x": 167.5, "width": 40, "truncated": false],
      "right": [
        [
          "id": "edit", "kind": "system", "title": nil, "image": nil, "systemItem": "edit", "style": "plain",
          "customView": nil, "enabled": true, "tint": "#007AFF", "x": 337, "width": 30,
        ]
      ],
      "overflow": [],
      "appearance": Self.defaultAppearance,
    ]
    #expect(layout.json["navigationBar"] == expected)
  }

  @Test("R62 items carry image and custom view objects with null sizes; overflow entries carry side, no geometry")
  func itemObjects() {
    let state = S.scene(
      [
        NavigationItem(
          id: "top", title: String(repeating: "T", count: 30), titleView: CustomView(name: "seg", width: 10),
          leftBarButtonItems: ["img"], rightBarButtonItems: ["view"])
      ],
      items: [
        BarButtonItem(id: "img", style: .bordered, title: "Label", image: ImageRef(name: "star", opaque: false)),
        BarButtonItem(id: "view", customView: CustomView(name: "gauge", width: 500, height: 28), enabled: false),
      ], toolbar: ["img"])
    let json = LayoutResolver.resolve(state, metrics: LayoutMetrics(width: 375)).json
    #expect(
      json["navigationBar"]?["left"]
        == [
          [
            "id": "img", "kind": "image", "title": "Label",
            "image": ["name": "star", "opaque": false, "width": nil, "height": nil], "systemItem": nil,
            "style": "bordered", "customView": nil, "enabled": true, "tint": "#007AFF", "x": 8, "width": 30,
          ]
        ])
    #expect(
      json["navigationBar"]?["overflow"]
        == [
          [
            "id": "view", "kind": "customView", "title": nil, "image": nil, "systemItem": nil, "style": "plain",
            "customView": ["name": "gauge", "width": 500, "height": 28], "enabled": false, "tint": "#007AFF",
            "side": "right",
          ]
        ])
    // Left items suppress the title view (R20): a title centre with a null titleView.
    #expect(json["navigationBar"]?["centre"]?["titleView"] == .null)
    #expect(json["toolbar"]?["items"]?.arrayValue?.first?["x"] == 8)
  }

  @Test("R62 a title-view centre and an image back button")
  func titleViewAndImageBack() {
    let state = S.scene(
      [
        NavigationItem(id: "a", backBarButtonItem: "up"),
        NavigationItem(id: "b", title: "B", titleView: CustomView(name: "seg", width: 120)),
      ], items: [BarButtonItem(id: "up", image: ImageRef(name: "arrow", width: 12, height: 20))])
    let json = LayoutResolver.resolve(state).json["navigationBar"]
    #expect(
      json?["backButton"]
        == [
          "sourceItem": "a", "item": "up", "title": nil,
          "image": ["name": "arrow", "opaque": true, "width": 12, "height": 20], "enabled": true, "tint": "#007AFF",
        ])
    #expect(
      json?["centre"]
        == ["kind": "titleView", "title": "B", "titleView": ["name": "seg", "width": 120, "height": 30]])
  }

  @Test("R62 resolving is deterministic to the byte")
  func deterministicBytes() {
    let state = LayoutResolverOverflowTests.example2
    for metrics in [nil, LayoutMetrics(width: 320)] {
      let a = JSONWriter.bytes(LayoutResolver.resolve(state, metrics: metrics).json)
      let b = JSONWriter.bytes(LayoutResolver.resolve(state, metrics: metrics).json)
      #expect(a == b)
    }
  }
}
