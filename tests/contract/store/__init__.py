"""The store contract, cut by concern; ``tests.contract.store_contract`` assembles it."""
