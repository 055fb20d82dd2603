"""No import circles in bot/ and db/, not even behind `TYPE_CHECKING`.

A circle hidden from the interpreter is still one for a reader: each side can only be
understood with the other in mind, and any member of one may be called from the other.
The type checker's imports count here like the interpreter's (a module that needs to name
another's type takes a Protocol of its own, or is handed callables). Imports inside a
function count too: a module that imports another late to break a circle still has one.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "db")


def modules() -> dict[str, Path]:
    """Every module of the packages, by dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of the packages that `name` imports, wherever the import stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            found.add(base)
            # `from bot import changes` imports the module bot.changes.
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {module for module in found if module in known and module != name}


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imported(name, path, known) for name, path in known.items()}


def circle(edges: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports, as the modules along it, or None when there is none."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for after in sorted(edges[node]):
            if state.get(after) == 1:
                return [*path[path.index(after):], after]
            if after not in state:
                found = walk(after)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            found = walk(node)
            if found:
                return found
    return None


def test_the_graph_reads_imports_behind_type_checking_and_inside_functions() -> None:
    edges = graph()
    assert "db.postgres" in edges["db"]  # imported inside `open_repository`
    assert "bot.table" in edges["bot.tables"]
    assert "bot.changes" in edges["bot.table"]  # `from bot import changes`


def test_the_finder_finds_a_circle_through_several_modules() -> None:
    assert circle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert circle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_bot_and_db_import_no_circle() -> None:
    found = circle(graph())
    assert found is None, "import circle: " + " -> ".join(found or [])
