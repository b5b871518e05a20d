"""The host's side of agent.py: a Varlink client process inside the container, running
as a chosen user, whose connections the test opens, uses and keeps across commands."""

from __future__ import annotations

import json
import select
import subprocess
import time

from container import Container

AGENT = "/usr/local/lib/navd-system-test/agent.py"


class Agent:
    def __init__(self, container: Container, user: str | None = None) -> None:
        self.process = subprocess.Popen(
            container.command(["python3", "-u", AGENT], user), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, bufsize=1)

    def request(self, wait: float = 30, **request) -> dict:
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], wait)
        assert ready, f"the agent did not answer {request} within {wait} s"
        line = self.process.stdout.readline()
        assert line, f"the agent ended: {self.process.stderr.read()}"
        return json.loads(line)

    def connect(self, conn: str, path: str = "/run/navd/navd.sock") -> dict:
        return self.request(op="connect", conn=conn, path=path)

    def send(self, conn: str, method: str, parameters: dict | None = None, more: bool = False) -> None:
        assert self.request(op="send", conn=conn, method=method, parameters=parameters or {}, more=more) == {"ok": True}

    def recv(self, conn: str, timeout: float = 15) -> dict:
        return self.request(wait=timeout + 15, op="recv", conn=conn, timeout=timeout)

    def call_raw(self, conn: str, method: str, parameters: dict | None = None, timeout: float = 15) -> dict:
        self.send(conn, method, parameters)
        answer = self.recv(conn, timeout)
        assert "reply" in answer, f"{method}: {answer}"
        return answer["reply"]

    def call(self, conn: str, method: str, parameters: dict | None = None, timeout: float = 15) -> dict:
        reply = self.call_raw(conn, method, parameters, timeout)
        assert "error" not in reply, f"{method}: {reply}"
        return reply["parameters"]

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process.stdout.close()
        self.process.stderr.close()


def wait_until(predicate, timeout: float, what: str, interval: float = 0.1):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out after {timeout} s waiting for {what}"
        time.sleep(interval)
