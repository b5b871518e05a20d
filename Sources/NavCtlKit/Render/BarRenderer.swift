import NavModel

/// Draws a resolved layout (SEMANTICS R62) as text: the navigation bar and the toolbar as boxes.
///
/// Scale: one terminal column is 8 points, the width of one character in the
/// SEMANTICS text estimate (R30, R31), so a title of n characters takes n columns
/// and a button titled with n characters n + 2. A drawing `width` columns wide has
/// a bar interior of `width − 2` columns (the box takes one column each side):
/// resolve the layout at `layoutWidth(forColumns: width)` points for the drawing
/// to match the geometry exactly. A layout without geometry is laid out here, in columns.
public enum BarRenderer {
  /// Points per terminal column.
  public static let pointsPerColumn = 8.0

  /// The bar width in points to resolve a layout at, for a drawing `columns` wide.
  public static func layoutWidth(forColumns columns: Int) -> Double {
    Double(max(columns - 2, 0)) * pointsPerColumn
  }

  /// The drawing of `layout`, `width` columns wide, one line per row, each ending in a newline.
  ///
  /// Rows: the navigation bar's box (a prompt line when there is a prompt, then the
  /// back button, left items, centre and right items), a list of the items that did
  /// not fit, an empty line for the screen's content, then the toolbar's box and its
  /// overflow. Disabled items are dimmed (in parentheses without colour); the black
  /// bar style has double lines (`#` and `=` in ASCII) and, with colour, a dark bar;
  /// a hidden bar is drawn with dashed lines and tagged `hidden`.
  public static func render(layout: Layout, width: Int, style: RenderStyle) -> String {
    var drawing = BarDrawing(width: max(width, 8), style: style)
    drawing.drawNavigationBar(layout.navigationBar)
    drawing.canvas.addRow()
    drawing.drawToolbar(layout.toolbar)
    if style.legend { drawing.drawLegend() }
    return drawing.canvas.render(depth: style.colorDepth)
  }
}

/// One drawing in progress: a canvas and the style it is drawn in.
struct BarDrawing {
  var canvas: TextCanvas
  let style: RenderStyle
  let glyphs: ItemGlyphs
  /// Disabled labels (without colour) whose parentheses go just outside their span, once the row is drawn.
  var pendingParentheses: [(row: Int, start: Int, end: Int, label: String, column: Int, span: Int)] = []
  /// The glyphs drawn so far and what each stands for, in order, once each (for the legend).
  var legendEntries: [(glyph: String, meaning: String)] = []

  init(width: Int, style: RenderStyle) {
    canvas = TextCanvas(width: width)
    self.style = style
    glyphs = ItemGlyphs(unicode: style.unicode)
  }

  var interior: Int { canvas.width - 2 }

  /// The colours of a bar's inside: its background colour (black for the black style) and
  /// text that reads on it (R49: light text on black, dark text otherwise).
  func barColors(_ appearance: ResolvedAppearance) -> (background: CellStyle, text: Color?) {
    guard style.color else { return (.plain, nil) }
    let black = appearance.barStyle == .black
    var background = appearance.backgroundColor.map { Color(red: $0.red, green: $0.green, blue: $0.blue) }
    if background == nil, black { background = .black }
    let text: Color? = black ? .white : (background == nil ? nil : Color(red: 0x1C, green: 0x1C, blue: 0x1E))
    return (CellStyle(background: background), text)
  }

  /// Draws a box of `rows` inside rows; returns the inside rows' indices.
  mutating func box(rows: Int, appearance: ResolvedAppearance, hidden: Bool, overflowCount: Int) -> [Int] {
    let black = appearance.barStyle == .black
    let lines = BoxGlyphs(unicode: style.unicode, black: black, hidden: hidden)
    let border = CellStyle(dim: hidden)
    let width = canvas.width
    let top = canvas.addRow()
    let across = String(repeating: lines.horizontal, count: width - 2)
    canvas.write(lines.topLeft + across + lines.topRight, row: top, column: 0, style: border)
    var tags: [String] = []
    if hidden { tags.append("hidden") }
    if black { tags.append("black") }
    if !tags.isEmpty {
      canvas.write(" \(tags.joined(separator: ", ")) ", row: top, column: 2, limit: width - 2, style: border)
    }
    let colors = barColors(appearance)
    var inside: [Int] = []
    for _ in 0..<rows {
      let row = canvas.addRow()
      canvas.write(lines.vertical, row: row, column: 0, style: border)
      canvas.write(lines.vertical, row: row, column: width - 1, style: border)
      canvas.fill(row: row, columns: 1..<(width - 1), style: colors.background)
      inside.append(row)
    }
    let bottom = canvas.addRow()
    canvas.write(lines.bottomLeft + across + lines.bottomRight, row: bottom, column: 0, style: border)
    if overflowCount > 0 {
      let marker = " \(glyphs.overflow) \(overflowCount) more "
      canvas.write(
        marker, row: bottom, column: max(1, width - 2 - DisplayWidth.of(marker)), limit: width - 1,
        style: CellStyle(bold: true))
    }
    return inside
  }

  mutating func noteInLegend(_ glyph: String, _ meaning: String) {
    guard !legendEntries.contains(where: { $0.glyph == glyph && $0.meaning == meaning }) else { return }
    legendEntries.append((glyph, meaning))
  }

  /// `--labels`: what each glyph drawn stands for (`@ refresh  del trash`), wrapped under the drawing.
  mutating func drawLegend() {
    guard !legendEntries.isEmpty else { return }
    // Wrapped between entries, never inside one: a glyph stays beside its meaning.
    var lines = ["legend:"]
    for entry in legendEntries.map({ "\($0.glyph) \(DisplayWidth.sanitize($0.meaning))" }) {
      let joined = lines[lines.count - 1] + (lines.count == 1 && lines[0] == "legend:" ? " " : "  ") + entry
      if DisplayWidth.of(joined) <= canvas.width || lines[lines.count - 1].allSatisfy({ $0 == " " }) {
        lines[lines.count - 1] = joined
      } else {
        lines.append("  " + entry)
      }
    }
    for line in lines {
      canvas.write(line, row: canvas.addRow(), column: 0, style: CellStyle(dim: true))
    }
  }

  /// The list under a bar of what it could not show.
  mutating func overflowList(_ items: [BarPlacement.Unshown], sides: Bool) {
    guard !items.isEmpty else { return }
    let names = items.map { unshown in
      DisplayWidth.sanitize(Self.listName(unshown.item))
        + (sides && unshown.side != nil ? " (\(unshown.side!.rawValue))" : "")
    }
    let text = "\(glyphs.overflow) not shown: " + names.joined(separator: ", ")
    for (i, line) in HelpFormatter.wrapLines(text, width: canvas.width - 3).enumerated() {
      let row = canvas.addRow()
      canvas.write((i == 0 ? " " : "   ") + line, row: row, column: 0, style: CellStyle(dim: true))
    }
  }

  /// How an item is named in lists: its id, and its title when it has one.
  static func listName(_ item: LayoutItem) -> String {
    var name = item.id
    if let title = item.title, !title.isEmpty {
      name += " \"\(title)\""
    } else if let systemItem = item.systemItem {
      name += " (\(systemItem.rawValue))"
    }
    return name
  }

  mutating func drawNavigationBar(_ bar: NavigationBarLayout) {
    let placement = BarPlacement(navigationBar: bar, interior: interior)
    let prompt = bar.prompt.map(DisplayWidth.sanitize)
    let rows = box(
      rows: prompt == nil ? 1 : 2, appearance: bar.appearance, hidden: bar.hidden,
      overflowCount: placement.overflow.count)
    let colors = barColors(bar.appearance)
    if let prompt {
      let text = DisplayWidth.fit(prompt, interior - 2, ellipsis: glyphs.ellipsis)
      let column = 1 + (interior - DisplayWidth.of(text)) / 2
      canvas.write(
        text, row: rows[0], column: column, limit: canvas.width - 1, style: CellStyle(foreground: colors.text))
    }
    let row = rows.last!
    for element in placement.placed { draw(element, row: row, appearance: bar.appearance) }
    closeParentheses()
    if bar.topItem == nil, bar.centre == nil {
      let text = DisplayWidth.fit("(empty stack)", interior, ellipsis: glyphs.ellipsis)
      canvas.write(
        text, row: row, column: 1 + (interior - DisplayWidth.of(text)) / 2, limit: canvas.width - 1,
        style: CellStyle(foreground: colors.text, dim: true))
    }
    overflowList(placement.overflow, sides: true)
  }

  mutating func drawToolbar(_ toolbar: ToolbarLayout) {
    let placement = BarPlacement(toolbar: toolbar, interior: interior)
    let rows = box(
      rows: 1, appearance: toolbar.appearance, hidden: toolbar.hidden, overflowCount: placement.overflow.count)
    for element in placement.placed { draw(element, row: rows[0], appearance: toolbar.appearance) }
    closeParentheses()
    overflowList(placement.overflow, sides: false)
  }

  /// Draws one placed element; the interior's column 0 is the canvas's column 1.
  mutating func draw(_ placed: BarPlacement.Placed, row: Int, appearance: ResolvedAppearance) {
    let column = 1 + placed.column
    let limit = min(column + placed.span, canvas.width - 1)
    let span = limit - column
    guard span > 0 else { return }
    let colors = barColors(appearance)
    switch placed.element {
    case .back(let back):
      var label = glyphs.chevron
      if back.image != nil {
        label += " " + glyphs.image
      } else if let title = back.title {
        label += " " + DisplayWidth.sanitize(title)
      }
      writeLabel(label, column: column, span: span, row: row, tint: back.tint, enabled: back.enabled, centred: false)
    case .item(let item):
      let label: String
      switch item.kind {
      case .title: label = DisplayWidth.sanitize(item.title ?? "")
      case .system:
        label = glyphs.system(item.systemItem?.rawValue)
        noteInLegend(label, item.systemItem?.rawValue ?? "system item")
      case .image:
        label = glyphs.image
        noteInLegend(label, "image")
      case .customView: label = glyphs.view(DisplayWidth.sanitize(item.customView?.name ?? ""), columns: span)
      case .custom, .flexibleSpace, .fixedSpace: label = glyphs.emptyButton
      }
      var framed = label
      if item.style == .bordered, item.kind == .title || item.kind == .custom { framed = "[" + label + "]" }
      writeLabel(
        framed, column: column, span: span, row: row, tint: item.tint, enabled: item.enabled, centred: true,
        bold: item.style == .done)
    case .centre(let centre):
      if centre.kind == .titleView {
        let view = glyphs.view(DisplayWidth.sanitize(centre.titleView?.name ?? ""), columns: span)
        canvas.write(view, row: row, column: column, limit: limit, style: CellStyle(foreground: colors.text))
      } else {
        let title = DisplayWidth.fit(DisplayWidth.sanitize(centre.title ?? ""), span, ellipsis: glyphs.ellipsis)
        let start = column + (span - DisplayWidth.of(title)) / 2
        let color = style.color ? (appearance.titleTextAttributes?.color ?? colors.text) : nil
        canvas.write(title, row: row, column: start, limit: limit, style: CellStyle(foreground: color, bold: true))
      }
    }
  }

  /// Writes a button's label inside its span: tinted, bold for the done style, dimmed when
  /// disabled, cut with an ellipsis when it does not fit.
  ///
  /// Without colour a disabled label is put in parentheses: inside its span when they fit,
  /// else just outside it, in the blank columns the spacing leaves (see `closeParentheses`).
  mutating func writeLabel(
    _ label: String, column: Int, span: Int, row: Int, tint: Color?, enabled: Bool, centred: Bool, bold: Bool = false
  ) {
    let cell = CellStyle(foreground: style.color ? tint : nil, bold: bold && style.color, dim: !enabled && style.color)
    let parenthesised = "(" + label + ")"
    if !enabled, !style.color, DisplayWidth.of(parenthesised) <= span {
      let start = centred ? column + (span - DisplayWidth.of(parenthesised)) / 2 : column
      canvas.write(parenthesised, row: row, column: start, limit: column + span, style: cell)
      return
    }
    let text = DisplayWidth.fit(label, span, ellipsis: glyphs.ellipsis)
    let start = centred ? column + (span - DisplayWidth.of(text)) / 2 : column
    let end = canvas.write(text, row: row, column: start, limit: column + span, style: cell)
    if !enabled, !style.color {
      pendingParentheses.append((row, start - 1, end, label, column, span))
    }
  }

  /// Puts the parentheses of disabled labels (without colour) just outside their spans where
  /// those columns are blank; otherwise the label is shortened to make room inside its span.
  mutating func closeParentheses() {
    for pending in pendingParentheses {
      let inside = 1..<(canvas.width - 1)
      if inside.contains(pending.start), inside.contains(pending.end),
        canvas.isBlank(row: pending.row, column: pending.start), canvas.isBlank(row: pending.row, column: pending.end)
      {
        canvas.write("(", row: pending.row, column: pending.start)
        canvas.write(")", row: pending.row, column: pending.end)
      } else {
        let blank = String(repeating: " ", count: pending.span)
        canvas.write(blank, row: pending.row, column: pending.column, limit: pending.column + pending.span)
        let text = "(" + DisplayWidth.fit(pending.label, pending.span - 2, ellipsis: glyphs.ellipsis) + ")"
        canvas.write(text, row: pending.row, column: pending.column, limit: pending.column + pending.span)
      }
    }
    pendingParentheses.removeAll()
  }
}
