"""One partition's vectors as a contiguous matrix of unit rows, editable in place.

Rows ``[0, size)`` of ``matrix`` are live; the buffer grows by doubling so appends are cheap,
and a removal moves the last row into the hole, so the live rows stay one contiguous block
that a single scan reads. Rows are normalised in float32, then held in the type of the
matrix the partition was built with (float32, or float16 for ``scan.HalfScan``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Matrix = npt.NDArray[np.float32]
Rows = npt.NDArray[np.float32] | npt.NDArray[np.float16]


def unit_rows(matrix: Matrix) -> Matrix:
    """Rows scaled to length 1 (zero rows stay zero), so a dot product is the cosine."""
    # einsum's sum of squares is ~3x faster than ``np.linalg.norm`` here (no temporary).
    norms = np.sqrt(np.einsum("ij,ij->i", matrix, matrix))[:, None]
    np.divide(matrix, norms, out=matrix, where=norms > 0)
    return matrix


class Partition:
    def __init__(
        self,
        synced_seq: int,
        ids: list[str],
        rows: Rows,
        positions: dict[str, int] | None = None,
    ) -> None:
        """``rows``: the unit vectors of ``ids``, in the type the partition keeps;
        ``positions``: each id's row, when the caller has it already. Otherwise it is built
        on the first edit: a search needs only ``ids``, and a million-entry dict took ~0.9 s
        of opening a store of a million facts."""
        self.dim = rows.shape[1]
        self.synced_seq = synced_seq
        self.ids = ids
        self._known_pos = positions
        self._buffer = rows

    @property
    def _pos(self) -> dict[str, int]:
        if self._known_pos is None:
            self._known_pos = {f: i for i, f in enumerate(self.ids)}
        return self._known_pos

    @property
    def size(self) -> int:
        return len(self.ids)

    @property
    def matrix(self) -> Rows:
        """The live rows, as a view (no copy)."""
        return self._buffer[: self.size]

    def upsert(self, fact_id: str, vector: Matrix) -> None:
        row = self._pos.get(fact_id)
        if row is None:
            row = self.size
            self._grow(row + 1)
            self.ids.append(fact_id)
            self._pos[fact_id] = row
        self._buffer[row] = unit_rows(vector.astype(np.float32).reshape(1, self.dim))[0]

    def remove(self, fact_id: str) -> None:
        row = self._pos.pop(fact_id, None)
        if row is None:
            return
        last = self.size - 1
        if row != last:
            moved = self.ids[last]
            self._buffer[row] = self._buffer[last]
            self.ids[row] = moved
            self._pos[moved] = row
        self.ids.pop()

    def _grow(self, needed: int) -> None:
        if needed <= len(self._buffer):
            return
        capacity = max(needed, 2 * len(self._buffer), 16)
        grown: Rows = np.empty((capacity, self.dim), dtype=self._buffer.dtype)
        grown[: self.size] = self.matrix
        self._buffer = grown
