"""Frameworks deep-copy agents, tools and requests that hold the memory service: every copy
must reach the same memory (a copied store would split what is remembered), and copying must
not fail on the service's connections or its usage meter's context variable."""

from __future__ import annotations

import copy

from tests.application.story import make_world


def test_a_deep_copy_of_the_service_or_of_what_holds_it_is_the_same_service() -> None:
    memory = make_world().memory
    holder = {"tools": [{"memory": memory}]}

    assert copy.deepcopy(memory) is memory
    assert copy.deepcopy(holder)["tools"][0]["memory"] is memory
