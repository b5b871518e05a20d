import CGtk

/// A GTK widget pointer, the type every `gtk_*_new` returns.
typealias Widget = UnsafeMutablePointer<GtkWidget>

/// Casts a widget to the C type a `gtk_box_*`, `gtk_fixed_*`, … function takes.
func cast<T>(_ widget: Widget) -> UnsafeMutablePointer<T> {
  UnsafeMutableRawPointer(widget).assumingMemoryBound(to: T.self)
}

/// The raw pointer signals connect to.
func raw(_ widget: Widget) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(widget) }

/// Adds CSS classes to a widget.
func addClasses(_ widget: Widget, _ classes: [String]) {
  for name in classes { gtk_widget_add_css_class(widget, name) }
}

/// A label that ellipsizes at its end rather than grow past the width it is given.
func ellipsizingLabel(_ text: String, classes: [String] = []) -> Widget {
  let label = gtk_label_new(text)!
  gtk_label_set_ellipsize(OpaquePointer(label), PANGO_ELLIPSIZE_END)
  gtk_label_set_single_line_mode(OpaquePointer(label), 1)
  addClasses(label, classes)
  return label
}

/// A horizontal or vertical box.
func box(_ orientation: GtkOrientation, spacing: Int32 = 0) -> Widget {
  gtk_box_new(orientation, spacing)!
}

/// Appends `child` to a box.
func append(_ parent: Widget, _ child: Widget) {
  gtk_box_append(cast(parent), child)
}
