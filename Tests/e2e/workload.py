"""Random valid mutations and document-following subscribers, shared by the
fan-out and convergence tests.

`OpGenerator` makes mutations that are valid against the state document a
writer last saw (Protocol/PROTOCOL.md §4, SEMANTICS.md). Under concurrency the
state may have moved on, so some of them legitimately fail (an item popped by
someone else, a stale `expectTop`, a conflict); the tests count those.

`Follower` subscribes to one view of a scene on its own connection, applies
every patch with the `jsonpatch` package, and records what it saw so the test
can check versions (no gap, no repeat) and the final document.
"""

from __future__ import annotations

import copy
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import jsonpatch

from navd_fixture import ConnectionClosed, ReplyTimeout, VarlinkConnection

SYSTEM_ITEMS = ["done", "cancel", "edit", "save", "add", "compose", "reply", "action", "organize",
                "bookmarks", "search", "refresh", "stop", "camera", "trash", "play", "pause", "undo",
                "redo", "close"]
WORDS = ["Inbox", "Mail", "Drafts", "Sent", "Réglages", "Überblick", "Nachrichten", "設定", "Edit",
         "Back", "Archive", "A much longer title that will not fit", "🙂 Emoji", "", "Done", "x"]
COLOURS = ["#FF0000", "#00ff00", "#0000FF80", "#123456", "#abcdef", "#FFFFFF", "#000000cc"]

# Caps well inside SEMANTICS R66 so a generated op never hits a limit by itself.
MAX_BAR_BUTTON_ITEMS = 240
MAX_STACK = 16
MAX_TOOLBAR = 24
MAX_SIDE = 4


class OpGenerator:
    """Random mutations valid against a given state document (SEMANTICS R9–R57)."""

    def __init__(self, rng: random.Random, writer: int, *, pop_without_expect_top: bool = False):
        self.rng = rng
        self.writer = writer
        self.counter = 0
        self.pop_without_expect_top = pop_without_expect_top

    def fresh_id(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.writer}-{self.counter}"

    # -- pieces --------------------------------------------------------------

    def _title(self) -> str:
        return self.rng.choice(WORDS) + ("" if self.rng.random() < 0.5 else f" {self.rng.randrange(1000)}")

    def _new_bar_button_item(self) -> dict:
        item: dict[str, Any] = {"id": self.fresh_id("b")}
        if self.rng.random() < 0.5:
            item["systemItem"] = self.rng.choice(SYSTEM_ITEMS)
        else:
            item["title"] = self._title()
        if self.rng.random() < 0.2:
            item["enabled"] = False
        if self.rng.random() < 0.5:
            item["action"] = f"act.{item['id']}"
        if self.rng.random() < 0.3:
            item["tag"] = self.rng.randrange(-5, 100)
        if self.rng.random() < 0.2:
            item["style"] = self.rng.choice(["plain", "bordered", "done"])
        return item

    def _new_navigation_item(self, bar_items: list[str]) -> dict:
        item: dict[str, Any] = {"id": self.fresh_id("n"), "title": self._title()}
        if self.rng.random() < 0.3:
            item["prompt"] = self._title()
        if bar_items and self.rng.random() < 0.7:
            chosen = self.rng.sample(bar_items, min(len(bar_items), self.rng.randrange(0, MAX_SIDE + 1)))
            split = self.rng.randrange(len(chosen) + 1)
            item["leftBarButtonItems"] = chosen[:split]
            item["rightBarButtonItems"] = chosen[split:]
        if self.rng.random() < 0.1:
            item["leftItemsSupplementBackButton"] = True
        return item

    # -- a mutation ------------------------------------------------------------

    def mutation(self, state: dict) -> list[dict]:
        """1–2 ops valid against `state` when applied to it."""
        rng = self.rng
        stack = state["navigationBar"]["items"]
        bar_items = [item["id"] for item in state["barButtonItems"]]
        toolbar = state["toolbar"]["items"]

        choices: list[tuple[float, str]] = []
        if len(bar_items) < MAX_BAR_BUTTON_ITEMS:
            choices.append((1.5 if len(bar_items) < 8 else 0.8, "define"))
        if len(stack) < MAX_STACK:
            choices.append((3.0 if not stack else 1.2, "push"))
        if len(stack) >= 2:
            choices.append((1.0, "pop"))
        if stack:
            choices.append((1.5, "updateNavigationItem"))
            if bar_items:
                choices.append((1.0, "setBarButtonItem"))
        if bar_items:
            choices.append((1.5, "updateBarButtonItem"))
            if len(toolbar) < MAX_TOOLBAR and len(set(bar_items) - set(toolbar)) > 0:
                choices.append((0.8, "insertToolbarItem"))
        if toolbar:
            choices.append((0.5, "removeToolbarItem"))
        choices.append((0.4, "setBarHidden"))
        choices.append((0.6, "updateAppearance"))

        total = sum(weight for weight, _ in choices)
        pick = rng.random() * total
        for weight, name in choices:
            pick -= weight
            if pick <= 0:
                break
        return getattr(self, "_" + name)(state, stack, bar_items, toolbar)

    def _define(self, state, stack, bar_items, toolbar):
        item = self._new_bar_button_item()
        ops = [{"op": "defineBarButtonItem", "barButtonItem": item}]
        # Often use it at once, in the same mutation (R6: later ops see earlier ones).
        if rng_chance(self.rng, 0.4) and len(toolbar) < MAX_TOOLBAR:
            ops.append({"op": "insertToolbarItem", "barButtonItem": item["id"]})
        elif stack and rng_chance(self.rng, 0.5):
            top = stack[-1]
            side = self.rng.choice(["left", "right"])
            ops.append({"op": "setBarButtonItem", "item": top["id"], "side": side, "barButtonItem": item["id"],
                        "animated": rng_chance(self.rng, 0.3)})
        return ops

    def _push(self, state, stack, bar_items, toolbar):
        return [{"op": "push", "item": self._new_navigation_item(bar_items), "animated": rng_chance(self.rng, 0.5)}]

    def _pop(self, state, stack, bar_items, toolbar):
        op: dict[str, Any] = {"op": "pop", "animated": rng_chance(self.rng, 0.5)}
        if not (self.pop_without_expect_top and rng_chance(self.rng, 0.4)):
            op["expectTop"] = stack[-1]["id"]
        return [op]

    def _updateNavigationItem(self, state, stack, bar_items, toolbar):
        target = stack[-1] if rng_chance(self.rng, 0.6) else self.rng.choice(stack)
        key = self.rng.choice(["title", "prompt"])
        value = None if key == "prompt" and rng_chance(self.rng, 0.3) else self._title()
        return [{"op": "updateNavigationItem", "item": target["id"], "set": {key: value},
                 "animated": rng_chance(self.rng, 0.2)}]

    def _updateBarButtonItem(self, state, stack, bar_items, toolbar):
        target = self.rng.choice(bar_items)
        if rng_chance(self.rng, 0.5):
            change = {"enabled": rng_chance(self.rng, 0.6)}
        else:
            change = {"title": self._title()}
        return [{"op": "updateBarButtonItem", "barButtonItem": target, "set": change}]

    def _setBarButtonItem(self, state, stack, bar_items, toolbar):
        target = stack[-1] if rng_chance(self.rng, 0.7) else self.rng.choice(stack)
        side = self.rng.choice(["left", "right"])
        other = target["rightBarButtonItems" if side == "left" else "leftBarButtonItems"]
        candidates = [item for item in bar_items if item not in other]
        if not candidates or rng_chance(self.rng, 0.1):
            return [{"op": "setBarButtonItem", "item": target["id"], "side": side, "barButtonItem": None}]
        return [{"op": "setBarButtonItem", "item": target["id"], "side": side,
                 "barButtonItem": self.rng.choice(candidates), "animated": rng_chance(self.rng, 0.3)}]

    def _insertToolbarItem(self, state, stack, bar_items, toolbar):
        candidates = [item for item in bar_items if item not in toolbar]
        op = {"op": "insertToolbarItem", "barButtonItem": self.rng.choice(candidates)}
        if toolbar and rng_chance(self.rng, 0.5):
            op["before"] = self.rng.choice(toolbar)
        return [op]

    def _removeToolbarItem(self, state, stack, bar_items, toolbar):
        return [{"op": "removeToolbarItem", "barButtonItem": self.rng.choice(toolbar)}]

    def _setBarHidden(self, state, stack, bar_items, toolbar):
        return [{"op": "setBarHidden", "bar": self.rng.choice(["navigationBar", "toolbar"]),
                 "hidden": rng_chance(self.rng, 0.3), "animated": rng_chance(self.rng, 0.5)}]

    def _updateAppearance(self, state, stack, bar_items, toolbar):
        target = self.rng.choice(["navigationBar", "toolbar", "defaultNavigationBar", "defaultToolbar"])
        colour = None if rng_chance(self.rng, 0.15) else self.rng.choice(COLOURS)
        return [{"op": "updateAppearance", "target": target, "set": {"tintColor": colour}}]


def rng_chance(rng: random.Random, p: float) -> bool:
    return rng.random() < p


# ---------------------------------------------------------------------------


@dataclass
class Update:
    from_version: int
    to_version: int
    coalesced: bool
    events: list


@dataclass
class FollowerRecord:
    snapshot_version: int | None = None
    updates: list[Update] = field(default_factory=list)
    activations: list[dict] = field(default_factory=list)
    first_kind_after_resume: str | None = None


class Follower(threading.Thread):
    """Subscribes to (scene, view, width) and keeps the document current with `jsonpatch`.

    Records every update's (fromVersion, toVersion). Any inconsistency (a gap, a
    repeat, a patch that does not apply) is recorded in `problems` rather than
    raised, so the test can report all of them.
    """

    def __init__(self, socket_path: str, scene: str, view: str, width: float | None = None,
                 name: str | None = None, deadline_seconds: float = 120.0):
        super().__init__(name=name or f"follower-{view}-{width}", daemon=True)
        self.socket_path = socket_path
        self.scene = scene
        self.view = view
        self.width = width
        self.document: Any = None
        self.version: int | None = None
        self.record = FollowerRecord()
        self.problems: list[str] = []
        self.error: BaseException | None = None
        self.stop_event = threading.Event()
        self.subscribed = threading.Event()
        self.deadline = time.monotonic() + deadline_seconds
        self.lock = threading.Lock()
        self.connection: VarlinkConnection | None = None
        self.resume_requested = threading.Event()
        self.resumed = threading.Event()
        self.frames = 0

    def parameters(self, since: int | None = None) -> dict:
        parameters: dict[str, Any] = {"scene": self.scene, "view": self.view}
        if self.width is not None:
            parameters["width"] = self.width
        if since is not None:
            parameters["sinceVersion"] = since
        return parameters

    def _subscribe(self, since: int | None = None) -> None:
        self.connection = VarlinkConnection(self.socket_path, timeout=10.0)
        self.connection.send("io.navd.Subscribe", self.parameters(since), more=True)

    def run(self) -> None:
        try:
            self._subscribe()
            resumed_waiting_first = False
            while not self.stop_event.is_set():
                if time.monotonic() > self.deadline:
                    self.problems.append("follower ran past its deadline")
                    return
                if self.resume_requested.is_set() and not self.resumed.is_set():
                    # Disconnect, then resume from the last version seen.
                    self.connection.close()
                    self._subscribe(since=self.version)
                    resumed_waiting_first = True
                    self.resumed.set()
                try:
                    reply = self.connection.recv(timeout=0.2)
                except ReplyTimeout:
                    continue
                self.frames += 1
                if "error" in reply:
                    self.problems.append(f"error reply: {reply}")
                    return
                if not reply.get("continues"):
                    self.problems.append(f"stream reply without continues: {reply}")
                body = reply["parameters"]
                kind = body["kind"]
                if resumed_waiting_first and kind != "events":
                    self.record.first_kind_after_resume = kind
                    resumed_waiting_first = False
                with self.lock:
                    self._handle(body)
                if self.version is not None:
                    self.subscribed.set()
        except ConnectionClosed as error:
            if not self.stop_event.is_set():
                self.error = error
        except BaseException as error:  # noqa: BLE001 — reported by the test
            self.error = error
        finally:
            if self.connection:
                self.connection.close()

    def _handle(self, body: dict) -> None:
        kind = body["kind"]
        if kind == "snapshot":
            if self.version is not None and self.record.snapshot_version is not None and not self.resumed.is_set():
                self.problems.append(f"second snapshot at {body['version']} (had {self.version})")
            self.document = body["document"]
            self.version = body["version"]
            if self.record.snapshot_version is None:
                self.record.snapshot_version = body["version"]
            else:
                self.record.updates.append(Update(-1, body["version"], True, []))  # resync marker
        elif kind == "update":
            start, end = body["fromVersion"], body["toVersion"]
            if self.version is None:
                self.problems.append(f"update {start}->{end} before any snapshot")
            elif start != self.version:
                self.problems.append(f"update {start}->{end} after version {self.version}")
            if end <= start:
                self.problems.append(f"update {start}->{end} does not advance")
            coalesced = bool(body.get("coalesced", False))
            # PROTOCOL.md §6 "Gap-free": an uncoalesced update spans several versions only
            # when they were one commit group and none of them carries events.
            if not coalesced and end > start + 1 and body.get("events"):
                self.problems.append(f"update {start}->{end} spans several versions but carries events")
            try:
                self.document = jsonpatch.apply_patch(self.document, body["patch"], in_place=True)
            except Exception as error:  # noqa: BLE001
                self.problems.append(f"patch {start}->{end} does not apply: {error!r}: {body['patch']}")
            self.version = end
            self.record.updates.append(Update(start, end, coalesced, body.get("events", [])))
        elif kind == "events":
            self.record.activations.extend(body.get("events", []))
        else:
            self.problems.append(f"unknown kind {kind!r}")

    def wait_for_version(self, version: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.error is not None or not self.is_alive():
                return False
            with self.lock:
                if self.version is not None and self.version >= version:
                    return True
            time.sleep(0.01)
        return False

    def snapshot(self) -> tuple[int | None, Any]:
        with self.lock:
            return self.version, copy.deepcopy(self.document)

    def stop(self, timeout: float = 5.0) -> None:
        self.stop_event.set()
        self.join(timeout)

    def covered_versions(self) -> list[int]:
        """Every version the updates led through, in order: an update from F to T covers
        F+1 … T (several versions when they were one commit group, PROTOCOL.md §6)."""
        return [v for update in self.record.updates for v in range(update.from_version + 1, update.to_version + 1)]

    def coalesced(self) -> bool:
        return any(update.coalesced for update in self.record.updates)


def fetch_document(connection: VarlinkConnection, scene: str, view: str, width: float | None) -> tuple[int, Any]:
    if view == "state":
        reply = connection.call("io.navd.GetState", {"scene": scene})
        return reply["version"], reply["state"]
    parameters: dict[str, Any] = {"scene": scene}
    if width is not None:
        parameters["width"] = width
    reply = connection.call("io.navd.GetLayout", parameters)
    return reply["version"], reply["layout"]
