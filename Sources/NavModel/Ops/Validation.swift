/// Checks values against the rules and limits of SEMANTICS.md ("Limits").
/// Every failure names the field, the value and the limit.
///
/// `field` is an autoclosure: a request path (`ops[3].set.title`) is built only for an error,
/// not for every value that passes.
public struct Validation: Sendable {
  /// The limits values are checked against.
  public var limits: ModelLimits
  /// Whether values are checked at all: not for ops that were checked when first applied
  /// (`trusting`).
  private var checks = true

  /// Checks against `limits` (the documented ones by default).
  public init(limits: ModelLimits = .default) { self.limits = limits }

  /// Checks nothing, for ops replayed after they applied cleanly (`SceneState.replay`): a
  /// value is looked at once, when it is first applied, not on every replay of it.
  public static var trusting: Validation {
    var validation = Validation(limits: .default)
    validation.checks = false
    return validation
  }

  /// Ids: 1…`idMaxLength` characters of `[A-Za-z0-9._-]`, starting with a letter or digit.
  public func id(_ id: String, field: @autoclosure () -> String) throws(NavError) {
    guard checks else { return }
    // Read in place: copying the bytes into an array cost an allocation per id.
    var contiguous = id
    let count = contiguous.utf8.count
    guard count > 0 else {
      throw NavError(.invalidMutation, "\(field()) must not be empty (SEMANTICS R66)", field: field(), value: id)
    }
    guard count <= limits.idMaxLength else {
      throw NavError(
        .limitExceeded, "\(field()) is \(count) bytes long; ids are at most \(limits.idMaxLength) (SEMANTICS R66)",
        field: field(),
        value: id, limit: "idMaxLength", max: limits.idMaxLength)
    }
    guard contiguous.withUTF8(Self.isIdBytes) else {
      throw NavError(
        .invalidMutation,
        "\(field()) may use only A-Z a-z 0-9 . _ - and must start with a letter or digit (SEMANTICS R66)",
        field: field(), value: id)
    }
  }

  /// Whether every byte is one an id may hold there: a letter or digit, or after the first
  /// byte also `.`, `_` or `-`.
  static func isIdBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for (i, byte) in bytes.enumerated() {
      let alphanumeric =
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      let punctuation = byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
      guard alphanumeric || (i > 0 && punctuation) else { return false }
    }
    return true
  }

  /// Text (titles, prompts, possible titles): at most `stringMaxBytes` UTF-8 bytes,
  /// no control characters (SEMANTICS R66, R67).
  public func text(_ text: String?, field: @autoclosure () -> String) throws(NavError) {
    guard checks else { return }
    guard let text else { return }
    let count = text.utf8.count
    guard count <= limits.stringMaxBytes else {
      throw NavError(
        .limitExceeded, "\(field()) is \(count) bytes of UTF-8; the limit is \(limits.stringMaxBytes) (SEMANTICS R66)",
        field: field(),
        value: text, limit: "stringMaxBytes", max: limits.stringMaxBytes)
    }
    // In UTF-8 these scalars are single bytes that never occur inside another scalar's encoding,
    // so scanning bytes finds them (in the string's own buffer: iterating `utf8` is far
    // dearer); only a text that has one is decoded to name it.
    guard text.withUTF8Bytes(Self.containsControl) else { return }
    if let control = text.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
      throw NavError(
        .invalidMutation,
        "\(field()) contains the control character U+\(String(control.value, radix: 16, uppercase: true).leftPadded(4)); text is one line (SEMANTICS R67)",
        field: field(), value: text)
    }
  }

  /// Whether `bytes` hold a control character (below 0x20, or DEL 0x7F), looked for eight
  /// bytes at a time: a title is checked once per mutation, and a test per word instead of
  /// two per byte makes that several times cheaper.
  static func containsControl(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var i = 0
    if let base = bytes.baseAddress {
      let ones: UInt64 = 0x0101_0101_0101_0101
      while i + 8 <= bytes.count {
        let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
        // A byte below 0x20 borrows when 0x20 is subtracted; DEL is a zero byte once xored
        // with 0x7F repeated. Never missed; a false alarm only means the bytes are looked at.
        let del = word ^ (ones &* 0x7F)
        if ((word &- ones &* 0x20) & ~word | (del &- ones) & ~del) & 0x8080_8080_8080_8080 != 0 { break }
        i += 8
      }
    }
    return bytes[i...].contains { $0 < 0x20 || $0 == 0x7F }
  }

  /// Names (actions, image and view names, fonts): like text, and not empty.
  public func name(_ name: String?, field: @autoclosure () -> String) throws(NavError) {
    guard checks else { return }
    guard let name else { return }
    guard !name.isEmpty else {
      throw NavError(.invalidMutation, "\(field()) must not be empty (SEMANTICS R66)", field: field(), value: name)
    }
    try text(name, field: field())
  }

  /// Widths and sizes: finite and 0…`maxWidth` (negative: InvalidMutation; larger: LimitExceeded).
  public func length(_ value: Double?, field: @autoclosure () -> String) throws(NavError) {
    guard checks else { return }
    guard let value else { return }
    guard value.isFinite, value >= 0 else {
      throw NavError(
        .invalidMutation, "\(field()) must be a finite number of points, 0 or more (SEMANTICS R66)", field: field(),
        value: "\(value)")
    }
    guard value <= limits.maxWidth else {
      throw NavError(
        .limitExceeded, "\(field()) is \(value) points; the limit is \(Int(limits.maxWidth)) (SEMANTICS R66)",
        field: field(),
        value: "\(value)", limit: "maxWidth", max: Int(limits.maxWidth))
    }
  }

  /// A count of entries at most `max`, else LimitExceeded naming `name`.
  public func count(_ count: Int, limit name: String, max: Int, field: @autoclosure () -> String) throws(NavError) {
    guard checks else { return }
    guard count <= max else {
      throw NavError(
        .limitExceeded, "\(field()) would hold \(count) entries; the limit is \(max) (SEMANTICS R66)", field: field(),
        value: "\(count)",
        limit: name, max: max)
    }
  }

  /// An image's name and size.
  public func image(_ image: ImageRef?, field: @autoclosure () -> String) throws(NavError) {
    guard checks else { return }
    guard let image else { return }
    try name(image.name, field: "\(field()).name")
    try length(image.width, field: "\(field()).width")
    try length(image.height, field: "\(field()).height")
  }

  /// A custom view's name and size.
  public func customView(_ view: CustomView?, field: @autoclosure () -> String) throws(NavError) {
    guard checks else { return }
    guard let view else { return }
    try name(view.name, field: "\(field()).name")
    try length(view.width, field: "\(field()).width")
    try length(view.height, field: "\(field()).height")
  }

  /// A tag within ±2^53 (exact in a JSON number), else InvalidMutation.
  public func tag(_ tag: Int, field: @autoclosure () -> String) throws(NavError) {
    guard checks else { return }
    // Compare as integers: Double(2^53 + 1) rounds to 2^53 and would pass.
    let max = UInt(exactly: limits.maxTagMagnitude.rounded(.down)) ?? (limits.maxTagMagnitude > 0 ? .max : 0)
    guard tag.magnitude <= max else {
      throw NavError(
        .invalidMutation, "\(field()) must be within ±2^53 (SEMANTICS R66)", field: field(), value: "\(tag)")
    }
  }

  /// A bar button item's own values (not its references).
  public func barButtonItem(_ item: BarButtonItem, field: @autoclosure () -> String) throws(NavError) {
    guard checks else { return }
    try id(item.id, field: "\(field()).id")
    try text(item.title, field: "\(field()).title")
    try image(item.image, field: "\(field()).image")
    try length(item.width, field: "\(field()).width")
    try count(
      item.possibleTitles.count, limit: "possibleTitles", max: limits.possibleTitles, field: "\(field()).possibleTitles"
    )
    for (i, title) in item.possibleTitles.enumerated() { try text(title, field: "\(field()).possibleTitles[\(i)]") }
    try customView(item.customView, field: "\(field()).customView")
    try tag(item.tag, field: "\(field()).tag")
    try name(item.action, field: "\(field()).action")
    if item.systemItem != nil, item.title != nil || item.image != nil || item.customView != nil {
      throw NavError(
        .invalidMutation,
        "\(field()) sets systemItem together with a title, image or customView; a system item has none (SEMANTICS R41)",
        field: "\(field()).systemItem", value: item.systemItem?.rawValue)
    }
  }

  /// A side or toolbar array: ids exist in the scene, none twice, not too many.
  public func itemArray(_ ids: [String], in state: SceneState, field: @autoclosure () -> String) throws(NavError) {
    guard checks else { return }
    try count(ids.count, limit: "itemsPerArray", max: limits.itemsPerArray, field: field())
    var repeats = RepeatCheck(count: ids.count)
    for (i, id) in ids.enumerated() {
      guard state.barButtonItems.contains(id) else {
        throw NavError(
          .itemNotFound, "\(field())[\(i)] names no bar button item \"\(id)\" (SEMANTICS R4)",
          field: "\(field())[\(i)]", value: id)
      }
      guard !repeats.repeats(id, earlier: { ids[..<i].contains(id) }) else {
        throw NavError(
          .duplicateItem, "\(field()) lists \"\(id)\" twice (SEMANTICS R5)", field: "\(field())[\(i)]", value: id)
      }
    }
  }

  /// A navigation item to be pushed or set: its values and every reference.
  public func navigationItem(_ item: NavigationItem, in state: SceneState, field: @autoclosure () -> String)
    throws(NavError)
  {
    guard checks else { return }
    try id(item.id, field: "\(field()).id")
    try text(item.title, field: "\(field()).title")
    try text(item.prompt, field: "\(field()).prompt")
    try customView(item.titleView, field: "\(field()).titleView")
    if let back = item.backBarButtonItem, !state.barButtonItems.contains(back) {
      throw NavError(
        .itemNotFound, "\(field()).backBarButtonItem names no bar button item \"\(back)\" (SEMANTICS R4)",
        field: "\(field()).backBarButtonItem", value: back)
    }
    try itemArray(item.leftBarButtonItems, in: state, field: "\(field()).leftBarButtonItems")
    try itemArray(item.rightBarButtonItems, in: state, field: "\(field()).rightBarButtonItems")
    if let shared = item.rightBarButtonItems.first(where: item.leftBarButtonItems.contains) {
      throw NavError(
        .duplicateItem, "\(field()) shows bar button item \"\(shared)\" on both sides (SEMANTICS R5)",
        field: "\(field()).rightBarButtonItems", value: shared)
    }
  }

  /// An appearance's images and text attributes.
  public func appearance(_ appearance: BarAppearance, field: @autoclosure () -> String) throws(NavError) {
    guard checks else { return }
    for entry in appearance.backgroundImages { try image(entry.image, field: "\(field()).backgroundImages") }
    try image(appearance.shadowImage, field: "\(field()).shadowImage")
    if let attributes = appearance.titleTextAttributes {
      try name(attributes.font, field: "\(field()).titleTextAttributes.font")
      try length(attributes.size, field: "\(field()).titleTextAttributes.size")
    }
  }
}

extension String {
  /// Pads with leading zeros to `width` characters.
  fileprivate func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
