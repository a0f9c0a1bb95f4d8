#!/usr/bin/env python3
"""Fails when a public symbol of the library modules has no documentation comment.

Usage: Scripts/check-doc-coverage.py SYMBOL_GRAPH_DIR [MODULE...]

Reads the symbol graphs `swift symbolgraph-extract` wrote for each module (SYMBOL_GRAPH_DIR/MODULE/
MODULE.symbols.json, and MODULE@Other.symbols.json for extensions of other modules' types) and
lists every symbol with access level public or open that carries no `docComment`, with its file
and line. Exit status 1 when there is any, 0 otherwise.

Not counted (there is no line in our sources to document):
- symbols without a source location: what the compiler synthesizes (`==`, `!=`, `hashValue`,
  `hash(into:)`, `init(from:)`, `encode(to:)`, `rawValue`/`init(rawValue:)` of raw-value enums,
  `allCases`) and default implementations inherited from standard-library protocols
  (`Collection` methods of a type conforming to it, `OptionSet`'s `insert(_:)`, …);
- extension blocks of other modules' types (`swift.extension`, such as `extension Date`): the
  members they declare are checked one by one.
A symbol that implements a protocol requirement and has no comment of its own passes when the
symbol graph gives it the requirement's documentation (`description` of CustomStringConvertible,
`<` of Comparable, `contains(_:)` of a documented protocol of ours): DocC shows that text.
Those, and the excluded symbols, are counted in the summary.
"""
import json
import os
import sys


def written_above(doc: dict, location: dict) -> bool:
    """True when the comment sits just above the declaration (attributes may come between), not
    on a protocol requirement elsewhere that the symbol inherits it from."""
    lines = [line["range"]["start"]["line"] for line in doc.get("lines", []) if "range" in line]
    if doc.get("uri") != location["uri"] or not lines:
        return False
    return 0 < location["position"]["line"] - max(lines) <= 8


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 64
    root = sys.argv[1]
    modules = sys.argv[2:] or sorted(os.listdir(root))
    missing = []
    for module in modules:
        directory = os.path.join(root, module)
        files = sorted(f for f in os.listdir(directory) if f.endswith(".symbols.json"))
        if not files:
            print(f"{module}: no symbol graph in {directory}", file=sys.stderr)
            return 2
        counts = {"public": 0, "own": 0, "inherited": 0, "synthesized": 0, "extension": 0}
        for name in files:
            with open(os.path.join(directory, name)) as f:
                graph = json.load(f)
            for symbol in graph["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                counts["public"] += 1
                kind = symbol["kind"]["identifier"]
                location = symbol.get("location")
                doc = symbol.get("docComment")
                if kind == "swift.extension":
                    counts["extension"] += 1
                elif location is None:
                    counts["synthesized"] += 1
                elif doc and any(line.get("text", "").strip() for line in doc.get("lines", [])):
                    counts["own" if written_above(doc, location) else "inherited"] += 1
                else:
                    path = location["uri"].removeprefix("file://")
                    path = os.path.relpath(path) if path.startswith("/") else path
                    line = location["position"]["line"] + 1
                    title = ".".join(symbol["pathComponents"])
                    missing.append(f"{path}:{line}: {module}.{title} ({kind.removeprefix('swift.')})")
        print(f"{module}: {counts['public']} public symbols: {counts['own']} documented, "
              f"{counts['inherited']} with the documentation of the requirement they implement, "
              f"{counts['synthesized']} synthesized or inherited from the standard library, "
              f"{counts['extension']} extension blocks (not counted)")
    if missing:
        print(f"\n{len(missing)} public symbols without a documentation comment (add a /// comment):",
              file=sys.stderr)
        for entry in missing:
            print(f"  {entry}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
