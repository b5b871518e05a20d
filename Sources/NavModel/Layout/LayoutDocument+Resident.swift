/// What a layout document holds in memory, estimated from its values: what the
/// layout cache weighs a width at (`--layout-cache-bytes`), since a width's
/// resident cost is several times its encoded document.
///
/// Each array counts its header and its elements' strides, each string past
/// the 15 UTF-8 bytes Swift keeps inline its own allocation, and every
/// allocation the allocator's chunk overhead, rounded to its 16-byte grain.
extension LayoutDocument {
  /// The bytes this document holds: its layout and both bars' drafts. Kept
  /// (`residentBytes`) and made again when a bar is laid out again, not when a
  /// part is set in place, which keeps the arrays and changes at most a string.
  var estimatedResidentBytes: Int {
    MemoryLayout<LayoutDocument>.size + layout.residentBytes
      + Resident.bytes(of: navigationBarDraft.layout) + Resident.bytes(of: toolbarDraft.layout)
      + Resident.array(navigationBarDraft.left) { Resident.bytes(of: $0.item) }
      + Resident.array(navigationBarDraft.right) { Resident.bytes(of: $0.item) }
      + Resident.array(toolbarDraft.items) { Resident.bytes(of: $0.item) }
  }
}

extension Layout {
  /// The heap bytes this layout's arrays and strings hold (its inline size not counted).
  public var residentBytes: Int { Resident.bytes(of: navigationBar) + Resident.bytes(of: toolbar) }
}

/// The estimate's arithmetic (`LayoutDocument.residentBytes`).
enum Resident {
  /// One heap allocation of `bytes`: the allocator's header, rounded to its grain.
  static func allocation(_ bytes: Int) -> Int { (bytes + 16 + 15) / 16 * 16 }

  /// A string's own allocation; none when it fits inline.
  static func string(_ string: String?) -> Int {
    guard let count = string?.utf8.count, count > 15 else { return 0 }
    return allocation(32 + count + 1)
  }

  /// An array's buffer (none when empty) and what each element holds beyond its stride.
  static func array<Element>(_ elements: [Element], _ heap: (Element) -> Int) -> Int {
    guard !elements.isEmpty else { return 0 }
    return allocation(32 + elements.count * MemoryLayout<Element>.stride) + elements.reduce(0) { $0 + heap($1) }
  }

  static func bytes(of item: LayoutItem) -> Int {
    string(item.id) + string(item.title) + string(item.image?.name) + string(item.customView?.name)
  }

  static func bytes(of bar: NavigationBarLayout) -> Int {
    string(bar.topItem) + string(bar.prompt) + string(bar.backButton?.sourceItem) + string(bar.backButton?.item)
      + string(bar.backButton?.title) + string(bar.centre?.title)
      + array(bar.left, bytes(of:)) + array(bar.right, bytes(of:)) + array(bar.overflow) { bytes(of: $0.item) }
  }

  static func bytes(of bar: ToolbarLayout) -> Int {
    array(bar.items, bytes(of:)) + array(bar.overflow, bytes(of:))
  }
}
