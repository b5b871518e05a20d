import NavModel

/// Which document a subscriber follows: the raw state, or the layout resolved
/// with some metrics (SEMANTICS R7). Updates are encoded once per view.
public enum DocumentView: Sendable, Hashable, CustomStringConvertible {
  case state
  case layout(LayoutMetrics)

  /// The document this view shows of `state`.
  public func document(of state: SceneState) -> JSONValue {
    switch self {
    case .state: state.json
    case .layout(let metrics): LayoutResolver.resolve(state, metrics: metrics).json
    }
  }

  /// `state`, `layout`, `layout@375.0`, `layout@375.0,compact`, …
  public var description: String {
    switch self {
    case .state: "state"
    case .layout(let metrics):
      metrics.description.isEmpty
        ? "layout" : "layout\(metrics.description.hasPrefix("@") ? "" : ",")\(metrics.description)"
    }
  }
}

/// A view's document kept current version by version. The layout view keeps
/// a `LayoutDocument`, which resolves again only what a version's ops touched;
/// `DocumentView.document(of:)` stays the from-scratch reference.
///
/// Two optionals, one of them set, rather than an enum with a payload each: a
/// `LayoutDocument` is updated in place through its optional, where taking it out
/// of an enum payload and putting it back would copy it several times per version.
struct LiveDocument: Sendable {
  /// The state view's document; nil for a layout view.
  private var stateDocument: JSONValue?
  /// The layout view's document; nil for the state view.
  private var layoutDocument: LayoutDocument?

  /// `view`'s document of `state`.
  init(_ view: DocumentView, of state: SceneState) {
    switch view {
    case .state: stateDocument = state.json
    case .layout(let metrics): layoutDocument = LayoutDocument(state, metrics: metrics)
    }
  }

  /// What the document holds in memory: a layout view's its document
  /// (`LayoutDocument.residentBytes`) and once more its layout's arrays, which the
  /// view's previous version keeps (`SubscriptionGroup.lastUpdateFrom`) while the
  /// live one is changed from a copy; the state view's, one per scene, its encoded
  /// size `encoded`.
  func residentBytes(encoded: Int) -> Int {
    guard let layoutDocument else { return encoded }
    return layoutDocument.residentBytes + layoutDocument.layoutResidentBytes
  }

  /// The document at `version`, shared with subscribers: a layout view's keeps its
  /// layout, not the JSON this document goes on changing in place (`VersionedDocument`).
  func versioned(_ version: UInt64) -> VersionedDocument {
    if let stateDocument { return VersionedDocument(version: version, document: stateDocument) }
    guard let layout = layoutDocument?.layout else { preconditionFailure("a live document with neither view") }
    return VersionedDocument(version: version, layout: layout)
  }

  /// Moves the document to `state`, which differs from the last one at most in what
  /// `change` names, and returns the patch from the old document to the new (`step`).
  mutating func update(to state: SceneState, change: LayoutChange) -> [PatchOperation] {
    let old = layoutDocument?.layout
    return step(to: state, change: change, shared: nil).patch(from: old, to: self)
  }

  /// Moves the document to `state` as `update(to:change:)` does, and returns the move,
  /// whose patch from the old document to the new is written when asked for
  /// (`LiveUpdate.patch(from:to:)`), or not at all when another width's is the same.
  ///
  /// A layout document resolves again only what `change` names and writes its patch from
  /// the values that changed (`LayoutDocument.step(to:change:shared:)`, held to the resolver
  /// and `PatchBuilder.diff` by `LayoutDocumentTests`); the state document is diffed whole.
  mutating func step(to state: SceneState, change: LayoutChange, shared: SharedResolution?) -> LiveUpdate {
    if let old = stateDocument {
      let new = state.json
      stateDocument = new
      return LiveUpdate(statePatch: PatchBuilder.diff(old, new), step: nil)
    }
    guard layoutDocument != nil else { preconditionFailure("a live document with neither view") }
    return LiveUpdate(statePatch: nil, step: layoutDocument!.step(to: state, change: change, shared: shared))
  }

  /// The layout the document holds; nil for the state view.
  var layout: Layout? { layoutDocument?.layout }
}

/// A `LiveDocument`'s move to a new state: the state view's patch, or a layout view's
/// step, whose patch is written from the layouts before and after it (`patch(from:to:)`).
struct LiveUpdate {
  fileprivate let statePatch: [PatchOperation]?
  fileprivate let step: LayoutStep?

  /// What the patch is the same for between widths (`LayoutStep.Sharing`); nil for the state view.
  var sharing: LayoutStep.Sharing? { step?.sharing }

  /// The patch from `old`, the layout before the move (nil for the state view), to
  /// `document`, the one after it.
  func patch(from old: Layout?, to document: LiveDocument) -> [PatchOperation] {
    if let statePatch { return statePatch }
    guard let step, let old, let layout = document.layout else {
      preconditionFailure("a layout step without its layout")
    }
    return step.patch(from: old, to: layout)
  }
}

/// Subscribers that share a view of one scene, and that view's current
/// document: each update (`UpdateSpans`) is resolved, diffed and encoded once
/// for all of them (`advance`), when the first of them pulls (`ViewChannel`).
struct SubscriptionGroup: Sendable {
  /// The view the group follows.
  let view: DocumentView
  var current: VersionedDocument
  /// The document the view's last update led from (`current` before it; `current` itself
  /// before the first): what a subscriber that has not pulled that update was last sent
  /// (`SubscriberQueue`).
  var lastUpdateFrom: VersionedDocument
  /// `current`'s document, kept so the next version costs only what it changed; nil once
  /// evicted (`LayoutCache`), built again from the state at the next update.
  var live: LiveDocument?
  var subscribers = SubscriberList()
  /// The snapshot frame of `current` (framed) and the size of its encoded
  /// parameters, encoded by the first subscriber that needs it and shared by
  /// the others until the next version.
  var snapshot: (frame: [UInt8], documentBytes: Int)?
  /// The size of the view's encoded document when a snapshot was last made:
  /// what one of its documents costs, to bound commit groups (`SceneEngine.groupCapacity`).
  var documentBytes = 0
  /// Spans committed and not yet computed, oldest first (`published`, `bringUpToDate`).
  var pending: [PendingSpan] = []
  /// The size of one update when the view was last brought up to date (its chunk over its
  /// spans): what `published` weighs a pending span at.
  var updateBytes = 0

  /// The group of `view` at `version`, whose state is `state`.
  init(_ view: DocumentView, version: UInt64, state: SceneState) {
    self.view = view
    let live = LiveDocument(view, of: state)
    self.live = live
    current = live.versioned(version)
    lastUpdateFrom = current
  }

  /// What the view holds in memory while live: its document (`LiveDocument.residentBytes`)
  /// and its snapshot frame: what the scene's `LayoutCache` weighs it at.
  var residentBytes: Int {
    MemoryLayout<SubscriptionGroup>.size + (live?.residentBytes(encoded: documentBytes) ?? 0)
      + (snapshot?.frame.count ?? 0)
  }

  /// Lets go of the live document and the snapshot (`LayoutCache`): `current` stays, the
  /// document the next update leads from.
  mutating func evict() {
    live = nil
    snapshot = nil
  }
}
