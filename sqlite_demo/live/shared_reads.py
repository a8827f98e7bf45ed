"""One read for every stream that asks for the same page at the same moment.

Every stream of a session wakes on the same append and asks for the same page: the events
after the same id. The first to ask reads (and encodes) it; the others, asking while that
read is under way, await the same result. A stream joins only a read that began once the
append it woke for was announced, that is, at its ``version`` of the append signal or
later (see :mod:`sqlite_demo.store.append_signal`), so it never gets a page older than what woke it.

Only reads under way are shared, never finished ones: a finished page may have grown since.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


class SharedReads(Generic[T]):
    """The reads under way on one event loop, by what they read (their key)."""

    def __init__(self) -> None:
        self._under_way: dict[Hashable, tuple[int, asyncio.Future[T]]] = {}

    async def get(
        self, key: Hashable, version: int, version_now: int, read: Callable[[], Awaitable[T]]
    ) -> T:
        """Return what ``read()`` returns for ``key``, from a read begun at ``version`` or later.

        Args:
            key: what is read (a session, a position, a page size).
            version: the oldest version of the append signal the read may have begun at.
            version_now: the signal's version now, recorded with a read begun here.
            read: does the read, when no read under way will do.
        """
        under_way = self._under_way.get(key)
        if under_way is not None and under_way[0] >= version:
            try:
                return await asyncio.shield(under_way[1])
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise
                # The stream that was reading went away mid-read: read for ourselves.
        return await self._lead(key, version_now, read)

    async def _lead(self, key: Hashable, version_now: int, read: Callable[[], Awaitable[T]]) -> T:
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._under_way[key] = (version_now, future)
        try:
            result = await read()
        except asyncio.CancelledError:
            future.cancel()
            raise
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: a read that nobody joined logs no warning
            raise
        else:
            future.set_result(result)
            return result
        finally:
            entry = self._under_way.get(key)
            if entry is not None and entry[1] is future:
                del self._under_way[key]
