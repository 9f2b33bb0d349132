"""Screenshots of the console's main views for docs/console.md, with Debian's headless chromium.

Seeds the sample memory (``eden_memory.demo.console_sample``) into a fresh store, starts
``eden-memory console`` on it, and saves docs/images/console-*.png (PNG, reduced to a
64-colour palette by ``pngquant`` when it is installed, to keep them small).

    PYTHONPATH=. python scripts/console_screenshots.py
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.console.live import headless_chromium, page_errors, running_console, seed_store

ROOT = Path(__file__).resolve().parents[1]
VIEWS = {
    "agent": "/agent?agent=nova",
    "user": "/user?agent=nova&user=alice",
    "facts": "/facts?agent=nova&status=all",
    "fact": "/fact?agent=nova&id=f-city",
    "search": "/search?agent=nova&user=alice&q=Alice+Porto",
    "context": "/context?agent=nova&session=s-alice-1",
    "blob": "/blob?agent=nova&scope=user&user=alice",
    "session": "/session?agent=nova&session=s-alice-1",
}


def _shrink(path: Path) -> None:
    """A 64-colour palette, with pngquant when it is there (``apt-get install pngquant``)."""
    pngquant = shutil.which("pngquant")
    if pngquant is not None:
        command = [pngquant, "64", "--force", "--skip-if-larger", "--output", str(path), str(path)]
        subprocess.run(command, check=False)  # 98: already smaller than any palette version


def main() -> None:
    out = ROOT / "docs" / "images"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        store = Path(folder) / "memory.db"
        seed_store(store)
        with running_console(store) as console, headless_chromium(1100, 820) as driver:
            driver.get(console.url)
            for name, path in VIEWS.items():
                driver.get(console.base + path)
                errors = page_errors(driver)
                if errors:
                    raise SystemExit(f"{name}: the page logged {errors}")
                target = out / f"console-{name}.png"
                driver.save_screenshot(str(target))
                _shrink(target)
                print(f"{target.relative_to(ROOT)}: {target.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
