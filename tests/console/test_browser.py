"""A real browser, as a person uses the console: open, search, edit a fact, reload, see it kept.

Debian's chromium and chromium-driver run headless (``.ci/run`` installs them); the test
fails on any error or warning the pages write to the browser's console.
"""

from __future__ import annotations

from pathlib import Path

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.expected_conditions import staleness_of
from selenium.webdriver.support.wait import WebDriverWait

from tests.console.live import headless_chromium, page_errors, running_console, seed_store


def _follow(driver: WebDriver, by: str, what: str) -> None:
    """Click, and wait until the browser has left the page and loaded the next one.

    A click does not wait for the navigation. While the old document is being torn down,
    chromedriver may answer a probe of its element with a generic inspector error
    ("Node with given id does not belong to the document") instead of a stale-element one,
    so those are polled through rather than failing the test.
    """
    page = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(by, what).click()
    wait = WebDriverWait(driver, 60, ignored_exceptions=(WebDriverException,))
    wait.until(staleness_of(page))
    wait.until(lambda d: d.execute_script("return document.readyState") == "complete")


def _clean(driver: WebDriver, where: str) -> None:
    assert page_errors(driver) == [], f"the page logged errors at {where}"  # type: ignore[arg-type]


def test_search_edit_reload_and_see_the_edit_kept(tmp_path: Path) -> None:
    store = tmp_path / "memory.db"
    seed_store(store)
    with running_console(store) as console, headless_chromium() as driver:
        driver.get(console.url)
        assert driver.current_url == f"{console.base}/"  # the token left the address bar
        _follow(driver, By.LINK_TEXT, "nova")
        assert "Nova is an operations assistant" in driver.page_source
        _clean(driver, "the agent page")

        _follow(driver, By.LINK_TEXT, "Search")
        driver.find_element(By.ID, "q").send_keys("Alice email")
        driver.find_element(By.NAME, "user").send_keys("alice")
        _follow(driver, By.CSS_SELECTOR, "#search-form button")
        results = driver.find_element(By.ID, "results").text
        assert "Alice's email is alice@example.com" in results
        _clean(driver, "the search page")

        _follow(driver, By.PARTIAL_LINK_TEXT, "Alice's email is")
        box = driver.find_element(By.CSS_SELECTOR, "#edit-fact textarea")
        box.clear()
        box.send_keys("Alice's email is alice@porto.example")
        _follow(driver, By.ID, "save-fact")
        assert "edited and re-embedded" in driver.page_source

        driver.refresh()
        content = driver.find_element(By.ID, "fact-content").text
        assert content == "Alice's email is alice@porto.example"
        history = driver.find_element(By.CSS_SELECTOR, "ol.history").text
        assert "alice@example.com" in history
        _clean(driver, "the fact page")

        driver.get(f"{console.base}/fact?agent=nova&id=f-markup")
        shown = driver.find_element(By.ID, "fact-content").text
        assert "<script>alert('pwned')</script>" in shown  # as text: no script ran
        _clean(driver, "the fact with markup")
