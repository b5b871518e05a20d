import Foundation

/// Readable ids made from titles, for items the user did not name (`push Inbox` → `inbox`).
public enum IdentifierSlug {
  /// A slug of `text`: lower-case ASCII letters and digits, other runs become one `-`,
  /// accents are dropped (`Café Menu` → `cafe-menu`); at most 40 characters. Text with
  /// nothing usable gives `fallback`.
  public static func slug(_ text: String, fallback: String = "item") -> String {
    var out = ""
    var pendingDash = false
    for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
      if scalar.properties.generalCategory == .nonspacingMark { continue }
      let lower = scalar.properties.lowercaseMapping.unicodeScalars.first ?? scalar
      if ("a"..."z").contains(lower) || ("0"..."9").contains(lower) {
        let dash = pendingDash && !out.isEmpty
        if out.unicodeScalars.count + (dash ? 2 : 1) > 40 { break }
        if dash { out.append("-") }
        pendingDash = false
        out.unicodeScalars.append(lower)
      } else {
        pendingDash = true
      }
    }
    return out.isEmpty ? fallback : out
  }

  /// A slug of `text` not in `taken`: the slug itself, else the slug with the
  /// shortest suffix `-2`, `-3`, … that is free.
  public static func unique(_ text: String, taken: Set<String>, fallback: String = "item") -> String {
    let base = slug(text, fallback: fallback)
    if !taken.contains(base) { return base }
    var n = 2
    while taken.contains("\(base)-\(n)") { n += 1 }
    return "\(base)-\(n)"
  }
}
