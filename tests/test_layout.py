"""The package layout shows the pipeline, and no two modules import each other (even lazily)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rulescript", "wwrf_adapter", "octgn_pack")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for pkg in PACKAGES:
        for path in (ROOT / pkg).rglob("*.py"):
            found[_module_name(path)] = path
    return found


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Every module of the project that ``name`` imports, at any depth of its code."""
    is_pkg = path.name == "__init__.py"
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = name.split(".") if is_pkg else name.split(".")[:-1]
                pkg = pkg[:len(pkg) - (node.level - 1)]
                base = ".".join(pkg + ([base] if base else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    known = set(mods)
    graph = {}
    for name, path in mods.items():
        # a package's __init__ re-exporting its own modules is not a cycle with them
        graph[name] = {m for m in _imports(name, path, known) if not m.startswith(name + ".") or
                       not path.name == "__init__.py"}
        graph[name] = {m for m in graph[name] if not name.startswith(m + ".")}
    return graph


def test_no_import_cycles() -> None:
    assert _cycles(_graph()) == []


def test_cycle_finder_has_teeth() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_folders_show_the_pipeline() -> None:
    pkg = ROOT / "rulescript"
    for stage in ("ini", "lexer", "parser", "ast", "context", "compile_expr", "compile_filter", "compile_rule",
                  "driver", "profile"):
        assert (pkg / "compiler" / f"{stage}.py").is_file(), stage
    for step in ("pysource", "setxml", "rewrite", "migrate"):
        assert (pkg / "importer" / f"{step}.py").is_file(), step
    assert (pkg / "games" / "cfc" / "profile.yaml").is_file()
    assert (pkg / "games" / "cfc" / "reference.md").is_file()
    assert not list(pkg.glob("*.yaml")) and not (pkg / "profiles").exists()


def test_the_engine_core_imports_no_game() -> None:
    graph = _graph()
    core = [m for m in graph if m.startswith("rulescript.runtime")]
    assert core
    for m in core:
        assert not any(d.startswith("rulescript.games") for d in graph[m]), (m, graph[m])
