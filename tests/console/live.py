"""The console as a person starts it: ``eden-memory console`` in a subprocess over a seeded
store on disk, and Debian's headless chromium driven by Selenium (nothing is downloaded).

The browser test and ``scripts/console_screenshots.py`` both use this.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from eden_memory.config import EdenMemoryConfig
from eden_memory.demo.console_sample import seed_sample
from eden_memory.factory import open_memory

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
TOKEN = "browser-test-token-4f9a"


@dataclass(frozen=True)
class Console:
    url: str  # the URL the console printed, token included
    base: str


def seed_store(path: Path) -> None:
    async def seed() -> None:
        async with open_memory(EdenMemoryConfig(store_path=path, embedder="keyword")) as memory:
            await seed_sample(memory)

    asyncio.run(seed())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def running_console(store: Path, *args: str) -> Iterator[Console]:
    """``eden-memory console --agent nova`` on a free port, until the block ends."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("EDEN_MEMORY_")}
    env |= {
        "PYTHONPATH": str(ROOT),
        "EDEN_MEMORY_EMBEDDER": "keyword",
        "EDEN_MEMORY_CONSOLE_TOKEN": TOKEN,
    }
    command = [sys.executable, "-m", "eden_memory", "--store", str(store), "console"]
    command += ["--agent", "nova", "--port", str(port), *args]
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        _wait_for(port, process)
        base = f"http://127.0.0.1:{port}"
        yield Console(f"{base}/?token={TOKEN}", base)
    finally:
        process.terminate()
        process.wait(timeout=20)


def _wait_for(port: int, process: subprocess.Popen[str], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            out, err = process.communicate()
            raise RuntimeError(f"the console exited ({process.returncode}): {out}{err}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"the console did not listen on port {port} in {seconds} s")


@contextmanager
def headless_chromium(width: int = 1200, height: int = 900) -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(flag)
    options.add_argument(f"--window-size={width},{height}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.set_page_load_timeout(60)
    driver.implicitly_wait(10)  # an element of a page still loading is waited for
    try:
        yield driver
    finally:
        driver.quit()


def page_errors(driver: webdriver.Chrome) -> list[str]:
    """What the page's console reported as warnings or errors since the last call."""
    entries = driver.get_log("browser")  # type: ignore[no-untyped-call]
    return [str(e["message"]) for e in entries if e["level"] in ("SEVERE", "WARNING")]
