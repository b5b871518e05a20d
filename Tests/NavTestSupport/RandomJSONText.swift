/// Random JSON text for the tests that hold a typed decoder against its reference: strings
/// with every kind of escape, numbers at and past their limits, keys that are equal only as
/// strings (escaped, canonically equivalent), objects past the 16 keys where duplicate
/// detection switches to hashing; and `corrupt`, which breaks a document in small ways.
public struct RandomJSONText {
  /// The generator's randomness (also for `corrupt` and the caller's own choices).
  public var rng: SplitMix64

  /// A generator that starts at `rng`'s state.
  public init(rng: SplitMix64) { self.rng = rng }

  /// String literals as written in JSON, some of them invalid (lone surrogate, bad escape).
  public static let strings = [
    #""""#, #""Inbox""#, #""Ünïcödé""#, #""e\u0301""#, #""\u00e9""#, #""tab\tand\/""#, #""\ud83d\ude00""#,
    #""\ud83d""#, #""\u12""#, #""\x""#, "\"\u{1}\"", #""😀 party""#, #""a\"b\\""#, #""\uD800\u0041""#,
  ]
  /// Number literals, some past Double's range or malformed.
  public static let numbers = [
    "0", "-0", "12", "-7", "1.5", "1e3", "-12.5e+2", "9007199254740993", "1e400", "-", "01", "1.", "123456789012345",
    "1234567890123456", "-1E-2", "0.1",
  ]
  /// Keys, several of them equal as strings though not as bytes.
  public static let keys = [
    #""a""#, #""b""#, #""title""#, #""é""#, #""e\u0301""#, #""\u0061""#, #""K""#, #""\u212A""#, #""k.x""#,
  ]

  mutating func whitespace() -> String { rng.chance(85) ? "" : rng.pick([" ", "\n", "\t ", "\r\n"]) }

  /// A random document.
  public mutating func document() -> String { whitespace() + value(depth: 0) + whitespace() }

  mutating func value(depth: Int) -> String {
    switch rng.below(depth > 4 ? 6 : 10) {
    case 0, 1: return rng.pick(Self.strings)
    case 2, 3: return rng.pick(Self.numbers)
    case 4: return rng.pick(["true", "false", "null", "tru", "nul"])
    case 5: return String(repeating: "[", count: 66) + String(repeating: "]", count: 66)
    case 6, 7: return object(depth: depth + 1)
    default:
      let elements = (0..<rng.below(4)).map { _ in whitespace() + value(depth: depth + 1) + whitespace() }
      return "[" + elements.joined(separator: ",") + "]"
    }
  }

  mutating func object(depth: Int) -> String {
    let count = rng.chance(5) ? 20 : rng.below(5)
    var members: [String] = []
    for i in 0..<count {
      // Past 4 members, mostly fresh keys, so a big object is not always a duplicate at once.
      let key = i >= 4 && rng.chance(90) ? #""k\#(i)""# : rng.pick(Self.keys)
      members.append(whitespace() + key + whitespace() + ":" + whitespace() + value(depth: depth))
    }
    return "{" + members.joined(separator: ",") + "}"
  }

  /// Leaves most documents alone; breaks the rest: cut short, a byte dropped, inserted
  /// (structural characters, invalid UTF-8) or replaced.
  public static func corrupt(_ bytes: inout [UInt8], _ rng: inout SplitMix64) {
    guard !bytes.isEmpty, rng.chance(35) else { return }
    let noise: [UInt8] = Array("{}[],:\"\\ x0".utf8) + [0x80, 0xC3, 0xFF, 0x00]
    let at = rng.below(bytes.count)
    switch rng.below(4) {
    case 0: bytes.removeSubrange(at...)
    case 1: bytes.remove(at: at)
    case 2: bytes.insert(rng.pick(noise), at: at)
    default: bytes[at] = rng.pick(noise)
    }
  }
}

/// Random op objects as a client might write them, for the op decoders: mostly the ops the
/// typed readers take (`updateNavigationItem`, `pop`, `popTo`, `push`, `setStack`), valid or wrong in one or
/// two places (a missing or mistyped field, an unknown one, an escaped name), and a few
/// others that only the reference reads.
public enum RandomOpText {
  /// Values of every JSON type, to put where a field expects one.
  static let anyValues = [#""Inbox""#, #""""#, "null", "true", "false", "3", "[]", "{}", #""e\u0301""#]

  /// One op object (or, rarely, something that is not an object).
  public static func op(_ rng: inout SplitMix64) -> String {
    switch rng.below(20) {
    case 0..<10: return updateNavigationItem(&rng)
    case 10, 11: return pop(&rng)
    case 12: return popTo(&rng)
    case 13, 14: return push(&rng)
    case 15: return setStack(&rng)
    case 16 where rng.chance(50): return updateBarButtonItem(&rng)
    case 17, 18: return itemArrayOp(&rng)
    case 16: return rng.pick(["1", #""pop""#, "null", "[]", #"{"animated":true}"#, #"{"op":7}"#])
    default:
      return rng.pick([
        #"{"op":"setToolbarItems","items":["a","b"]}"#, #"{"op":"push","item":{"id":"x","title":"X"}}"#,
        #"{"op":"setBarHidden","bar":"toolbar","hidden":true}"#, #"{"op":"deleteBarButtonItem","barButtonItem":"k"}"#,
        ##"{"op":"setSceneTint","tintColor":"#ff0000"}"##, #"{"op":"bogus"}"#,
      ])
    }
  }

  /// `{"a": …, "b": …}` from members, shuffled, each dropped now and then.
  static func object(_ members: [(String, String)], _ rng: inout SplitMix64) -> String {
    var members = members.filter { _ in rng.chance(93) }
    rng.shuffle(&members)
    return "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
  }

  static func maybeWrong(_ good: String, _ rng: inout SplitMix64) -> String {
    rng.chance(8) ? rng.pick(anyValues) : good
  }

  static func flag(_ rng: inout SplitMix64) -> String {
    rng.chance(8) ? rng.pick(anyValues) : rng.pick(["true", "false", "null"])
  }

  static func extra(_ rng: inout SplitMix64) -> [(String, String)] {
    rng.chance(5) ? [(rng.pick(["foo", "titel", "Op", "op.x"]), "1")] : []
  }

  static func updateNavigationItem(_ rng: inout SplitMix64) -> String {
    let name =
      rng.chance(5) ? rng.pick([#""update\u004eavigationItem""#, #""updateNavItem""#]) : #""updateNavigationItem""#
    var set: [(String, String)] = []
    let texts = [#""Inbox""#, "null", #""Ünïcödé""#, #""a\nb""#, #""""#]
    if rng.chance(70) { set.append((rng.chance(5) ? #"\u0074itle"# : "title", maybeWrong(rng.pick(texts), &rng))) }
    if rng.chance(20) { set.append(("prompt", maybeWrong(rng.pick(texts), &rng))) }
    if rng.chance(15) { set.append(("backBarButtonItem", maybeWrong(rng.pick([#""k1""#, "null"]), &rng))) }
    if rng.chance(15) { set.append(("hidesBackButton", maybeWrong(rng.pick(["true", "false"]), &rng))) }
    if rng.chance(15) { set.append(("leftItemsSupplementBackButton", maybeWrong("false", &rng))) }
    if rng.chance(5) { set.append(("titleView", rng.pick([#"{"name":"logo","width":40}"#, "null", "3"]))) }
    set += extra(&rng)
    let setText = rng.chance(4) ? rng.pick(anyValues) : object(set, &rng)
    return object(
      [
        ("op", name), ("item", maybeWrong(rng.pick([#""root""#, #""top""#]), &rng)), ("set", setText),
        ("animated", flag(&rng)),
      ] + extra(&rng), &rng)
  }

  /// An op on a side array, the toolbar or a bar's visibility, mostly valid.
  static func itemArrayOp(_ rng: inout SplitMix64) -> String {
    let ids = ["[]", #"["k1","k2"]"#, "null", #"["k1",3]"#, #""k1""#]
    let item = ("item", maybeWrong(rng.pick([#""root""#, #""top""#]), &rng))
    let side = ("side", maybeWrong(rng.pick([#""left""#, #""right""#, #""Left""#, "null"]), &rng))
    let barButtonItem = ("barButtonItem", maybeWrong(rng.pick([#""k1""#, "null"]), &rng))
    let before = ("before", maybeWrong(rng.pick([#""k2""#, "null"]), &rng))
    let animated = ("animated", flag(&rng))
    let members: [(String, String)]
    switch rng.below(11) {
    case 0: members = [("op", #""setBarButtonItems""#), item, side, ("items", rng.pick(ids)), animated]
    case 1: members = [("op", #""setBarButtonItem""#), item, side, barButtonItem, animated]
    case 2: members = [("op", #""insertBarButtonItem""#), item, side, barButtonItem, before]
    case 3: members = [("op", #""removeBarButtonItem""#), item, side, barButtonItem]
    case 4: members = [("op", #""moveBarButtonItem""#), item, side, barButtonItem, before]
    case 5: members = [("op", #""setToolbarItems""#), ("items", rng.pick(ids)), animated]
    case 6: members = [("op", #""insertToolbarItem""#), barButtonItem, before]
    case 7: members = [("op", #""moveToolbarItem""#), barButtonItem, before]
    case 8: members = [("op", rng.pick([#""removeToolbarItem""#, #""deleteBarButtonItem""#])), barButtonItem]
    default:
      members = [
        ("op", rng.chance(10) ? #""setBar\u0048idden""# : #""setBarHidden""#),
        ("bar", maybeWrong(rng.pick([#""toolbar""#, #""navigationBar""#]), &rng)),
        ("hidden", maybeWrong(rng.pick(["true", "false", "null"]), &rng)), animated,
      ]
    }
    return object(members + extra(&rng), &rng)
  }

  static func updateBarButtonItem(_ rng: inout SplitMix64) -> String {
    var set: [(String, String)] = []
    let texts = [#""Share""#, "null", #""Ünïcödé""#, #""a\nb""#, #""""#]
    if rng.chance(60) { set.append((rng.chance(5) ? #"\u0074itle"# : "title", maybeWrong(rng.pick(texts), &rng))) }
    if rng.chance(30) { set.append(("enabled", maybeWrong(rng.pick(["true", "false"]), &rng))) }
    if rng.chance(15) { set.append(("action", maybeWrong(rng.pick([#""share""#, "null", #""""#]), &rng))) }
    if rng.chance(15) {
      set.append(("style", maybeWrong(rng.pick([#""plain""#, #""done""#, #""bordered""#, #""Done""#]), &rng)))
    }
    if rng.chance(15) {
      set.append(("possibleTitles", maybeWrong(rng.pick(["[]", #"["Share","Send"]"#, "null", #"["a",1]"#]), &rng)))
    }
    if rng.chance(5) { set.append((rng.pick(["width", "tag", "tintColor", "image"]), rng.pick(["40", "null", "3"]))) }
    set += extra(&rng)
    let setText = rng.chance(4) ? rng.pick(anyValues) : object(set, &rng)
    return object(
      [("op", #""updateBarButtonItem""#), ("barButtonItem", maybeWrong(#""share""#, &rng)), ("set", setText)]
        + extra(&rng), &rng)
  }

  /// A navigation item's document form, mostly valid.
  static func navigationItem(_ rng: inout SplitMix64) -> String {
    let texts = [#""Inbox""#, "null", #""Ünïcödé""#, #""""#]
    let ids = ["[]", #"["k1","k2"]"#, "null", #"["k1",3]"#, #""k1""#, #"["k1"]"#]
    var members = [("id", maybeWrong(rng.pick([#""top""#, #""a""#]), &rng))]
    if rng.chance(50) { members.append(("title", maybeWrong(rng.pick(texts), &rng))) }
    if rng.chance(20) { members.append(("prompt", maybeWrong(rng.pick(texts), &rng))) }
    if rng.chance(10) { members.append(("backBarButtonItem", maybeWrong(#""k1""#, &rng))) }
    if rng.chance(15) { members.append(("hidesBackButton", flag(&rng))) }
    if rng.chance(10) { members.append(("leftItemsSupplementBackButton", flag(&rng))) }
    if rng.chance(20) { members.append(("leftBarButtonItems", rng.pick(ids))) }
    if rng.chance(15) { members.append(("rightBarButtonItems", rng.pick(ids))) }
    if rng.chance(5) { members.append(("titleView", rng.pick([#"{"name":"logo","width":40}"#, "null", "3"]))) }
    return rng.chance(5) ? rng.pick(anyValues) : object(members + extra(&rng), &rng)
  }

  static func push(_ rng: inout SplitMix64) -> String {
    object([("op", #""push""#), ("item", navigationItem(&rng)), ("animated", flag(&rng))] + extra(&rng), &rng)
  }

  static func setStack(_ rng: inout SplitMix64) -> String {
    let items = "[" + (0..<rng.below(3)).map { _ in navigationItem(&rng) }.joined(separator: ",") + "]"
    return object(
      [("op", #""setStack""#), ("items", rng.chance(8) ? rng.pick(anyValues) : items), ("animated", flag(&rng))]
        + extra(&rng), &rng)
  }

  static func pop(_ rng: inout SplitMix64) -> String {
    object(
      [("op", #""pop""#), ("expectTop", maybeWrong(#""top""#, &rng)), ("animated", flag(&rng))] + extra(&rng), &rng)
  }

  static func popTo(_ rng: inout SplitMix64) -> String {
    object([("op", #""popTo""#), ("item", maybeWrong(#""root""#, &rng)), ("animated", flag(&rng))] + extra(&rng), &rng)
  }
}
