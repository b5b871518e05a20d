/// Maps the field paths of navd's errors (`ops[0].item.leftBarButtonItems[0]`) back to the
/// option or argument of the navctl command that filled them (`--left`), so that an error
/// names what the user typed.
///
/// The last named component of the path is looked up; the first of its candidates that the
/// command has (an option, or a positional) is the answer. `apply` has none: its fields are
/// the user's own JSON, whose paths the wire's are.
public enum FieldNames {
  /// Wire field → the options and positionals that set it, in order of preference.
  static let candidates: [String: [String]] = [
    "leftBarButtonItems": ["--left", "ID"],
    "rightBarButtonItems": ["--right", "ID"],
    "items": ["ID"],
    "title": ["--title", "TITLE", "TEXT"],
    "id": ["--id", "ID"],
    "prompt": ["--prompt", "TEXT"],
    "tintColor": ["--tint", "COLOR"],
    "barTintColor": ["--bar-tint", "COLOR"],
    "backgroundColor": ["COLOR"],
    "backBarButtonItem": ["--back-button", "ID"],
    "systemItem": ["--system"],
    "style": ["--style"],
    "barStyle": ["--style"],
    "action": ["--action"],
    "tag": ["--tag"],
    "width": ["--width"],
    "customView": ["--custom-view"],
    "image": ["--image"],
    "landscapeImagePhone": ["--image"],
    "possibleTitles": ["--possible-title"],
    "hidesBackButton": ["--hide-back"],
    "leftItemsSupplementBackButton": ["--supplement-back"],
    "titleView": ["--title-view"],
    "translucent": ["--translucent"],
    "backgroundImage": ["--background-image"],
    "shadowImage": ["--shadow-image"],
    "enabled": ["--enabled", "--disabled"],
    "item": ["--item", "ID"],
    "expectTop": ["--expect"],
    "toItem": ["ID"],
    "before": ["--before"],
    "scene": ["--scene"],
  ]

  /// The option or positional of `command` that `field` (a wire path) stands for; nil when
  /// none does, or the command is `apply` (or unknown).
  public static func option(forField field: String, command: String?) -> String? {
    guard let command, command != "apply", let spec = CommandTable.spec(named: command) else {
      if field == "scene" { return "--scene" }
      return nil
    }
    let names = Set(spec.options.map(\.name) + spec.positionals.map(\.name) + ["--scene"])
    for key in keys(of: field).reversed() {
      guard let choices = candidates[key] else { continue }
      return choices.first(where: names.contains)
    }
    return nil
  }

  /// The named components of a path: `ops[0].item.leftBarButtonItems[0]` → `ops`, `item`, `leftBarButtonItems`.
  static func keys(of path: String) -> [String] {
    path.split(separator: ".").map { component in
      String(component.prefix { $0 != "[" })
    }.filter { !$0.isEmpty }
  }
}
