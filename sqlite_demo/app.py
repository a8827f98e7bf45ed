"""The app ``serve`` runs: the agent's HTTP API (:mod:`sqlite_demo.service`) with the live
page and its event stream (:mod:`sqlite_demo.live`) on top.

The two packages meet here and nowhere else: the live page uses the API's error shape and
paging, and the API knows nothing of the page, so neither imports the other both ways.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI

from sqlite_demo.live.page import create_live_router
from sqlite_demo.service.access import AccessPolicy
from sqlite_demo.service.app import create_api
from sqlite_demo.service.model import Model, scripted_model
from sqlite_demo.store.sqlite.connection import Synchronous


def create_app(
    db: str | Path,
    synchronous: Synchronous = "NORMAL",
    model: Model = scripted_model,
    access: AccessPolicy | None = None,
) -> FastAPI:
    """Build the whole service: the API, then the page at ``/`` and the event stream.

    The arguments are :func:`~sqlite_demo.service.app.create_api`'s.
    """
    app = create_api(db, synchronous=synchronous, model=model, access=access)
    app.include_router(create_live_router())
    return app
