import NavCtlKit
import Testing

/// Generated ids and closest-word suggestions.
@Suite("Ids and suggestions")
struct WordTests {
  @Test(
    "slugs are lower-case ASCII words joined by dashes",
    arguments: [
      ("Inbox", "inbox"), ("Café Menu", "cafe-menu"), ("  Re: Lunch on Friday?  ", "re-lunch-on-friday"),
      ("受信トレイ", "item"), ("Ünïcödé 2", "unicode-2"), ("---", "item"), ("A/B_C.D", "a-b-c-d"),
    ])
  func slug(_ text: String, _ expected: String) {
    #expect(IdentifierSlug.slug(text) == expected)
  }

  @Test("a taken slug gets the shortest free numeric suffix")
  func unique() {
    #expect(IdentifierSlug.unique("Inbox", taken: []) == "inbox")
    #expect(IdentifierSlug.unique("Inbox", taken: ["inbox"]) == "inbox-2")
    #expect(IdentifierSlug.unique("Inbox", taken: ["inbox", "inbox-2", "inbox-3"]) == "inbox-4")
  }

  @Test("slugs are at most 40 characters, so a suffix keeps them valid ids")
  func slugLength() {
    #expect(IdentifierSlug.slug(String(repeating: "word ", count: 30)).count <= 40)
  }

  @Test("Damerau–Levenshtein distance counts a swap of neighbours as one edit")
  func distance() {
    #expect(EditDistance.distance("push", "push") == 0)
    #expect(EditDistance.distance("psuh", "push") == 1)
    #expect(EditDistance.distance("pus", "push") == 1)
    #expect(EditDistance.distance("kitten", "sitting") == 3)
    #expect(EditDistance.distance("", "abc") == 3)
  }

  @Test("closest prefers a prefix, then the smallest distance, and gives up when nothing is close")
  func closest() {
    let words = ["push", "pop", "pop-to", "prompt", "show", "toolbar"]
    #expect(EditDistance.closest(to: "tool", in: words) == "toolbar")
    #expect(EditDistance.closest(to: "shwo", in: words) == "show")
    #expect(EditDistance.closest(to: "pp", in: words) == "pop")
    #expect(EditDistance.closest(to: "zzzzzz", in: words) == nil)
  }
}
