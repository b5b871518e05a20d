import NavModel

/// A command that makes one io.navd call and prints its one reply: the call and
/// the way its reply reads travel together in the command's `CommandTable` row,
/// so adding such a command touches that row and nothing else in NavCtlKit (its
/// typed call and reply live in NavWire). With `--json` the reply is printed as
/// one JSON line instead of `text`.
public struct CallCommand: Sendable {
  /// The call for `scene`; `terminalColumns` is the width `show` draws at without `--width`.
  public var request: @Sendable (_ scene: String, _ terminalColumns: Int) -> NavRequest
  /// The reply as text (`columns`: the drawing width without `--width`); throws a
  /// `MalformedReply` for a reply this navctl cannot read.
  public var text: @Sendable (_ reply: JSONValue, _ style: RenderStyle, _ columns: Int) throws -> String

  /// A command from its call and its text.
  public init(
    request: @escaping @Sendable (_ scene: String, _ terminalColumns: Int) -> NavRequest,
    text: @escaping @Sendable (_ reply: JSONValue, _ style: RenderStyle, _ columns: Int) throws -> String
  ) {
    self.request = request
    self.text = text
  }
}
