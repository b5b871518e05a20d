/// Terminal column widths of text, and text made safe to print.
enum DisplayWidth {
  /// Columns a grapheme takes: 2 for East Asian wide and emoji, 0 for zero-width, else 1.
  static func of(_ character: Character) -> Int {
    guard let first = character.unicodeScalars.first else { return 0 }
    if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
    if first.properties.isEmojiPresentation { return 2 }
    switch first.value {
    case 0x200B...0x200F, 0x2060...0x2064: return 0
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
      0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
      0x1F900...0x1F9FF, 0x20000...0x3FFFD:
      return 2
    default: return 1
    }
  }

  /// Columns a string takes.
  static func of(_ text: String) -> Int { text.reduce(0) { $0 + of($1) } }

  /// `text` without anything that could steer the terminal: control characters (C0, DEL and
  /// C1, which include 8-bit CSI) become `?`; bidirectional overrides and isolates are dropped.
  static func sanitize(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x00...0x1F, 0x7F...0x9F: out.append("?")
      case 0x202A...0x202E, 0x2066...0x2069: continue
      default: out.append(scalar)
      }
    }
    return String(out)
  }

  /// `text` cut to at most `columns` columns, ending in `ellipsis` when cut.
  static func fit(_ text: String, _ columns: Int, ellipsis: String) -> String {
    guard columns > 0 else { return "" }
    if of(text) <= columns { return text }
    let room = columns - of(ellipsis)
    guard room > 0 else { return String(ellipsis.prefix(columns)) }
    var out = ""
    var used = 0
    for character in text {
      let w = of(character)
      if used + w > room { break }
      out.append(character)
      used += w
    }
    return out + ellipsis
  }
}
