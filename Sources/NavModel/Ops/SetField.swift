/// A field of a `set` object, as `Op.encoded` writes it: its place among its kind's keys in
/// key order, and its member (key and value) as the reference's `value` writes it.
protocol SetField {
  /// How many keys the kind has.
  static var keyCount: Int { get }
  /// The field's key's place in key order, `0..<keyCount`.
  var keyRank: Int { get }
  /// Writes `"name":value`.
  func writeMember(to w: inout SortedJSONWriter)
}

extension SortedJSONWriter {
  /// The image, or `null` when there is none.
  mutating func image(_ image: ImageRef?) {
    if let image { image.write(to: &self) } else { null() }
  }

  /// The colour's hex form, or `null` when there is none.
  mutating func color(_ color: Color?) {
    string(color?.hex)
  }
}

extension NavigationItemField: SetField {
  static let keyCount = 6

  var keyRank: Int {
    switch self {
    case .backBarButtonItem: 0
    case .hidesBackButton: 1
    case .leftItemsSupplementBackButton: 2
    case .prompt: 3
    case .title: 4
    case .titleView: 5
    }
  }

  func writeMember(to w: inout SortedJSONWriter) {
    switch self {
    case .backBarButtonItem(let s):
      w.member(#""backBarButtonItem":"#, s)
    case .hidesBackButton(let b):
      w.member(#""hidesBackButton":"#, b)
    case .leftItemsSupplementBackButton(let b):
      w.member(#""leftItemsSupplementBackButton":"#, b)
    case .prompt(let s):
      w.member(#""prompt":"#, s)
    case .title(let s):
      w.member(#""title":"#, s)
    case .titleView(let view):
      w.key(#""titleView":"#)
      if let view { view.write(to: &w) } else { w.null() }
    }
  }
}

extension BarButtonItemField: SetField {
  static let keyCount = 11

  var keyRank: Int {
    switch self {
    case .action: 0
    case .customView: 1
    case .enabled: 2
    case .image: 3
    case .possibleTitles: 4
    case .style: 5
    case .systemItem: 6
    case .tag: 7
    case .tintColor: 8
    case .title: 9
    case .width: 10
    }
  }

  func writeMember(to w: inout SortedJSONWriter) {
    switch self {
    case .action(let s):
      w.member(#""action":"#, s)
    case .customView(let view):
      w.key(#""customView":"#)
      if let view { view.write(to: &w) } else { w.null() }
    case .enabled(let b):
      w.member(#""enabled":"#, b)
    case .image(let image):
      w.key(#""image":"#)
      w.image(image)
    case .possibleTitles(let titles):
      w.key(#""possibleTitles":"#)
      w.strings(titles)
    case .style(let style):
      w.member(#""style":"#, style.rawValue)
    case .systemItem(let item):
      w.member(#""systemItem":"#, item?.rawValue)
    case .tag(let tag):
      w.member(#""tag":"#, Double(tag))
    case .tintColor(let color):
      w.key(#""tintColor":"#)
      w.color(color)
    case .title(let s):
      w.member(#""title":"#, s)
    case .width(let width):
      w.key(#""width":"#)
      if let width { w.number(width) } else { w.null() }
    }
  }
}

/// Background images are rank 0 (`backgroundImages`, written as entries by the op's writer).
extension AppearanceField: SetField {
  static let keyCount = 7

  var keyRank: Int {
    switch self {
    case .backgroundImage: 0
    case .barStyle: 1
    case .barTintColor: 2
    case .shadowImage: 3
    case .tintColor: 4
    case .titleTextAttributes: 5
    case .translucent: 6
    }
  }

  func writeMember(to w: inout SortedJSONWriter) {
    switch self {
    case .backgroundImage:
      preconditionFailure("background images are written as backgroundImages entries")
    case .barStyle(let style):
      w.member(#""barStyle":"#, style?.rawValue)
    case .barTintColor(let color):
      w.key(#""barTintColor":"#)
      w.color(color)
    case .shadowImage(let image):
      w.key(#""shadowImage":"#)
      w.image(image)
    case .tintColor(let color):
      w.key(#""tintColor":"#)
      w.color(color)
    case .titleTextAttributes(let attributes):
      w.key(#""titleTextAttributes":"#)
      if let attributes { attributes.write(to: &w) } else { w.null() }
    case .translucent(let t):
      w.key(#""translucent":"#)
      if let t { w.bool(t) } else { w.null() }
    }
  }
}
