"""How the package is cut: no import cycles, every exception in errors.py, no private module
at the top level (private helpers live in the subpackage they serve)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import geoik
import geoik.errors

ROOT = Path(geoik.__file__).parent


def _modules() -> dict[str, Path]:
    paths = {}
    for f in ROOT.rglob("*.py"):
        parts = ("geoik", *f.relative_to(ROOT).with_suffix("").parts)
        paths[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = f
    return paths


def _imported(path: Path, name: str, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that ``path`` (module ``name``) imports anywhere, even inside
    functions, leaving out ``if TYPE_CHECKING:`` blocks."""
    tree = ast.parse(path.read_text())
    typing_only = {
        id(sub)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for sub in ast.walk(node)
    }
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            subs = {f"{base}.{a.name}" for a in node.names} & modules
            out |= subs if len(subs) == len(node.names) else {base, *subs}
    return (out & modules) - {name}


def test_no_module_imports_one_that_imports_it_back():
    """Counting imports inside functions too: a cycle hidden in a function is still a cycle."""
    paths = _modules()
    graph = {m: _imported(f, m, set(paths)) for m, f in paths.items()}
    done: set[str] = set()

    def visit(m: str, path: tuple[str, ...]) -> None:
        assert m not in path, "import cycle: " + " -> ".join((*path[path.index(m) :], m))
        if m not in done:
            for n in sorted(graph[m]):
                visit(n, (*path, m))
            done.add(m)

    for m in sorted(graph):
        visit(m, ())
    # the graph sees imports inside functions (run() imports its tables lazily no more, but
    # api.warm_up imports the registry inside the function)
    assert (
        "geoik.experiments.metric_maps_2010.tables" in graph["geoik.experiments.metric_maps_2010"]
    )
    assert "geoik.solvers" in graph["geoik.api"]


def test_every_exception_class_is_defined_in_errors():
    for name, f in _modules().items():
        if name == "geoik.errors":
            continue
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.ClassDef):
                bases = {ast.unparse(b) for b in node.bases}
                assert not any(b.endswith(("Error", "Exception")) for b in bases), (name, node.name)
    defined = [c for _, c in inspect.getmembers(geoik.errors, inspect.isclass)]
    assert geoik.errors.GeoIKError in defined and len(defined) >= 10


def test_no_private_module_at_the_top_level():
    private = sorted(
        f.name for f in ROOT.glob("_*.py") if f.name not in ("__init__.py", "__main__.py")
    )
    assert private == []
