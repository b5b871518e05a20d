"""navd-gtk draws the golden set: each scene of scenes.py, screenshotted under Xvfb, matches its
PNG in Golden/ within TOLERANCE differing pixels (`compare -metric AE -fuzz 5%`).

Regenerate after an intended change of the drawing, then look at every picture:

    python3 -m pytest Examples/navd-gtk/Tests/Xvfb/test_goldens.py --update-goldens
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import HERE, differing_pixels, mutate
from scenes import GOLDEN_SCENES, MAIL

GOLDEN = HERE / "Golden"
# Pixels allowed to differ by more than 5%: a few glyph edges (a 375×260 window has 97,500).
TOLERANCE = 150
# Windows are laid out on a grid so that none covers another when screenshotted.
COLUMNS, CELL_WIDTH, CELL_HEIGHT = 3, 520, 300


def draw_all(navd, navd_gtk, tmp_path: Path, scenes: dict) -> dict[str, Path]:
    """Builds every scene in navd, opens one window per scene in one process, and screenshots each."""
    args = []
    for name, (ops, width) in scenes.items():
        mutate(navd, name, ops)
        args += ["--scene", name, "--width", str(width)]
    app = navd_gtk(*args)
    shots = {}
    app.wait_for_each([rf"drew {number} {name} v\d+ at \d+" for number, name in enumerate(scenes, start=1)])
    for number, name in enumerate(scenes, start=1):
        window = app.window(number, name)
        column, row = (number - 1) % COLUMNS, (number - 1) // COLUMNS
        app.xdotool("windowmove", "--sync", window, str(column * CELL_WIDTH), str(row * CELL_HEIGHT))
    app.drain(0.7)  # let the moves and any redraw settle
    for number, name in enumerate(scenes, start=1):
        shots[name] = tmp_path / f"{name}.png"
        app.screenshot(app.window(number, name), shots[name])
    return shots


def test_every_golden_scene_is_drawn_within_tolerance(navd, navd_gtk, tmp_path, update_goldens):
    shots = draw_all(navd, navd_gtk, tmp_path, GOLDEN_SCENES)
    if update_goldens:
        GOLDEN.mkdir(exist_ok=True)
        for name, shot in shots.items():
            shutil.copy(shot, GOLDEN / f"{name}.png")
        pytest.skip(f"wrote {len(shots)} goldens to {GOLDEN}")
    failures = []
    for name, shot in shots.items():
        golden = GOLDEN / f"{name}.png"
        assert golden.exists(), f"no golden {golden}; run with --update-goldens"
        differing = differing_pixels(shot, golden, tmp_path / f"{name}-diff.png")
        if differing > TOLERANCE:
            kept = HERE / "failed"
            kept.mkdir(exist_ok=True)
            shutil.copy(shot, kept / f"{name}.png")
            shutil.copy(tmp_path / f"{name}-diff.png", kept / f"{name}-diff.png")
            failures.append(f"{name}: {differing} pixels differ (> {TOLERANCE}); see {kept}/{name}.png")
    assert not failures, "\n".join(failures)


def test_a_changed_drawing_fails_the_comparison(navd, navd_gtk, tmp_path):
    """The check can fail: the mail scene with one word changed is far outside the tolerance."""
    changed = [op if op.get("item", {}).get("id") != "message" else
               {"op": "push", "item": {"id": "message", "title": "Messages"}} for op in MAIL]
    shots = draw_all(navd, navd_gtk, tmp_path, {"mail": (changed, 375)})
    assert differing_pixels(shots["mail"], GOLDEN / "mail.png", tmp_path / "diff.png") > TOLERANCE
