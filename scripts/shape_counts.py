"""The shape of the code, counted: modules and lines per layer, host faces, ports, mixins.

Run before and after a refactoring (issue 19) and put both outputs in the closing note::

    python scripts/shape_counts.py            # the working tree
    python scripts/shape_counts.py --json     # the same, machine-readable

It reads the source as text (``ast``); it imports nothing of the library.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("domain", "ports", "application", "adapters", "eden_memory")
SERVICE = ROOT / "application" / "service.py"
STORE_ADAPTERS = {
    "memory": ROOT / "adapters/stores/memory/store.py",
    "sqlite": ROOT / "adapters/stores/sqlite/store.py",
    "mongo": ROOT / "adapters/stores/mongo/store.py",
}
# An adapter split by concern (issue 19) has one class per port instead of one store class.
CONCERNS = ("Facts", "Ranking", "Sessions", "Buffers", "Revisions")
PREFIXES = {"memory": "InMemory", "sqlite": "Sqlite", "mongo": "Mongo"}


def _python_files(layer: str) -> list[Path]:
    files = sorted((ROOT / layer).rglob("*.py"))
    # eden_memory/{domain,ports,application,adapters} are links to the layer folders.
    return [f for f in files if not any(p.is_symlink() for p in f.relative_to(ROOT).parents)]


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _classes(path: Path) -> dict[str, ast.ClassDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}


def _public_members(node: ast.ClassDef) -> tuple[list[str], list[str]]:
    """Public methods, and public attributes set in ``__init__`` or declared on the class."""
    methods, attributes = [], []
    for item in node.body:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
            if not item.name.startswith("_"):
                methods.append(item.name)
            elif item.name == "__init__":
                for sub in ast.walk(item):
                    if (
                        isinstance(sub, ast.Attribute)
                        and isinstance(sub.value, ast.Name)
                        and sub.value.id == "self"
                        and isinstance(sub.ctx, ast.Store)
                        and not sub.attr.startswith("_")
                    ):
                        attributes.append(sub.attr)
        elif (
            isinstance(item, ast.AnnAssign)
            and isinstance(item.target, ast.Name)
            and not item.target.id.startswith("_")
        ):
            attributes.append(item.target.id)
    return methods, sorted(set(attributes))


def _is_protocol(node: ast.ClassDef) -> bool:
    return any(isinstance(b, ast.Name) and b.id == "Protocol" for b in node.bases)


def _protocol_methods(node: ast.ClassDef, known: dict[str, ast.ClassDef]) -> list[str]:
    """Methods and properties of a protocol, its protocol bases' included."""
    names = [
        i.name
        for i in node.body
        if isinstance(i, ast.FunctionDef | ast.AsyncFunctionDef) and not i.name.startswith("_")
    ]
    for base in node.bases:
        if isinstance(base, ast.Name) and base.id in known:
            names += _protocol_methods(known[base.id], known)
    return sorted(set(names))


def _ports() -> dict[str, int]:
    protocols: dict[str, ast.ClassDef] = {}
    for path in _python_files("ports"):
        protocols |= {name: c for name, c in _classes(path).items() if _is_protocol(c)}
    return {name: len(_protocol_methods(c, protocols)) for name, c in sorted(protocols.items())}


def _bases(node: ast.ClassDef) -> list[str]:
    return [ast.unparse(b) for b in node.bases]


def _mixins(path: Path, prefix: str = "") -> dict[str, object]:
    """The store class's bases, and every class it inherits from in its package; for an
    adapter split by concern, each concern's class and its bases."""
    package: dict[str, ast.ClassDef] = {}
    for module in sorted(path.parent.rglob("*.py")):  # concern packages included
        package |= _classes(module)
    stores = (
        [c for name, c in _classes(path).items() if name.endswith("Store")] if path.exists() else []
    )
    if not stores:
        parts = [f"{prefix}{c}" for c in CONCERNS if f"{prefix}{c}" in package]
        return {"parts": {name: _bases(package[name]) for name in parts}}
    seen: set[str] = set()
    todo = [b for b in _bases(stores[0])]
    while todo:
        name = todo.pop()
        if name in seen or name not in package:
            continue
        seen.add(name)
        todo += _bases(package[name])
    return {"store": stores[0].name, "bases": _bases(stores[0]), "mixins": len(seen)}


def counts() -> dict[str, object]:
    layers = {
        layer: {"modules": len(files), "lines": sum(_lines(f) for f in files)}
        for layer in LAYERS
        for files in [_python_files(layer)]
    }
    service = _classes(SERVICE)["MemoryService"]
    methods, attributes = _public_members(service)
    faces: dict[str, object] = {
        "MemoryService": {"methods": len(methods), "attributes": len(attributes)}
    }
    for name, module in (("Management", "management"), ("Admin", "admin")):
        path = ROOT / "application" / f"{module}.py"
        if path.exists() and name in _classes(path):
            faces[name] = {"methods": len(_public_members(_classes(path)[name])[0])}
    return {
        "layers": layers,
        "total": {
            "modules": sum(v["modules"] for v in layers.values()),
            "lines": sum(v["lines"] for v in layers.values()),
        },
        "faces": faces,
        "service_methods": methods,
        "service_attributes": attributes,
        "ports": _ports(),
        "store_adapters": {
            name: _mixins(path, PREFIXES[name]) for name, path in STORE_ADAPTERS.items()
        },
    }


def _print(data: dict[str, object]) -> None:
    layers = data["layers"]
    assert isinstance(layers, dict)
    for layer, v in layers.items():
        print(f"{layer:12} {v['modules']:4} modules {v['lines']:6} lines")
    total = data["total"]
    assert isinstance(total, dict)
    print(f"{'total':12} {total['modules']:4} modules {total['lines']:6} lines")
    print(f"faces: {json.dumps(data['faces'])}")
    print(f"MemoryService methods: {', '.join(data['service_methods'])}")  # type: ignore[arg-type]
    print(f"MemoryService attributes: {', '.join(data['service_attributes'])}")  # type: ignore[arg-type]
    ports = data["ports"]
    assert isinstance(ports, dict)
    print("port methods: " + ", ".join(f"{k} {v}" for k, v in ports.items()))
    adapters = data["store_adapters"]
    assert isinstance(adapters, dict)
    for name, shape in adapters.items():
        print(f"store {name}: {shape}")


if __name__ == "__main__":
    result = counts()
    if "--json" in sys.argv:
        print(json.dumps(result, indent=1))
    else:
        _print(result)
