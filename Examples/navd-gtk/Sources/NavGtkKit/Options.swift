/// navd-gtk's command line.
///
/// ```
/// navd-gtk [--scene NAME]... [--width POINTS]... [--height POINTS] [--socket PATH] [--no-wait]
///          [--trace]
/// ```
/// Each `--scene` opens one window (the same scene may be given twice); none opens `main`.
/// One `--width` sets every window's starting width; several pair with the scenes in order.
public struct Options: Sendable, Equatable {
  /// One window to open.
  public struct Window: Sendable, Equatable {
    /// The scene it follows.
    public var scene: String
    /// Its starting width in points; the layout follows the window's width from then on.
    public var width: Int

    /// A window on `scene` starting `width` points wide.
    public init(scene: String, width: Int) {
      self.scene = scene
      self.width = width
    }
  }

  /// The windows, in the order given.
  public var windows: [Window]
  /// Every window's starting height in points.
  public var height: Int
  /// navd's socket; nil: NavClient's default ($NAVD_SOCKET, $XDG_RUNTIME_DIR/navd/navd.sock, …).
  public var socketPath: String?
  /// Follow a scene that does not exist yet (Subscribe `waitForScene`); `--no-wait` turns it off.
  public var waitForScene: Bool
  /// `--trace`: print one line per drawn version on standard output (tests wait on them).
  public var trace: Bool
  /// `--help` was given.
  public var help: Bool
  /// `--version` was given.
  public var version: Bool

  /// The starting width when no `--width` is given: a phone's, as the README's examples use.
  public static let defaultWidth = 375
  /// The starting height when no `--height` is given.
  public static let defaultHeight = 260
  /// Widths and heights navd-gtk opens a window at (navd takes up to 10000: SEMANTICS R7).
  public static let sizes = 100...4000

  /// The usage text of `--help`.
  public static let usage = """
    usage: navd-gtk [--scene NAME]... [--width POINTS]... [--height POINTS] [--socket PATH] [--no-wait] [--trace]

    Draws navd scenes in GTK 4 windows: the navigation bar and the toolbar exactly as navd
    resolves them for the window's width, following every change.

      --scene NAME      open a window on scene NAME (repeat for more windows; default: main)
      --width POINTS    starting width (one for all windows, or one per --scene; default 375)
      --height POINTS   starting height of every window (default 260)
      --socket PATH     navd's socket (default: $NAVD_SOCKET, else $XDG_RUNTIME_DIR/navd/navd.sock,
                        else ./.navd/navd.sock)
      --no-wait         fail when a scene does not exist, instead of waiting for it
      --trace           print "drew WINDOW SCENE vVERSION at WIDTH" for every drawing, and
                        "connection WINDOW connected|reconnecting"
      --help, --version

    """

  /// Parses `arguments` (without the program name).
  public init(_ arguments: [String]) throws(OptionsError) {
    var scenes: [String] = []
    var widths: [Int] = []
    height = Self.defaultHeight
    socketPath = nil
    waitForScene = true
    trace = false
    help = false
    version = false
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      func value() throws(OptionsError) -> String {
        guard let value = rest.popFirst() else { throw .missingValue(argument) }
        return value
      }
      switch argument {
      case "--scene": scenes.append(try value())
      case "--width": widths.append(try Self.size(try value(), flag: argument))
      case "--height": height = try Self.size(try value(), flag: argument)
      case "--socket": socketPath = try value()
      case "--no-wait": waitForScene = false
      case "--trace": trace = true
      case "--help", "-h": help = true
      case "--version": version = true
      default: throw .unknown(argument)
      }
    }
    if scenes.isEmpty { scenes = ["main"] }
    if widths.count > 1 && widths.count != scenes.count {
      throw .widthsDoNotPair(widths: widths.count, scenes: scenes.count)
    }
    windows = scenes.enumerated().map { index, scene in
      Window(scene: scene, width: widths.isEmpty ? Self.defaultWidth : widths[widths.count == 1 ? 0 : index])
    }
  }

  static func size(_ text: String, flag: String) throws(OptionsError) -> Int {
    guard let value = Int(text) else { throw .notANumber(flag: flag, value: text) }
    guard sizes.contains(value) else { throw .outOfRange(flag: flag, value: value, range: sizes) }
    return value
  }
}

/// A command line navd-gtk cannot run with; each names the flag at fault.
public enum OptionsError: Error, Equatable, CustomStringConvertible {
  /// A flag navd-gtk does not know.
  case unknown(String)
  /// A flag that takes a value came last.
  case missingValue(String)
  /// `--width`/`--height` with something that is not a whole number.
  case notANumber(flag: String, value: String)
  /// `--width`/`--height` outside what a window can be.
  case outOfRange(flag: String, value: Int, range: ClosedRange<Int>)
  /// Several `--width`s, but not one per `--scene`.
  case widthsDoNotPair(widths: Int, scenes: Int)

  /// The message navd-gtk prints (then the usage line).
  public var description: String {
    switch self {
    case .unknown(let flag): "unknown option '\(flag)'"
    case .missingValue(let flag): "\(flag) needs a value"
    case .notANumber(let flag, let value): "\(flag) takes a whole number of points, not '\(value)'"
    case .outOfRange(let flag, let value, let range):
      "\(flag) \(value) is outside \(range.lowerBound)…\(range.upperBound) points"
    case .widthsDoNotPair(let widths, let scenes):
      "\(widths) --width values for \(scenes) windows: give one --width for all, or one per --scene"
    }
  }
}
