import CGtk
import NavGtkKit

/// Builds the widgets of one drawing: every child of a bar sits at the `x` and `width` navd
/// resolved (a `GtkFixed`), so nothing here decides where anything goes.
///
/// Heights are the front end's (bars 44 points, the prompt line 30, buttons 30, a placeholder
/// its own height), centred vertically in the bar.
@MainActor
struct BarBuilder {
  /// Called with an item's id when the user clicks it, and whether it was drawn in the bar
  /// (false: from an overflow menu, activated without a width, where navd resolves no overflow).
  let activate: @MainActor (String, Bool) -> Void
  /// Called when the user clicks the back button.
  let back: @MainActor () -> Void
  /// The style sheet that gets every colour class the widgets use.
  var styles: StyleSheet
  /// The width the layout was resolved at (the bars' width).
  let width: Double

  static let barHeight = 44.0
  static let buttonHeight = 30.0

  /// The navigation bar: the prompt line, the bar, and an overflow menu when items did not fit.
  mutating func navigationBar(_ bar: Drawing.NavigationBar) -> Widget {
    let column = barColumn(bar.appearance, classes: ["navd-navigation-bar"])
    if let prompt = bar.prompt {
      let line = ellipsizingLabel(prompt, classes: ["navd-prompt"])
      gtk_widget_set_size_request(line, -1, 30)
      addClasses(line, ["navd-prompt-line"])
      append(column, line)
    }
    let fixed = gtk_fixed_new()!
    gtk_widget_set_size_request(fixed, -1, Int32(Self.barHeight))
    if let backButton = bar.backButton, let span = backButton.span {
      put(fixed, backButtonWidget(backButton), span, height: Self.buttonHeight)
    }
    for item in bar.left + bar.right { place(item, in: fixed, bar: bar.appearance) }
    if let centre = bar.centre, let span = centre.span { placeCentre(centre, span, in: fixed, bar.appearance) }
    append(column, clipped(fixed))
    if !bar.overflow.isEmpty { append(column, overflowStrip(bar.overflow)) }
    return column
  }

  /// The toolbar: its items at their resolved spans (spaces draw nothing), then its overflow menu.
  mutating func toolbar(_ bar: Drawing.Toolbar) -> Widget {
    let column = barColumn(bar.appearance, classes: ["navd-toolbar"])
    if !bar.overflow.isEmpty { append(column, overflowStrip(bar.overflow)) }
    let fixed = gtk_fixed_new()!
    gtk_widget_set_size_request(fixed, -1, Int32(Self.barHeight))
    for item in bar.items { place(item, in: fixed, bar: bar.appearance) }
    append(column, clipped(fixed))
    return column
  }

  /// A vertical box in the bar's colours.
  private mutating func barColumn(_ appearance: Drawing.Appearance, classes: [String]) -> Widget {
    let column = box(GTK_ORIENTATION_VERTICAL)
    addClasses(column, ["navd-bar", appearance.isDark ? "dark" : "light"] + classes)
    if let background = styles.backgroundClass(appearance) { addClasses(column, [background]) }
    return column
  }

  /// The bar's fixed layer in a scrolled window that never scrolls, so a bar drawn for a wider
  /// window (until the new width's layout arrives) is clipped instead of holding the window wide.
  private func clipped(_ fixed: Widget) -> Widget {
    let scroller = gtk_scrolled_window_new()!
    gtk_scrolled_window_set_policy(OpaquePointer(scroller), GTK_POLICY_EXTERNAL, GTK_POLICY_NEVER)
    gtk_scrolled_window_set_child(OpaquePointer(scroller), fixed)
    gtk_widget_set_hexpand(scroller, 1)
    return scroller
  }

  private func put(_ fixed: Widget, _ child: Widget, _ span: Drawing.Span, height: Double) {
    gtk_widget_set_size_request(child, Int32(span.width.rounded()), Int32(height.rounded()))
    gtk_fixed_put(cast(fixed), child, span.x, max(0, (Self.barHeight - height) / 2))
  }

  /// The title or title view. A title navd did not truncate is drawn whole, centred where navd
  /// centred its estimate (R31 counts 8 points a character; the real font's text is a little
  /// wider or narrower); a truncated one is cut to navd's span with an ellipsis.
  private mutating func placeCentre(
    _ centre: Drawing.Centre, _ span: Drawing.Span, in fixed: Widget, _ appearance: Drawing.Appearance
  ) {
    if let view = centre.titleView {
      put(fixed, placeholderWidget(view), span, height: view.height)
      return
    }
    let label = ellipsizingLabel(centre.title ?? "", classes: ["navd-title"])
    if let attributes = styles.titleClass(appearance) { addClasses(label, [attributes]) }
    var drawn = span
    if !centre.truncated {
      var natural: Int32 = 0
      gtk_widget_measure(label, GTK_ORIENTATION_HORIZONTAL, -1, nil, &natural, nil, nil)
      let width = max(span.width, Double(natural))
      drawn = Drawing.Span(x: span.x + span.width / 2 - width / 2, width: width)
    }
    put(fixed, label, drawn, height: Self.barHeight)
  }

  private mutating func place(_ item: Drawing.Item, in fixed: Widget, bar: Drawing.Appearance) {
    guard !item.isSpace, let span = item.span else { return }
    if let view = item.customView {
      let placeholder = placeholderWidget(view)
      let button = itemButton(item, content: placeholder)
      gtk_widget_set_size_request(button, Int32(span.width.rounded()), Int32(view.height))
      gtk_fixed_put(cast(fixed), button, span.x, max(0, (Self.barHeight - view.height) / 2))
      return
    }
    let button = itemButton(item, content: itemContent(item))
    put(fixed, button, item.systemItem != nil ? widened(button, span) : span, height: Self.buttonHeight)
  }

  /// A system item drawn as a word ("Cancel") in the 30 points navd gives every system item
  /// (R32) would be cut; it is drawn whole, centred on its span, kept inside the bar.
  private func widened(_ button: Widget, _ span: Drawing.Span) -> Drawing.Span {
    var natural: Int32 = 0
    gtk_widget_measure(button, GTK_ORIENTATION_HORIZONTAL, -1, nil, &natural, nil, nil)
    let drawn = max(span.width, Double(natural) + 8)
    guard drawn > span.width else { return span }
    let x = min(max(0, span.x + span.width / 2 - drawn / 2), max(0, width - drawn))
    return Drawing.Span(x: x, width: drawn)
  }

  /// What an item shows: a system item's icon or word, its image, or its title.
  private func itemContent(_ item: Drawing.Item) -> Widget? {
    if let systemItem = item.systemItem {
      let face = SystemItemFace(systemItem)
      if let icon = face.iconName { return gtk_image_new_from_icon_name(icon) }
      return ellipsizingLabel(face.label)
    }
    if let image = item.imageName { return gtk_image_new_from_icon_name(image) }
    if let title = item.title { return ellipsizingLabel(title) }
    return nil
  }

  private mutating func itemButton(_ item: Drawing.Item, content: Widget?) -> Widget {
    let button = gtk_button_new()!
    if let content { gtk_button_set_child(cast(button), content) }
    addClasses(button, ["navd-item", item.style, styles.tintClass(item.tint)])
    gtk_widget_set_sensitive(button, item.enabled ? 1 : 0)
    gtk_widget_set_tooltip_text(button, item.label)
    gtk_widget_set_focus_on_click(button, 0)
    let id = item.id
    let activate = activate
    Signals.connect(raw(button), "clicked") { activate(id, true) }
    return button
  }

  private mutating func backButtonWidget(_ backButton: Drawing.BackButton) -> Widget {
    let button = gtk_button_new()!
    let row = box(GTK_ORIENTATION_HORIZONTAL, spacing: 0)
    append(row, gtk_image_new_from_icon_name("go-previous-symbolic"))
    if let image = backButton.imageName {
      append(row, gtk_image_new_from_icon_name(image))
    } else if let title = backButton.title {
      let label = ellipsizingLabel(title)
      gtk_label_set_xalign(OpaquePointer(label), 0)
      gtk_widget_set_hexpand(label, 1)
      append(row, label)
    }
    gtk_button_set_child(cast(button), row)
    addClasses(button, ["navd-item", "navd-back", "plain", styles.tintClass(backButton.tint)])
    gtk_widget_set_sensitive(button, backButton.enabled ? 1 : 0)
    gtk_widget_set_tooltip_text(button, backButton.title ?? "Back")
    gtk_widget_set_focus_on_click(button, 0)
    let back = back
    Signals.connect(raw(button), "clicked") { back() }
    return button
  }

  /// A dashed box of the view's size with its name: navd knows no more of a custom view.
  private func placeholderWidget(_ view: Drawing.Placeholder) -> Widget {
    let label = ellipsizingLabel(view.name, classes: ["navd-placeholder"])
    gtk_widget_set_size_request(label, Int32(view.width.rounded()), Int32(view.height.rounded()))
    return label
  }

  /// A strip under (or over) a bar with a menu of the items navd overflowed.
  private mutating func overflowStrip(_ items: [Drawing.Item]) -> Widget {
    let strip = box(GTK_ORIENTATION_HORIZONTAL)
    addClasses(strip, ["navd-overflow-strip"])
    let menu = gtk_menu_button_new()!
    gtk_menu_button_set_label(OpaquePointer(menu), "» \(items.count) more")
    addClasses(menu, ["navd-overflow"])
    gtk_widget_set_halign(menu, GTK_ALIGN_END)
    gtk_widget_set_hexpand(menu, 1)
    let list = box(GTK_ORIENTATION_VERTICAL, spacing: 2)
    let popover = gtk_popover_new()!
    for item in items where !item.isSpace {
      let entry = gtk_button_new_with_label(item.label)!
      addClasses(entry, ["flat", styles.tintClass(item.tint)])
      gtk_widget_set_sensitive(entry, item.enabled ? 1 : 0)
      let id = item.id
      let activate = activate
      Signals.connect(raw(entry), "clicked") {
        gtk_popover_popdown(cast(popover))
        activate(id, false)
      }
      append(list, entry)
    }
    gtk_popover_set_child(cast(popover), list)
    gtk_menu_button_set_popover(OpaquePointer(menu), popover)
    append(strip, menu)
    return strip
  }
}
