"""A task every replica runs beside the requests, for as long as the process lives."""

import asyncio


class Background:
    """start() on the application's start-up runs `_run` (a loop of the subclass's own)
    as a task of the event loop; stop() on shutdown cancels it."""

    _task: asyncio.Task | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        raise NotImplementedError
