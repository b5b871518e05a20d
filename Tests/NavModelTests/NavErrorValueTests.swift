import NavModel
import Testing

/// An error's `value` names the offending value, cut to 80 characters (SEMANTICS R66's
/// refusals carry it); a refused megabyte title is cut, not copied into the reply.
@Suite("NavError value")
struct NavErrorValueTests {
  @Test("R66 a value of at most 80 characters is kept; a longer one is its first 77 and \"...\"")
  func shortening() {
    let cases: [(value: String, expected: String)] = [
      ("", ""),
      (String(repeating: "a", count: 80), String(repeating: "a", count: 80)),
      (String(repeating: "a", count: 81), String(repeating: "a", count: 77) + "..."),
      (String(repeating: "é", count: 1 << 20), String(repeating: "é", count: 77) + "..."),
      // Characters, not scalars or bytes: 80 flags of two scalars each are kept whole.
      (String(repeating: "🇫🇷", count: 80), String(repeating: "🇫🇷", count: 80)),
    ]
    for (value, expected) in cases {
      let error = NavError(.limitExceeded, "too long", field: "ops[0].set.title", value: value)
      #expect(error.value == expected, "a value of \(value.count) characters")
    }
  }

  @Test("R66 a title over stringMaxBytes is refused with LimitExceeded and its first 77 characters")
  func refusedTitle() throws {
    let title = String(repeating: "t", count: 1 << 20)
    let ops: [Op] = [.push(NavigationItem(id: "a", title: title), animated: false)]
    #expect {
      try SceneState.empty.applying(ops)
    } throws: { error in
      guard let error = error as? NavError else { return false }
      return error.code == .limitExceeded && error.value == String(repeating: "t", count: 77) + "..."
    }
  }
}
