"""What the command line shows is true and readable: at 80 columns ids are whole, a shortened
id is taken when it names one record, scores say what they mean, an empty context says what
search still finds, and every user with memory is listed. In this process, through ``main``."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from eden_memory.cli.main import main

AGENT = "nova"
OLD = "2024-01-01T10:00:00+00:00"
COLOURS = ["amber", "blue", "cyan", "denim", "ebony", "fawn", "gold", "hazel", "ivory"]
ANSI = re.compile(r"\x1b\[[0-9;]*m")
Run = Callable[..., tuple[int, str, str]]


def _facts(count: int) -> list[dict[str, str]]:
    """``count`` month-old facts: two of user u-<n>, one of the agent, in turn."""
    made = []
    for n in range(count):
        fact = {"content": f"The {COLOURS[n]} teapot is on shelf {n}", "formed_at": OLD}
        fact |= {"scope": "user", "user_id": f"u-{n % 3}"} if n % 3 else {"scope": "agent"}
        made.append(fact | {"id": f"{n:02d}" + "f" * 30})
    return made


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Run:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EDEN_MEMORY_EMBEDDER", "keyword")
    monkeypatch.setenv("EDEN_MEMORY_STORE", "embedded")
    monkeypatch.setenv("EDEN_MEMORY_STORE_PATH", str(tmp_path / "memory.db"))
    monkeypatch.setenv("COLUMNS", "80")

    def go(*args: str, terminal: bool = False) -> tuple[int, str, str]:
        """The exit code, standard error and standard output (colours stripped)."""
        capsys.readouterr()
        monkeypatch.setattr(sys, "argv", ["eden-memory", *args])
        monkeypatch.setattr(sys.stdout, "isatty", lambda: terminal)
        with pytest.raises(SystemExit) as ended:
            main()
        out, err = capsys.readouterr()
        return int(ended.value.code or 0), err, ANSI.sub("", out)

    source = tmp_path / "facts.jsonl"
    source.write_text("\n".join(json.dumps(f) for f in _facts(9)) + "\n", encoding="utf-8")
    code, err, _ = go("add-facts", str(source), "-a", AGENT)
    assert code == 0, err
    return go


def _whole_ids(out: str) -> set[str]:
    return set(re.findall(r"\b\d\df{30}\b", out))


def test_fact_ids_are_whole_at_80_columns(run: Run) -> None:
    code, err, out = run("facts", "list", "-a", AGENT, terminal=True)
    assert code == 0, err
    assert max(len(line) for line in out.splitlines()) <= 80
    assert _whole_ids(out) == {f["id"] for f in _facts(9)}
    assert "…" not in out


def test_search_ids_are_whole_at_80_columns_and_the_scores_are_explained(run: Run) -> None:
    code, err, out = run("search", "blue ebony", "-a", AGENT, "-u", "u-1", terminal=True)
    assert code == 0, err
    assert max(len(line) for line in out.splitlines()) <= 80
    assert _whole_ids(out) == {"01" + "f" * 30, "04" + "f" * 30}
    said = " ".join(out.split())
    assert "relevance: 0-1, how likely the fact is about the query" in said
    assert "bm25: the keyword retriever's raw score: BM25, 0 and up, unbounded" in said
    scores = [float(line.split("│")[1]) for line in out.splitlines() if re.match(r"│ \d", line)]
    assert scores
    assert all(0.0 <= s <= 1.0 for s in scores)


def test_piped_search_keeps_its_columns_and_says_the_meanings_on_stderr(run: Run) -> None:
    code, err, out = run("search", "blue ebony", "-a", AGENT, "-u", "u-1")
    assert code == 0, err
    assert out.splitlines()[0].split("\t") == [
        "relevance",
        "cosine",
        "bm25",
        "scope",
        "id",
        "newer",
        "content",
    ]
    assert "relevance: 0-1, how likely the fact is about the query" in " ".join(err.split())
    assert "newer: a newer result about the same thing" in " ".join(err.split())


def test_a_shortened_fact_id_is_taken_when_it_names_one_fact(run: Run) -> None:
    code, err, out = run("facts", "show", "-a", AGENT, "04ff")
    assert code == 0, err
    assert json.loads(out)["id"] == "04" + "f" * 30
    code, err, out = run("facts", "history", "-a", AGENT, "04ff")
    assert "The ebony teapot is on shelf 4" in out
    code, err, out = run("facts", "delete", "-a", AGENT, "04fff", "--yes")
    assert code == 0, err
    assert out == f"deleted {'04' + 'f' * 30}\n"
    assert run("facts", "show", "-a", AGENT, "04" + "f" * 30)[0] == 1


def test_a_prefix_of_several_facts_is_refused_naming_them(run: Run) -> None:
    code, err, _ = run("facts", "show", "-a", AGENT, "0")
    assert code == 1
    assert "4 characters or more" in err
    code, err, _ = run("facts", "edit", "-a", AGENT, "000f", "x", "--expected-version", "1")
    assert code == 1  # 000f... begins no fact: 00fff... does not start with it
    assert err == "error: agent 'nova' has no fact '000f'\n"


def test_an_ambiguous_prefix_lists_the_candidates(run: Run, tmp_path: Path) -> None:
    twins = tmp_path / "twins.jsonl"
    lines = [
        json.dumps({"content": f"Twin {n}", "scope": "agent", "formed_at": OLD, "id": f"twin-{n}"})
        for n in (1, 2)
    ]
    twins.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert run("add-facts", str(twins), "-a", AGENT)[0] == 0
    code, err, _ = run("facts", "delete", "-a", AGENT, "twin", "--yes")
    assert code == 1
    assert err.startswith("error: fact id 'twin' is ambiguous")
    assert "twin-1, twin-2" in err
    assert len(err.splitlines()) == 1


def test_an_empty_context_over_older_facts_says_how_to_find_them(run: Run) -> None:
    code, err, out = run("context", "-a", AGENT, "-s", "s1", "-u", "u-1")
    assert code == 0, err
    assert out == ""  # standard output stays the API's empty context
    assert "no facts in the recent window (the newest 40, formed in the last 7 days)" in err
    assert "6 older facts are found by search: eden-memory search QUERY -a nova -u u-1" in err


def test_an_empty_context_of_an_agent_with_no_memory_names_the_agents_here(
    run: Run, tmp_path: Path
) -> None:
    code, err, out = run("context", "-a", "someone-else", "-s", "s1", "-u", "ann")
    assert (code, out) == (0, "")
    store = tmp_path / "memory.db"
    assert err == f"(agent 'someone-else' holds no memory in {store}; agents here: nova)\n"


def test_users_lists_every_user_with_facts_a_page_at_a_time(run: Run) -> None:
    code, err, out = run("users", "-a", AGENT, "--limit", "1")
    assert (code, out) == (0, "u-1\n")
    assert err == "(more: eden-memory users -a nova --after u-1)\n"
    code, err, out = run("users", "-a", AGENT, "--after", "u-1")
    assert (code, out, err) == (0, "u-2\n", "")


def test_a_reranked_search_says_who_reranked_and_gives_the_scores(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.tiny_cross_encoder import save_tiny_cross_encoder

    folder = save_tiny_cross_encoder(tmp_path / "tiny-ce")
    monkeypatch.setenv("EDEN_MEMORY_MEMORY__SEARCH__RERANK", "cross_encoder")
    monkeypatch.setenv("EDEN_MEMORY_MEMORY__SEARCH__RERANK_MODEL", str(folder))
    code, err, out = run("search", "blue ebony", "-a", AGENT, "-u", "u-1", "--debug")
    assert code == 0, err
    assert re.search(r"rerank: tiny-ce: (\d+) of \1 judged", out + err), (out, err)
    assert "Loading weights" not in err
    code, err, out = run("search", "blue ebony", "-a", AGENT, "-u", "u-1", "--json")
    assert code == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    assert records
    assert all(isinstance(r["rerank"], float) for r in records)


def test_an_abstaining_search_says_under_its_table_how_far_under_the_line(run: Run) -> None:
    code, err, out = run("search", "blue kitchen towel", "-a", AGENT, "-u", "u-1", terminal=True)
    assert code == 0, err
    under = out.split("└", 1)[1]  # beneath the empty table
    assert "(nothing relevant: best relevance 0.3333 under the line 0.5; 1 held back)" in under
    code, err, out = run("search", "blue kitchen towel", "-a", AGENT, "-u", "u-1", "--json")
    [line] = out.splitlines()
    assert json.loads(line)["empty"] == {
        "why": "under_line",
        "reason": "nothing relevant: best relevance 0.3333 under the line 0.5; 1 held back",
        "abstained": 1,
        "best_relevance": pytest.approx(1 / 3),
        "line": 0.5,
    }


def test_an_empty_search_of_an_agent_holding_nothing_says_so_apart(run: Run) -> None:
    code, err, out = run("search", "blue", "-a", "nobody")
    assert (code, out) == (0, "relevance\tcosine\tbm25\tscope\tid\tnewer\tcontent\n")
    assert "(agent 'nobody' holds no facts)\n" in err
    code, err, out = run("search", "blue", "-a", "nobody", "--json")
    assert json.loads(out)["empty"]["why"] == "no_facts"


def test_debug_json_prints_json_lines_only_with_the_hits_held_back(run: Run) -> None:
    code, err, out = run(
        "search", "blue kitchen towel", "-a", AGENT, "-u", "u-1", "--debug", "--json"
    )
    assert code == 0, err
    empty, debug = (json.loads(line) for line in out.splitlines())
    assert empty["empty"]["why"] == "under_line"
    assert debug["debug"]["line"] == 0.5
    assert [h["content"] for h in debug["debug"]["under_line"]] == ["The blue teapot is on shelf 1"]
    assert {"embed_queries", "retrieve_and_fuse"} <= set(debug["debug"]["seconds"])


def test_a_search_with_results_prints_rows_and_no_reason(run: Run) -> None:
    code, err, out = run("search", "blue", "-a", AGENT, "-u", "u-1", "--debug", "--json")
    assert code == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["content"] for r in records[:-1]] == ["The blue teapot is on shelf 1"]
    assert set(records[-1]) == {"debug"}
    assert records[-1]["debug"]["under_line"] == []
    assert (records[-1]["debug"]["judge"], records[-1]["debug"]["not_answering"]) == ("", [])
    code, err, out = run("search", "blue", "-a", AGENT, "-u", "u-1")
    assert "(nothing" not in out + err
    assert "held back" not in out + err
