#!/usr/bin/env python3
"""README.md's Swift snippet is Examples/StatusBar's code, word for word.

The example package builds against navd exactly as an outside package would
(scripts/test builds it), so the snippet a reader copies from the README
compiles as written. The snippet is the lines between `// README: begin` and
`// README: end` in Examples/StatusBar/Sources/StatusBar/StatusBar.swift,
dedented; in README.md it is the ```swift block after "From Swift".
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "Examples/StatusBar/Sources/StatusBar/StatusBar.swift"


def example_snippet() -> str:
    lines = EXAMPLE.read_text().splitlines()
    begin = next(i for i, line in enumerate(lines) if line.strip() == "// README: begin")
    end = next(i for i, line in enumerate(lines) if line.strip() == "// README: end")
    return textwrap.dedent("\n".join(lines[begin + 1 : end])).strip("\n")


def readme_snippet() -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index("```swift\n", text.index("From Swift")) + len("```swift\n")
    return text[start : text.index("```", start)].strip("\n")


def main() -> int:
    expected, actual = example_snippet(), readme_snippet()
    if expected != actual:
        print("README.md's Swift snippet differs from Examples/StatusBar (copy the example's lines):", file=sys.stderr)
        print("--- example\n" + expected + "\n--- README\n" + actual, file=sys.stderr)
        return 1
    print("README snippet == Examples/StatusBar snippet")
    return 0


if __name__ == "__main__":
    sys.exit(main())
