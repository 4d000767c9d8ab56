"""The package's layers and its import cycles, read from the source (every import, those inside functions too).

Layers, lowest first (docs/architecture.md draws them): the neutral top-level modules (`kikimimi/*.py`), then
games < devices, voice < table < records, bringup < console, venue < app (the commands, `kikimimi/app/`).
Layers named together on one level (devices and voice; records and bringup; console and venue) are siblings:
they import neither each other. A module may import its own layer and the layers below it, never one above.
Imports under `if TYPE_CHECKING:` are not made at run time and are not counted. Cycles are counted twice:
between modules, and between layers (a layer that reaches one above it and is reached back closes a loop
even when no two modules do).

Nothing is allowed to break these rules: the allow-lists below are empty and stay so. A new upward import or
cycle fails the test with its file:line.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "kikimimi"
ORDER = {"games": 1, "devices": 2, "voice": 2, "table": 3, "records": 4, "bringup": 4, "console": 5, "venue": 5,
         "app": 6}
NEUTRAL, APP = 0, ORDER["app"]  # the top-level helpers (keyvalue, paths, words, serving, cliargs, ...); the commands

# Upward imports still made, as (importing file, imported module): none, and none may come.
ALLOWED_UPWARD: set[tuple[str, str]] = set()

# Groups of modules that import each other (imports inside functions counted): none, and none may come.
ALLOWED_CYCLES: list[set[str]] = []

# Groups of layers that import each other: none, and none may come.
ALLOWED_LAYER_CYCLES: list[set[str]] = []


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(path: Path, name: str, modules: dict[str, Path]) -> list[tuple[int, str]]:
    """(line, module of the package) for every import the file makes at run time, at any depth."""
    found: list[tuple[int, str]] = []
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def resolve(target: str) -> str | None:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        return target or None

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking_only(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "kikimimi" and (target := resolve(alias.name)):
                    found.append((node.lineno, target))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            if base.split(".")[0] == "kikimimi":
                for alias in node.names:  # `from pkg import module` imports the module
                    target = resolve(f"{base}.{alias.name}") if f"{base}.{alias.name}" in modules else resolve(base)
                    if target:
                        found.append((node.lineno, target))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(), str(path)))
    return [(line, target) for line, target in found if target != name]


def import_graph() -> dict[str, list[tuple[int, str]]]:
    modules = _modules()
    return {name: _imports(path, name, modules) for name, path in modules.items()}


def layer(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 1:
        return NEUTRAL  # kikimimi/__init__.py
    if parts[1] in ORDER:
        return ORDER[parts[1]]
    return APP if parts[1] == "__main__" else NEUTRAL  # `python -m kikimimi` runs the command; kikimimi/<module>.py


def _area(module: str) -> str:
    """The layer's folder a module is in (`kikimimi/__main__.py` runs the command: it is the app's)."""
    area = module.split(".")[1]
    return "app" if area == "__main__" else area


def upward_imports(graph: dict[str, list[tuple[int, str]]]) -> list[tuple[str, int, str]]:
    """(file, line, imported module) for each import of a higher layer, or of the sibling at the same level."""
    found = []
    for name, targets in graph.items():
        for line, target in targets:
            here, there = layer(name), layer(target)
            sibling = here == there and here != NEUTRAL and _area(name) != _area(target)
            if there > here or sibling:
                found.append((_file(name), line, target))
    return sorted(set(found))


def cycles(graph: dict[str, list[tuple[int, str]]]) -> list[set[str]]:
    """Groups of two or more modules that reach each other (strongly connected components, Tarjan's)."""
    edges = {name: sorted({target for _, target in targets}) for name, targets in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def connect(start: str) -> None:  # iterative: the graph is deep enough to trouble the recursion limit
        work = [(start, iter(edges[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges[child])))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(group)

    for name in edges:
        if name not in index:
            connect(name)
    return sorted(groups, key=lambda group: sorted(group))


def _file(module: str) -> str:
    path = _modules()[module]
    return str(path.relative_to(PACKAGE.parent))


def _where(graph: dict[str, list[tuple[int, str]]], group: set[str]) -> str:
    """Each import inside a group, as file:line -> module."""
    return "; ".join(f"{_file(name)}:{line} -> {target}" for name in sorted(group)
                     for line, target in graph[name] if target in group)


def test_no_layer_imports_one_above_it():
    graph = import_graph()
    found = upward_imports(graph)
    new = [f"{file}:{line} imports {target}" for file, line, target in found if (file, target) not in ALLOWED_UPWARD]
    assert not new, "upward imports (a layer may import only those below it):\n" + "\n".join(new)
    gone = ALLOWED_UPWARD - {(file, target) for file, _, target in found}
    assert not gone, f"no longer imported: take these off ALLOWED_UPWARD: {sorted(gone)}"


def test_no_modules_import_each_other():
    graph = import_graph()
    found = cycles(graph)
    new = [group for group in found if group not in ALLOWED_CYCLES]
    assert not new, "modules that import each other (imports inside functions counted):\n" + \
        "\n".join(f"{sorted(group)}: {_where(graph, group)}" for group in new)
    gone = [group for group in ALLOWED_CYCLES if group not in found]
    assert not gone, f"no longer a cycle: take these off ALLOWED_CYCLES: {gone}"


def layer_graph(graph: dict[str, list[tuple[int, str]]]) -> dict[str, list[tuple[int, str]]]:
    """The module graph folded into layers (`kikimimi/<layer>/`; each top-level module is its own node)."""
    def fold(module: str) -> str:
        return module.split(".")[1] if "." in module else module

    folded: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for name, targets in graph.items():
        folded[fold(name)].extend((line, fold(target)) for line, target in targets if fold(target) != fold(name))
    for targets in list(folded.values()):
        for _, target in targets:
            folded.setdefault(target, [])
    return folded


def test_no_layers_import_each_other():
    found = cycles(layer_graph(import_graph()))
    new = [group for group in found if group not in ALLOWED_LAYER_CYCLES]
    assert not new, f"layers that import each other (see the upward imports): {new}"
    gone = [group for group in ALLOWED_LAYER_CYCLES if group not in found]
    assert not gone, f"no longer a cycle: take these off ALLOWED_LAYER_CYCLES: {gone}"


def test_the_product_imports_no_test_rig_and_no_bench_of_one():
    """testbed/ (the emulators, the throwaway PostgreSQL) and kikimimi_bench/ are the repository's, not the
    wheel's: nothing in kikimimi/ imports them, at any depth (the benches join through entry points)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            found += [f"{path.relative_to(PACKAGE.parent)}:{node.lineno} imports {name}" for name in names
                      if name.split(".")[0] in ("testbed", "kikimimi_bench")]
    assert not found, "\n".join(found)


def test_the_reader_finds_imports_inside_functions_and_skips_type_checking(tmp_path):
    """The reader itself: an import in a function counts, one under TYPE_CHECKING does not."""
    package = tmp_path / "kikimimi"
    (package / "games").mkdir(parents=True)
    for name in ("__init__.py", "games/__init__.py", "games/a.py", "games/b.py"):
        (package / name).write_text("")
    (package / "games" / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from kikimimi.games import b\n"
        "def f():\n    from kikimimi.games.b import x\n    return x\n")
    modules = {_module_name_in(package, path): path for path in package.rglob("*.py")}
    assert _imports(package / "games" / "a.py", "kikimimi.games.a", modules) == [(5, "kikimimi.games.b")]
    graph: dict[str, list[tuple[int, str]]] = defaultdict(list, {"x.a": [(1, "x.b")], "x.b": [(2, "x.a")], "x.c": []})
    assert cycles(graph) == [{"x.a", "x.b"}]


def _module_name_in(package: Path, path: Path) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_the_architecture_page_draws_every_layer():
    page = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = [line.strip().strip("│") for line in page.splitlines() if line.strip().startswith("│ ")]
    drawn = {word for row in rows for word in row[:19].replace("│", " ").split()}  # a row's name column
    missing = [name for name in ORDER if name not in drawn]
    assert not missing, f"docs/architecture.md does not draw the layers {missing}"
