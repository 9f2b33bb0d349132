"""Maps the layer folders at the top of the repository into the ``eden_memory`` package.

``domain/``, ``ports/``, ``application/`` and ``adapters/`` install as ``eden_memory.domain``
and so on; nothing is installed as a top-level ``domain`` module. Everything else about the
project is in ``pyproject.toml``.
"""

from setuptools import find_packages, setup

LAYERS = ("domain", "ports", "application", "adapters")

# eden_memory/<layer> are symlinks that make a source checkout importable as it is; the
# wheel takes each layer from its own folder instead.
packages = ["eden_memory"]
packages += [
    f"eden_memory.{p}" for p in find_packages("eden_memory") if p.split(".")[0] not in LAYERS
]
package_dir = {"eden_memory": "eden_memory"}
for layer in LAYERS:
    packages.append(f"eden_memory.{layer}")
    package_dir[f"eden_memory.{layer}"] = layer
    for sub in find_packages(layer):
        packages.append(f"eden_memory.{layer}.{sub}")
        package_dir[f"eden_memory.{layer}.{sub}"] = f"{layer}/{sub.replace('.', '/')}"

setup(
    packages=packages,
    package_dir=package_dir,
    package_data={
        "eden_memory": ["py.typed"],
        "eden_memory.application": ["prompts/*.md"],
        "eden_memory.adapters.console": ["templates/*.html", "static/*"],
    },
)
