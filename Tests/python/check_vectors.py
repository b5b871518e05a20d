#!/usr/bin/env python3
"""Replays navd's JSON Patch vectors with an independent RFC 6902 implementation.

For every case in Protocol/vectors/patch/*.json, applies "patch" to "before" with the
PyPI `jsonpatch` package and checks the result equals "after", and that the patch uses
only the operations SEMANTICS R63 allows (add, remove, replace, move). Equality is strict
about JSON types: Python's `True == 1` must not let a boolean pass for a number.

VECTOR_DIR may name another directory of files in the same format: scripts/test passes
the layout corpus that LayoutPatchCorpusTests writes (NAVD_LAYOUT_CORPUS), the patches
navd's incremental layout path makes for every op kind at several widths.

Usage: python3 Tests/python/check_vectors.py [VECTOR_DIR]   (needs `pip install jsonpatch`)
Prints "N passed, M failed" and exits non-zero on any failure.
"""

import json
import pathlib
import sys

try:
    import jsonpatch
except ImportError:
    sys.exit("check_vectors.py needs the jsonpatch package: pip install jsonpatch")


# SEMANTICS R63: navd's patches use only these.
ALLOWED_OPS = {"add", "remove", "replace", "move"}


def same_json(a, b):
    """JSON equality: objects unordered, 1 == 1.0, but booleans are not numbers."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def main():
    root = pathlib.Path(__file__).resolve().parents[2]
    directory = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else root / "Protocol" / "vectors" / "patch"
    files = sorted(directory.glob("*.json"))
    if not files:
        sys.exit(f"no vector files in {directory}")
    passed = failed = 0
    for path in files:
        with path.open(encoding="utf-8") as handle:
            cases = json.load(handle)
        for case in cases:
            label = f"{path.name}: {case.get('name', '?')}"
            unexpected = sorted({op.get("op") for op in case["patch"]} - ALLOWED_OPS, key=str)
            if unexpected:
                failed += 1
                print(f"FAIL {label}: operations outside R63: {unexpected}")
                continue
            try:
                result = jsonpatch.apply_patch(case["before"], case["patch"])
            except Exception as error:  # any library error is a failed vector
                failed += 1
                print(f"FAIL {label}: {type(error).__name__}: {error}")
                continue
            if same_json(result, case["after"]):
                passed += 1
            else:
                failed += 1
                print(f"FAIL {label}: got {json.dumps(result, sort_keys=True, ensure_ascii=False)[:300]}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
