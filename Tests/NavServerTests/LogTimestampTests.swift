import Testing

@testable import NavServer

#if canImport(Glibc)
  import Glibc
#endif

/// Log lines carry an ISO 8601 UTC time with milliseconds (`StderrLogSink`).
@Suite struct LogTimestampTests {
  @Test(arguments: [
    (0, 0, "1970-01-01T00:00:00.000Z"),
    (1_738_324_800, 123_999_999, "2025-01-31T12:00:00.123Z"),
    (951_868_799, 9_000_000, "2000-02-29T23:59:59.009Z"),
    (4_102_444_799, 999_999_999, "2099-12-31T23:59:59.999Z"),
  ])
  func formatsUTCWithTruncatedMilliseconds(seconds: Int, nanoseconds: Int, expected: String) {
    #expect(LogTimestamp(seconds: seconds, nanoseconds: nanoseconds).iso8601 == expected)
  }

  @Test func nowIsTheSystemClock() {
    #expect(abs(LogTimestamp.now().seconds - time(nil)) <= 5)
  }
}
