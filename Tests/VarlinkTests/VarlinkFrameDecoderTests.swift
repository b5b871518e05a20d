import NavTestSupport
import Testing
import Varlink

@Suite("Varlink frame decoder")
struct VarlinkFrameDecoderTests {
  /// Three frames of different shapes, including one with multi-byte UTF-8.
  static let frames: [[UInt8]] = [
    Array(#"{"method":"org.varlink.service.GetInfo"}"#.utf8),
    Array(#"{"method":"io.navd.Mutate","parameters":{"title":"Zürich ✓"}}"#.utf8),
    Array(repeating: UInt8(ascii: "x"), count: 5000),
  ]

  static var stream: [UInt8] { frames.flatMap { $0 + [0] } }

  static func decodeAll(_ decoder: inout VarlinkFrameDecoder) -> [[UInt8]] {
    var out: [[UInt8]] = []
    while let frame = decoder.nextFrame() { out.append(frame) }
    return out
  }

  @Test("many frames in one read")
  func wholeStream() throws {
    var decoder = VarlinkFrameDecoder()
    try decoder.append(contentsOf: Self.stream)
    #expect(Self.decodeAll(&decoder) == Self.frames)
    #expect(decoder.bufferedByteCount == 0)
  }

  @Test("one byte per read")
  func byteByByte() throws {
    var decoder = VarlinkFrameDecoder()
    var out: [[UInt8]] = []
    for byte in Self.stream {
      try decoder.append(contentsOf: [byte])
      out += Self.decodeAll(&decoder)
    }
    #expect(out == Self.frames)
  }

  @Test("random chunks (seeded; the seed is printed on failure)", arguments: [1, 2, 3, 42, 1234, 99_999] as [UInt64])
  func randomChunks(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    let stream = Self.stream + Self.stream + Self.stream
    var decoder = VarlinkFrameDecoder()
    var out: [[UInt8]] = []
    var index = 0
    while index < stream.count {
      let length = Int.random(in: 1...700, using: &rng)
      let end = min(stream.count, index + length)
      try decoder.append(contentsOf: stream[index..<end])
      // Take frames only sometimes, so complete frames also pile up in the buffer.
      if Bool.random(using: &rng) { out += Self.decodeAll(&decoder) }
      index = end
    }
    out += Self.decodeAll(&decoder)
    #expect(out == Self.frames + Self.frames + Self.frames, "seed \(seed)")
  }

  @Test("a frame of exactly the limit is accepted")
  func exactlyAtLimit() throws {
    var decoder = VarlinkFrameDecoder(maxFrameBytes: 10)
    try decoder.append(contentsOf: Array(repeating: UInt8(ascii: "a"), count: 10) + [0])
    #expect(decoder.nextFrame()?.count == 10)
  }

  @Test("an oversize frame is rejected while still arriving in pieces")
  func oversizeInPieces() {
    var decoder = VarlinkFrameDecoder(maxFrameBytes: 100)
    var rejectedAt: Int?
    for piece in 0..<20 {
      do {
        try decoder.append(contentsOf: Array(repeating: UInt8(ascii: "a"), count: 7))
      } catch {
        #expect(error.limit == 100)
        rejectedAt = piece
        break
      }
    }
    // 15 pieces of 7 = 105 bytes > 100: rejected on the 15th piece, no NUL needed.
    #expect(rejectedAt == 14)
  }

  @Test("an oversize complete frame inside one read is rejected, even before earlier frames are taken")
  func oversizeCompleteFrame() {
    var decoder = VarlinkFrameDecoder(maxFrameBytes: 8)
    let bytes = Array("ok\0".utf8) + Array(repeating: UInt8(ascii: "b"), count: 9) + [0]
    #expect(throws: VarlinkFrameDecoder.FrameTooLarge.self) { try decoder.append(contentsOf: bytes) }
  }

  @Test("partial bytes are counted separately from complete frames")
  func partialAccounting() throws {
    var decoder = VarlinkFrameDecoder()
    try decoder.append(contentsOf: Array("abc\0de".utf8))
    #expect(decoder.hasCompleteFrame)
    #expect(decoder.partialFrameByteCount == 2)
    #expect(decoder.bufferedByteCount == 6)
    #expect(decoder.nextFrame() == Array("abc".utf8))
    #expect(!decoder.hasCompleteFrame)
    try decoder.append(contentsOf: Array("f\0".utf8))
    #expect(decoder.nextFrame() == Array("def".utf8))
    #expect(decoder.bufferedByteCount == 0)
  }

  @Test("a long-lived connection's buffer is compacted")
  func compaction() throws {
    var decoder = VarlinkFrameDecoder()
    let frame = Array(repeating: UInt8(ascii: "z"), count: 1000) + [0]
    for _ in 0..<500 {
      try decoder.append(contentsOf: frame + frame[0..<500])
      #expect(decoder.nextFrame()?.count == 1000)
      try decoder.append(contentsOf: frame[500...])
      #expect(decoder.nextFrame()?.count == 1000)
    }
    #expect(decoder.bufferedByteCount == 0)
  }

  @Test("empty frames come out as empty arrays")
  func emptyFrames() throws {
    var decoder = VarlinkFrameDecoder()
    try decoder.append(contentsOf: [0, 0])
    #expect(Self.decodeAll(&decoder) == [[], []])
  }
}
