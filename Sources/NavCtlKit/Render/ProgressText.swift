/// The text of a progress line on a terminal (`navctl export` reading a database scene by
/// scene): rewritten in place with a carriage return and erase-to-end-of-line, and erased
/// when the work is done, so that nothing of it stays in what navctl wrote.
public enum ProgressText {
  /// Erases the line the cursor is on and returns to its start.
  public static let erase = "\r\u{1B}[K"

  /// `navctl: COMMAND: TEXT` in place of the line before, cut to fit `columns` (one column
  /// is kept free, so the terminal never wraps it) and with control characters replaced.
  public static func line(_ text: String, command: String, columns: Int) -> String {
    erase + DisplayWidth.fit(DisplayWidth.sanitize("navctl: \(command): \(text)"), columns - 1, ellipsis: "...")
  }
}
