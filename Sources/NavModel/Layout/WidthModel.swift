/// The deterministic width model (SEMANTICS R30–R34): how many points every
/// item, back button and title takes.
///
/// UIKit measures with fonts; navd cannot, so every implementation uses these
/// same numbers and agrees to the point. Inputs the validator would reject
/// (negative or non-finite sizes) count as 0 here, so a bad state can never
/// poison the arithmetic.
public enum WidthModel {
  /// `P`: from each bar edge to its first entry (R30).
  public static let edgePadding = 8.0
  /// `S`: between two adjacent non-space entries, and the clearance around the title (R30, R34).
  public static let spacing = 8.0
  /// The back button's chevron, added to its title or icon (R33).
  public static let backChevron = 20.0
  /// The text estimate per extended grapheme cluster (R31).
  public static let pointsPerCharacter = 8.0
  /// Added to a text button's widest title (R32 rule 7).
  public static let buttonTextPadding = 16.0
  /// System items and image items (R32 rules 5, 6).
  public static let iconWidth = 30.0

  /// `text(s)` (R31): 8 per extended grapheme cluster; 0 for nil.
  ///
  /// `String.count` is UAX #29 segmentation, so "é" written as e + U+0301, a
  /// flag and a ZWJ emoji sequence are each one character.
  public static func text(_ string: String?) -> Double {
    guard let string else { return 0 }
    return pointsPerCharacter * Double(characterCount(string))
  }

  /// `string.count`, counted without segmenting while the string is ASCII,
  /// where every byte is a cluster of its own but the LF of a CR LF (UAX #29
  /// GB3); from the first non-ASCII byte on it is `String.count` after all.
  /// Segmenting costs about 25 instructions a character, and every title
  /// change measures its title.
  ///
  /// A string with no byte above 0x7F and no CR, found eight bytes at a
  /// time, is as many clusters as bytes. Otherwise eight bytes are still
  /// taken at a time: a word with no byte above 0x7F and no CR, after a byte
  /// that is no CR, is eight clusters (`isPlainASCII`); only a word that may
  /// hold either, or follows a CR, is looked at byte by byte.
  static func characterCount(_ string: String) -> Int {
    let ascii: Int? = string.withUTF8Bytes { utf8 in
      // Most titles are plain ASCII throughout: one tight pass over the
      // words says so, and the count is the length.
      var unplain: UInt64 = 0
      var word = 0
      if let base = utf8.baseAddress {
        while word + 8 <= utf8.count {
          unplain |= unplainBits(UnsafeRawPointer(base + word).loadUnaligned(as: UInt64.self))
          word += 8
        }
      }
      for byte in utf8[word...] where byte >= 0x80 || byte == UInt8(ascii: "\r") { unplain = 1 }
      if unplain == 0 { return utf8.count }
      var count = 0
      var previous: UInt8 = 0
      var i = 0
      while i < utf8.count {
        if i + 8 <= utf8.count, previous != UInt8(ascii: "\r"), let base = utf8.baseAddress,
          isPlainASCII(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
        {
          count += 8
          previous = 0
          i += 8
          continue
        }
        for byte in utf8[i..<min(i + 8, utf8.count)] {
          if byte >= 0x80 { return nil }
          if previous != UInt8(ascii: "\r") || byte != UInt8(ascii: "\n") { count += 1 }
          previous = byte
        }
        i += 8
      }
      return count
    }
    return ascii ?? string.count
  }

  /// Whether none of the eight bytes of `word` is above 0x7F or a CR: then
  /// each is a cluster of its own. A false "no" only means a slower count.
  static func isPlainASCII(_ word: UInt64) -> Bool {
    unplainBits(word) == 0
  }

  /// Nonzero when a byte of `word` may be above 0x7F or a CR (`isPlainASCII`).
  static func unplainBits(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    // A CR is a zero byte once xored with CR repeated; a zero byte borrows.
    let cr = word ^ (ones &* 0x0D)
    return (word | ((cr &- ones) & ~cr)) & high
  }

  /// `w(i)` (R32), first rule that applies; nil for a flexible space, whose
  /// width the toolbar computes (R47) and the navigation bar skips (R27).
  public static func width(of item: BarButtonItem) -> Double? {
    let kind = LayoutItem.Kind(of: item)
    if kind != .flexibleSpace, let width = item.width, width > 0, width.isFinite { return width }
    switch kind {
    case .customView: return item.customView.map { points($0.width) } ?? 0
    case .fixedSpace: return 0
    case .flexibleSpace: return nil
    case .system, .image: return iconWidth
    case .title, .custom:
      // The widest of the possible titles and the title, measured where they are: joining
      // them into a new array first allocated twice per item resolved.
      var widest = text(item.title)
      for title in item.possibleTitles { widest = max(widest, text(title)) }
      return widest + buttonTextPadding
    }
  }

  /// The back button's width (R33): chevron plus icon when it shows an image,
  /// else chevron plus its title's text.
  public static func backButtonWidth(title: String?, showsImage: Bool) -> Double {
    backChevron + (showsImage ? iconWidth : text(title))
  }

  /// The title width `t` (R33): the title view's width in a title-view
  /// centre, else the title's text estimate.
  public static func titleWidth(_ centre: CentreLayout) -> Double {
    switch centre.kind {
    case .titleView: centre.titleView.map { points($0.width) } ?? 0
    case .title: text(centre.title)
    }
  }

  /// The gap between two adjacent entries (R34): `S`, or 0 when either is a
  /// space. Nil `previous` means `next` is first on its side: no gap, the
  /// edge padding is applied by the caller.
  public static func gap(after previous: LayoutItem.Kind?, before next: LayoutItem.Kind) -> Double {
    guard let previous else { return 0 }
    return previous.isSpace || next.isSpace ? 0 : spacing
  }

  /// A size the validator would have bounded; anything else counts as 0.
  static func points(_ value: Double) -> Double {
    value.isFinite && value > 0 ? value : 0
  }
}
