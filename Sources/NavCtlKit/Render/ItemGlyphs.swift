/// The characters `show` draws with, in a Unicode and an ASCII set.
///
/// Every label fits the item's width at 8 points per column: system items and
/// images are 30 points (3 columns), so their labels are at most 3 columns.
struct ItemGlyphs {
  let unicode: Bool

  var chevron: String { unicode ? "‹" : "<" }
  var image: String { unicode ? "▣" : "#" }
  var emptyButton: String { unicode ? "□" : "o" }
  var ellipsis: String { unicode ? "…" : "~" }
  var overflow: String { unicode ? "»" : ">>" }
  var viewFill: Character { unicode ? "·" : "." }
  var viewOpen: String { unicode ? "⟨" : "{" }
  var viewClose: String { unicode ? "⟩" : "}" }

  /// The label of a system item (R40), at most 3 columns.
  func system(_ name: String?) -> String {
    let (symbol, ascii): (String, String) =
      switch name ?? "" {
      case "done": ("✓", "ok")
      case "cancel": ("✕", "x")
      case "edit": ("✎", "ed")
      case "save": ("⤓", "sav")
      case "add": ("+", "+")
      case "compose": ("✍", "new")
      case "reply": ("↩", "re")
      case "action": ("⇪", "^")
      case "organize": ("▤", "org")
      case "bookmarks": ("⚑", "bk")
      case "search": ("⌕", "?")
      case "refresh": ("↻", "@")
      case "stop": ("■", "[]")
      case "camera": ("◉", "cam")
      case "trash": ("⌧", "del")
      case "play": ("▸", ">")
      case "pause": ("‖", "||")
      case "rewind": ("◂◂", "<<")
      case "fastForward": ("▸▸", ">>")
      case "undo": ("↶", "un")
      case "redo": ("↷", "re+")
      case "pageCurl": ("◥", "pg")
      case "close": ("×", "x")
      default: ("◇", "*")
      }
    return unicode ? symbol : ascii
  }

  /// A custom or title view of `columns` columns: `⟨··name··⟩`.
  func view(_ name: String, columns: Int) -> String {
    guard columns >= 3 else { return String(repeating: viewFill, count: max(columns, 0)) }
    let inner = columns - 2
    let shown = DisplayWidth.fit(name, inner, ellipsis: ellipsis)
    let pad = inner - DisplayWidth.of(shown)
    let left = String(repeating: viewFill, count: pad / 2)
    let right = String(repeating: viewFill, count: pad - pad / 2)
    return viewOpen + left + shown + right + viewClose
  }
}

/// The line characters of a bar's box.
struct BoxGlyphs {
  let topLeft: String
  let topRight: String
  let bottomLeft: String
  let bottomRight: String
  let horizontal: String
  let vertical: String

  /// Single lines for the default style, double for black, dashed for a hidden bar.
  init(unicode: Bool, black: Bool, hidden: Bool) {
    switch (unicode, black, hidden) {
    case (true, _, true):
      (topLeft, topRight, bottomLeft, bottomRight, horizontal, vertical) = ("┌", "┐", "└", "┘", "┄", "┆")
    case (true, true, false):
      (topLeft, topRight, bottomLeft, bottomRight, horizontal, vertical) = ("╔", "╗", "╚", "╝", "═", "║")
    case (true, false, false):
      (topLeft, topRight, bottomLeft, bottomRight, horizontal, vertical) = ("┌", "┐", "└", "┘", "─", "│")
    case (false, _, true):
      (topLeft, topRight, bottomLeft, bottomRight, horizontal, vertical) = ("+", "+", "+", "+", ".", ":")
    case (false, true, false):
      (topLeft, topRight, bottomLeft, bottomRight, horizontal, vertical) = ("#", "#", "#", "#", "=", "#")
    case (false, false, false):
      (topLeft, topRight, bottomLeft, bottomRight, horizontal, vertical) = ("+", "+", "+", "+", "-", "|")
    }
  }
}
