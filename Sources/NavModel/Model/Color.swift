/// An sRGB colour with alpha, written `#RRGGBB` or `#RRGGBBAA` (hex, either case).
public struct Color: Sendable, Hashable, CustomStringConvertible {
  /// Red channel, 0…255.
  public var red: UInt8
  /// Green channel, 0…255.
  public var green: UInt8
  /// Blue channel, 0…255.
  public var blue: UInt8
  /// Alpha channel, 0…255 (255 opaque).
  public var alpha: UInt8

  /// A colour from its channels; opaque unless `alpha` says otherwise.
  public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// Parses `#RRGGBB` or `#RRGGBBAA`; nil for anything else.
  public init?(hex: String) {
    let bytes = Array(hex.utf8)
    guard bytes.first == UInt8(ascii: "#"), bytes.count == 7 || bytes.count == 9 else { return nil }
    var components: [UInt8] = []
    var index = 1
    while index < bytes.count {
      guard let high = Color.hexDigit(bytes[index]), let low = Color.hexDigit(bytes[index + 1]) else { return nil }
      components.append(high << 4 | low)
      index += 2
    }
    self.init(
      red: components[0], green: components[1], blue: components[2], alpha: components.count == 4 ? components[3] : 255)
  }

  private static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// Canonical form: upper-case hex, alpha only when not fully opaque.
  public var hex: String {
    let channels = alpha == 255 ? 3 : 4
    // At most 9 ASCII bytes: a small string, built in place without an allocation.
    return String(unsafeUninitializedCapacity: 1 + 2 * channels) { text in
      text[0] = UInt8(ascii: "#")
      for (index, channel) in [red, green, blue, alpha].prefix(channels).enumerated() {
        text[1 + 2 * index] = Self.hexCharacter(channel >> 4)
        text[2 + 2 * index] = Self.hexCharacter(channel & 0xF)
      }
      return 1 + 2 * channels
    }
  }

  /// The upper-case hex character for a value 0…15.
  private static func hexCharacter(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
  }

  /// The canonical hex form (R68).
  public var description: String { hex }

  /// The system tint when nothing sets one (`#007AFF`, R56).
  public static let systemBlue = Color(red: 0x00, green: 0x7A, blue: 0xFF)
  /// Opaque black, the `black` bar style's base (R53).
  public static let black = Color(red: 0, green: 0, blue: 0)
  /// Opaque white, the default bar style's base (R53).
  public static let white = Color(red: 255, green: 255, blue: 255)
}
