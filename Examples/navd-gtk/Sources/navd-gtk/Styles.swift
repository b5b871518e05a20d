import CGtk
import NavGtkKit

/// The one style sheet every window's widgets use, loaded into GTK above the theme.
@MainActor
final class Styles {
  private(set) var sheet = StyleSheet()
  private let provider = gtk_css_provider_new()!
  private var loaded = ""

  /// Registers the provider for the default display (call after GTK is initialised).
  init() {
    gtk_style_context_add_provider_for_display(
      gdk_display_get_default(), OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    load()
  }

  /// Takes a sheet a builder grew; reloads GTK's copy only when it changed.
  func update(_ next: StyleSheet) {
    sheet = next
    load()
  }

  private func load() {
    let css = sheet.css
    guard css != loaded else { return }
    loaded = css
    gtk_css_provider_load_from_data(provider, css, -1)
  }
}
