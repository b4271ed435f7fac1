"""Fixtures of the server tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture
def client() -> Iterator[Any]:
    """A test client of a server on an in-memory database (a test file that needs other
    server settings defines its own ``client``)."""
    pytest.importorskip("starlette")
    from daguai.server import create_app
    from starlette.testclient import TestClient

    with TestClient(create_app(":memory:")) as c:
        yield c
