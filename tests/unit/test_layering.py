"""The layers, read from the source: what each may import, and what the domain may never do.

import-linter checks the same contracts on the import graph; this scan also catches imports
inside functions and the domain's forbidden calls (I/O, clocks, async).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "eden_memory"
VENDOR_SDKS = {
    "pymongo",
    "motor",
    "bson",
    "openai",
    "google",
    "anthropic",
    "numpy",
    "sentence_transformers",
    "torch",
    "mcp",
    "httpx",
    "requests",
    "dependency_injector",
    "pydantic_settings",
    "typer",
    "rich",
}
TOP_LEVEL_LAYERS = {"domain", "ports", "application", "adapters"}


def modules(layer: str) -> list[Path]:
    return sorted((ROOT / layer).rglob("*.py"))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE, *parts])


def imports(path: Path) -> Iterator[tuple[int, str]]:
    """Every module ``path`` imports, as an absolute dotted name, with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package.pop()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            yield node.lineno, name


def within(name: str, *allowed: str) -> bool:
    return any(name == a or name.startswith(a + ".") for a in allowed)


def is_stdlib(name: str) -> bool:
    return name.split(".")[0] in sys.stdlib_module_names


def offending(layer: str, allowed: tuple[str, ...], stdlib: bool) -> list[str]:
    bad = []
    for path in modules(layer):
        for line, name in imports(path):
            if not (within(name, *allowed) or (stdlib and is_stdlib(name))):
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    return bad


def test_the_layers_have_source_to_scan() -> None:
    assert len(modules("domain")) >= 10
    assert modules("ports")


def test_the_domain_imports_only_itself_the_standard_library_and_pydantic() -> None:
    assert offending("domain", ("eden_memory.domain", "pydantic"), stdlib=True) == []


def test_the_domain_never_imports_typing_extensions_or_pydantic_settings() -> None:
    names = {name for path in modules("domain") for _, name in imports(path)}
    assert not any(within(n, "typing_extensions", "pydantic_settings") for n in names)


def test_ports_import_only_the_standard_library_pydantic_the_domain_and_ports() -> None:
    allowed = ("eden_memory.domain", "eden_memory.ports", "pydantic")
    assert offending("ports", allowed, stdlib=True) == []


def test_the_application_knows_no_adapter_container_or_vendor_sdk() -> None:
    forbidden = ("eden_memory.adapters", "eden_memory.config", *sorted(VENDOR_SDKS))
    bad = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in modules("application")
        for line, name in imports(path)
        if within(name, *forbidden)
    ]
    assert bad == []


@pytest.mark.parametrize("layer", sorted(TOP_LEVEL_LAYERS))
def test_no_layer_imports_a_top_level_module_that_is_never_installed(layer: str) -> None:
    bad = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in modules(layer)
        for line, name in imports(path)
        if name.split(".")[0] in TOP_LEVEL_LAYERS
    ]
    assert bad == []


FORBIDDEN_CALLS = {
    ("datetime", "now"),
    ("datetime", "utcnow"),
    ("datetime", "today"),
    ("date", "today"),
    ("time", "time"),
    ("time", "monotonic"),
    ("time", "perf_counter"),
    ("time", "sleep"),
}


def impurities(path: Path) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.AsyncFunctionDef | ast.Await | ast.AsyncFor | ast.AsyncWith):
            yield f"{where} is async"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in {"open", "input", "print"}:
                yield f"{where} calls {node.func.id}()"
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and (node.value.id, node.attr) in FORBIDDEN_CALLS
        ):
            yield f"{where} reads {node.value.id}.{node.attr}"
    source = path.read_text(encoding="utf-8")
    for needle in ("async def", "await ", "open(", "datetime.now", "time.time"):
        if needle in source:
            yield f"{path.relative_to(ROOT)} contains {needle!r}"


def test_the_domain_has_no_io_no_clock_and_no_async() -> None:
    assert [problem for path in modules("domain") for problem in impurities(path)] == []
