import NavModel

/// How one terminal cell is drawn.
struct CellStyle: Sendable, Hashable {
  var foreground: Color?
  var background: Color?
  var bold = false
  var dim = false
  var underline = false

  static let plain = CellStyle()

  /// The SGR parameters that draw this style from a reset, its colours at `depth`.
  func sgr(_ depth: ColorDepth = .trueColor) -> String {
    var codes = ["0"]
    if bold { codes.append("1") }
    if dim { codes.append("2") }
    if underline { codes.append("4") }
    if let foreground { codes.append(depth.sgr(foreground, background: false)) }
    if let background { codes.append(depth.sgr(background, background: true)) }
    return codes.joined(separator: ";")
  }
}

/// A grid of terminal cells that text is written into at columns, then printed once.
///
/// Pure: nothing is printed here. Wide characters take two cells (the second holds
/// nothing); writes stop at their limit so nothing spills into a neighbour.
struct TextCanvas {
  struct Cell: Hashable {
    /// One grapheme, or "" for the second half of a wide character.
    var text: String = " "
    var style = CellStyle.plain
  }

  let width: Int
  private(set) var rows: [[Cell]] = []

  init(width: Int) { self.width = max(width, 1) }

  /// Adds an empty row and returns its index.
  @discardableResult
  mutating func addRow() -> Int {
    rows.append([Cell](repeating: Cell(), count: width))
    return rows.count - 1
  }

  /// Gives `columns` of `row` a background (kept under later writes that set none).
  mutating func fill(row: Int, columns: Range<Int>, style: CellStyle) {
    for column in columns.clamped(to: 0..<width) { rows[row][column].style = style }
  }

  /// Whether a cell holds nothing written (a space, whatever its background).
  func isBlank(row: Int, column: Int) -> Bool {
    column >= 0 && column < width && rows[row][column].text == " "
  }

  /// Writes `text` from `column`, stopping before `limit`; returns the column after the last cell written.
  @discardableResult
  mutating func write(_ text: String, row: Int, column: Int, limit: Int? = nil, style: CellStyle = .plain) -> Int {
    let end = min(limit ?? width, width)
    var column = max(column, 0)
    for character in text {
      let w = DisplayWidth.of(character)
      guard w > 0 else { continue }
      if column + w > end { break }
      var merged = style
      if merged.background == nil { merged.background = rows[row][column].style.background }
      rows[row][column] = Cell(text: String(character), style: merged)
      if w == 2 { rows[row][column + 1] = Cell(text: "", style: merged) }
      column += w
    }
    return column
  }

  /// The grid as lines; with a colour depth, attributes as ANSI SGR sequences, reset at each line's end.
  func render(depth: ColorDepth) -> String {
    let color = depth != .none
    var out = ""
    for row in rows {
      var line = ""
      var current = CellStyle.plain
      // Trailing blank cells without attributes are not printed, with or without colour.
      let used = (row.lastIndex { $0.text != " " || (color && $0.style != .plain) } ?? -1) + 1
      for cell in row[..<used] {
        if color, cell.style != current {
          line += "\u{1B}[\(cell.style.sgr(depth))m"
          current = cell.style
        }
        line += cell.text
      }
      if color, current != .plain { line += "\u{1B}[0m" }
      out += line + "\n"
    }
    return out
  }
}
