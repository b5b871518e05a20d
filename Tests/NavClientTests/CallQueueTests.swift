import NavModel
import NavWire
import Testing
import Varlink

@testable import NavClient

/// Reply routing without sockets: Varlink answers strictly in call order.
@Suite("CallQueue: replies go to calls in send order")
struct CallQueueTests {
  private func resumed(_ routing: CallQueue<String>.Routing) -> (String?, VarlinkReply)? {
    if case .resume(let waiter, let reply) = routing { return (waiter, reply) }
    return nil
  }

  private func violation(_ routing: CallQueue<String>.Routing) -> String? {
    if case .violation(let detail) = routing { return detail }
    return nil
  }

  @Test("each reply resumes the oldest waiting call; an abandoned call's reply is dropped in its turn")
  func order() throws {
    var queue = CallQueue<String>()
    queue.callSent(id: 1, waiter: "a")
    queue.callSent(id: 2, waiter: "b")
    queue.callSent(id: 3, waiter: "c")
    #expect(queue.abandon(2) == "b")
    #expect(queue.abandon(2) == nil)
    #expect(try #require(resumed(queue.replyReceived(VarlinkReply(parameters: ["n": 1])))).0 == "a")
    let dropped = try #require(resumed(queue.replyReceived(VarlinkReply(parameters: ["n": 2]))))
    #expect(dropped.0 == nil && dropped.1.parameters == ["n": 2])
    #expect(try #require(resumed(queue.replyReceived(VarlinkReply(parameters: ["n": 3])))).0 == "c")
    #expect(queue.count == 0)
  }

  @Test("a reply to no call, or continues on a plain call, is a protocol violation")
  func violations() {
    var queue = CallQueue<String>()
    #expect(violation(queue.replyReceived(VarlinkReply())) == "navd sent a reply to no call")
    queue.callSent(id: 1, waiter: "a")
    #expect(violation(queue.replyReceived(VarlinkReply(continues: true)))?.contains("continues") == true)
  }

  @Test("a stream stays first until its final reply; closing hands back every attached waiter")
  func streamAndClose() {
    var queue = CallQueue<String>()
    queue.streamSent()
    queue.callSent(id: 1, waiter: "after")
    if case .stream(_, let ended) = queue.replyReceived(VarlinkReply(continues: true)) {
      #expect(!ended)
    } else {
      Issue.record("expected the stream")
    }
    if case .stream(_, let ended) = queue.replyReceived(VarlinkReply()) { #expect(ended) }
    queue.callSent(id: 2, waiter: "last")
    #expect(queue.closed() == ["after", "last"])
    #expect(queue.count == 0)
  }
}
