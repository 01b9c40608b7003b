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


# --------------------------------------------------------------------------- layers

LAYERS: tuple[tuple[str, ...], ...] = (
    # the base: no other geoik module below it
    ("geoik.errors", "geoik.checks", "geoik.jit", "geoik.files", "geoik.geometry"),
    ("geoik.kinematics",),
    # the model of a chain and of a solve
    ("geoik.pose", "geoik.state", "geoik.chain", "geoik.reach"),
    ("geoik.motion", "geoik.solution", "geoik.costs", "geoik.judge", "geoik.render"),
    ("geoik.solvers",),
    ("geoik.robots",),
    ("geoik.rigs",),
    ("geoik.api",),
    ("geoik.batch",),
    ("geoik.maps",),
    ("geoik.experiments",),
    ("geoik.viewer", "geoik.commands", "geoik.__main__"),
)
"""From the bottom up: a module may import its own folder, its own layer and the layers below.
Within a layer, imports between its folders must not run in a circle (checked above)."""

TOP_LEVEL_MODULES = 15
"""Most modules at the top level of the package, ``__init__`` and ``__main__`` not counted."""


def _layer(module: str) -> int:
    for i, names in enumerate(LAYERS):
        if any(module == n or module.startswith(n + ".") for n in names):
            return i
    raise AssertionError(f"{module} is in no layer: add it to LAYERS")


def test_every_module_is_in_a_layer_and_imports_nothing_above_it():
    paths = _modules()
    upward = []
    for name, f in sorted(paths.items()):
        if name == "geoik":  # the front: every public name, imported on first use
            continue
        for m in sorted(_imported(f, name, set(paths))):
            if m != "geoik" and _layer(m) > _layer(name):
                upward.append(f"{name} imports {m}")
    assert upward == []


def test_the_package_front_imports_nothing_at_import_time():
    """``import geoik`` costs no NumPy or numba: its names come from the layers on first use."""
    tree = ast.parse((ROOT / "__init__.py").read_text())
    top = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    assert {a.name for n in top for a in n.names} <= {
        "annotations",
        "importlib",
        "importlib.util",
        "sys",
        "types",
        "TYPE_CHECKING",
        "Any",
    }


def test_the_layers_rule_fails_on_an_upward_import(tmp_path):
    """The rule itself can fail: a solver that imported the batch engine would be caught."""
    f = tmp_path / "mutant.py"
    f.write_text("from geoik.batch.engine import evaluate\n")
    name = "geoik.solvers.mutant"
    imported = _imported(f, name, set(_modules()))
    assert "geoik.batch.engine" in imported
    assert any(_layer(m) > _layer(name) for m in imported)


def test_each_folder_says_what_lives_there_and_what_it_may_import():
    folders = sorted(ROOT.glob("*/__init__.py"))
    assert len(folders) >= 9
    for init in folders:
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        assert "May import" in doc, init.parent.name


def test_the_top_level_holds_the_shared_core_only():
    modules = sorted(f.stem for f in ROOT.glob("*.py") if not f.name.startswith("__"))
    assert len(modules) <= TOP_LEVEL_MODULES, modules


def test_modules_that_moved_keep_their_old_names():
    """Every import path the docs showed before the folders keeps working, as the same module."""
    import importlib

    for old, new in geoik.MOVED.items():
        assert importlib.import_module(old) is importlib.import_module(new), old
        assert importlib.import_module(new).__spec__.name == new
    from geoik.bvh import example_path as bvh_example
    from geoik.tree import solve_tree
    from geoik.urdf import example_path as urdf_example

    from geoik.batch import evaluate, evaluate_grid
    from geoik.maps import metric_map, volume_map
    from geoik.render import plot_solution

    assert evaluate is geoik.batch.engine.evaluate
    assert evaluate_grid is geoik.batch.engine.evaluate_grid
    assert metric_map is geoik.maps.metric.metric_map
    assert volume_map is geoik.maps.volume.volume_map
    assert solve_tree is geoik.solve_tree
    assert bvh_example("walk").is_file() and callable(urdf_example) and callable(plot_solution)
    assert geoik.tree.solve_tree is geoik.solve_tree  # attribute access on the package too
    for name in geoik.__all__:
        assert getattr(geoik, name) is not None


def test_every_public_function_says_what_it_takes_and_returns():
    """Every public function and method of the package, kernels included, has a docstring."""
    missing = []
    for name, f in sorted(_modules().items()):

        def visit(nodes: list[ast.stmt], prefix: str) -> None:
            for node in nodes:
                if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                    visit(node.body, f"{prefix}{node.name}.")
                elif (
                    isinstance(node, ast.FunctionDef)
                    and not node.name.startswith("_")
                    and ast.get_docstring(node) is None
                ):
                    missing.append(f"{prefix}{node.name}")

        visit(ast.parse(f.read_text()).body, f"{name}.")
    assert missing == []
