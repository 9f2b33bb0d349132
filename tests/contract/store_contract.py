"""The store contract: what every store adapter must do, tested through the ports.

To run it against an adapter, subclass ``StoreContract`` in a ``test_*.py`` module and
provide one fixture, ``make_stores``: a factory returning a new, empty store (a ``Stores``)
on every call, cleaning up after the test (the property tests call it once per generated
example). Each concern's tests take the fields of that ``Stores`` they use::

    class TestSqliteStores(StoreContract):
        @pytest.fixture
        async def make_stores(self, tmp_path: Path) -> AsyncIterator[StoreFactory]:
            opened: list[Stores] = []

            async def make() -> Stores:
                opened.append(await open_sqlite(tmp_path / f"{len(opened)}.db"))
                return opened[-1]

            yield make
            for stores in opened:
                await stores.close()

Vectors have ``embedding_dimension`` (8) components unless the subclass sets another value.
"""

from tests.contract.store.claim_retries import ClaimRetryContract
from tests.contract.store.claims import ClaimContract
from tests.contract.store.contexts import ContextContract
from tests.contract.store.fact_changes import FactChangeContract
from tests.contract.store.facts import FactContract
from tests.contract.store.keyword_changes import KeywordChangeContract
from tests.contract.store.owners import OwnerContract
from tests.contract.store.presence import PresenceContract
from tests.contract.store.reflections import ConsolidationContract, ReflectionContract
from tests.contract.store.revisions import RevisionContract
from tests.contract.store.search import SearchContract
from tests.contract.store.sessions import SessionContract
from tests.contract.store.supersession import SupersessionContract
from tests.contract.store.visibility import VisibilityContract
from tests.contract.store.world import StoreFactory, StoreFixtures


class StoreContract(
    FactContract,
    FactChangeContract,
    SupersessionContract,
    KeywordChangeContract,
    OwnerContract,
    SearchContract,
    ReflectionContract,
    ConsolidationContract,
    SessionContract,
    PresenceContract,
    ClaimContract,
    ClaimRetryContract,
    RevisionContract,
    VisibilityContract,
    ContextContract,
):
    """Every store test; the subclass supplies ``make_store``."""


__all__ = ["StoreContract", "StoreFactory", "StoreFixtures"]
