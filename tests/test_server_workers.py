"""The server's worker pool: every job under a wall-clock cap, a dead or late worker replaced, none outliving
its server.

The job functions are this module's top-level functions: a spawned worker imports them by name.
"""

from __future__ import annotations

import asyncio
import os
import pickle
import select
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from tussle.server.workers import PoolClosed, WorkerDied, WorkerError, WorkerPool, WorkerTimeout

# -- jobs, run in the workers -------------------------------------------------------------------


def double(n: int) -> int:
    return 2 * n


def whoami(_: object) -> int:
    return os.getpid()


def sleep_then(job: tuple[float, Any]) -> Any:
    seconds, answer = job
    time.sleep(seconds)
    return answer


def stubborn(_: object) -> None:
    """A job that ignores SIGTERM: only SIGKILL ends its worker."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    time.sleep(3600)


def refuse(message: str) -> None:
    raise ValueError(message)


class OddError(Exception):
    """Pickles, but cannot be rebuilt from its args: it must come back as a WorkerError."""

    def __init__(self, a: str, b: str) -> None:
        super().__init__(f"odd {a} {b}")


def refuse_oddly(_: object) -> None:
    raise OddError("one", "two")


def answer_a_lock(_: object) -> object:
    return threading.Lock()


# -- helpers ------------------------------------------------------------------------------------


async def until(condition: Callable[[], bool], within: float = 10.0) -> None:
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, "not within the time allowed"
        await asyncio.sleep(0.01)


async def ready(pool: WorkerPool) -> None:
    pool.start()
    await until(lambda: pool.alive() == pool.size)


def gone(pid: int) -> bool:
    """Whether a process has ended: no such process, or a zombie nobody has reaped yet."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            # The state follows the command's closing parenthesis.
            return stat.read().rpartition(")")[2].split()[0] == "Z"
    except FileNotFoundError:
        return True
    except OSError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def eventually_gone(pids: list[int], within: float = 5.0) -> None:
    deadline = time.monotonic() + within
    while not all(gone(pid) for pid in pids):
        assert time.monotonic() < deadline, f"still running: {[p for p in pids if not gone(p)]}"
        time.sleep(0.02)


# -- tests --------------------------------------------------------------------------------------


def test_a_job_answers_and_jobs_wait_their_turn() -> None:
    async def main() -> None:
        pool = WorkerPool(1)
        try:
            assert await pool.run(double, 21, timeout=10) == 42
            assert pool.alive() == 1
            assert pool.busy() == 0
            assert pool.queued() == 0
            finished: list[int] = []

            def on_done(n: int) -> Callable[[object], None]:
                return lambda _: finished.append(n)

            tasks = []
            for n in range(5):
                task = asyncio.ensure_future(pool.run(double, n, timeout=10))
                task.add_done_callback(on_done(n))
                tasks.append(task)
            await asyncio.sleep(0)
            assert pool.queued() == 4
            assert pool.busy() == 1
            assert await asyncio.gather(*tasks) == [0, 2, 4, 6, 8]
            assert finished == [0, 1, 2, 3, 4]
        finally:
            pool.close()

    asyncio.run(main())


def test_many_jobs_on_two_workers_all_answer() -> None:
    async def main() -> None:
        pool = WorkerPool(2)
        try:
            await ready(pool)
            answers = await asyncio.gather(*(pool.run(double, n, timeout=10) for n in range(40)))
            assert answers == [2 * n for n in range(40)]
            pids = await asyncio.gather(*(pool.run(whoami, None, timeout=10) for _ in range(8)))
            assert set(pids) == set(pool.pids())
            assert len(set(pids)) == 2
            assert (pool.alive(), pool.busy(), pool.queued()) == (2, 0, 0)
        finally:
            pool.close()

    asyncio.run(main())


def test_a_late_job_has_its_worker_replaced_while_the_other_keeps_serving() -> None:
    async def main() -> None:
        pool = WorkerPool(2)
        try:
            await ready(pool)
            first = set(pool.pids())
            began = time.monotonic()
            slow = asyncio.ensure_future(pool.run(sleep_then, (60, "late"), timeout=1.0))
            await until(lambda: pool.busy() == 1)
            fast_pids: set[int] = set()
            slowest = 0.0
            while not slow.done():
                asked = time.monotonic()
                fast_pids.add(await pool.run(whoami, None, timeout=5))
                slowest = max(slowest, time.monotonic() - asked)
                await asyncio.sleep(0.01)
            with pytest.raises(WorkerTimeout, match="within 1 s"):
                await slow
            assert 0.9 < time.monotonic() - began < 3
            # The slow job never delayed a fast one: those all ran on the other worker, at once.
            assert slowest < 0.8
            assert len(fast_pids) == 1
            (late_pid,) = first - fast_pids
            assert late_pid not in pool.pids()
            eventually_gone([late_pid])
            assert await pool.run(double, 4, timeout=5) == 8
            await until(lambda: pool.alive() == 2)
            assert late_pid not in pool.pids()
            both = await asyncio.gather(*(pool.run(sleep_then, (0.2, None), timeout=5) for _ in range(2)))
            assert both == [None, None]
        finally:
            pool.close()

    asyncio.run(main())


def test_a_worker_killed_from_outside_gives_worker_died_and_is_replaced() -> None:
    async def main() -> None:
        pool = WorkerPool(1)
        try:
            await ready(pool)
            task = asyncio.ensure_future(pool.run(sleep_then, (60, None), timeout=30))
            await until(lambda: pool.busy() == 1)
            (pid,) = pool.pids()
            os.kill(pid, signal.SIGKILL)
            with pytest.raises(WorkerDied, match="SIGKILL"):
                await task
            assert await pool.run(double, 5, timeout=10) == 10
            assert pool.alive() == 1
            assert pid not in pool.pids()
            # An idle worker killed is replaced too.
            (idle,) = pool.pids()
            os.kill(idle, signal.SIGKILL)
            await until(lambda: idle not in pool.pids() and pool.alive() == 1)
            assert await pool.run(double, 6, timeout=10) == 12
        finally:
            pool.close()

    asyncio.run(main())


def test_a_worker_that_dies_before_it_is_up_is_started_again() -> None:
    async def main() -> None:
        pool = WorkerPool(1)
        try:
            pool.start()
            (pid,) = pool.pids()
            os.kill(pid, signal.SIGKILL)
            assert await pool.run(double, 2, timeout=10) == 4
            assert pid not in pool.pids()
            assert pool.alive() == 1
        finally:
            pool.close()

    asyncio.run(main())


def test_an_exception_in_the_job_comes_back() -> None:
    async def main() -> None:
        pool = WorkerPool(1)
        try:
            with pytest.raises(ValueError, match="no such move") as raised:
                await pool.run(refuse, "no such move", timeout=10)
            assert any("Raised in a worker process" in note for note in raised.value.__notes__)
            with pytest.raises(WorkerError, match="OddError: odd one two"):
                await pool.run(refuse_oddly, None, timeout=10)
            with pytest.raises(WorkerError, match="answer could not be sent back"):
                await pool.run(answer_a_lock, None, timeout=10)
            # A job that cannot be sent fails at once, in its caller.
            with pytest.raises((pickle.PicklingError, AttributeError)):
                await pool.run(lambda n: n, 1, timeout=10)
            # None of that cost a worker.
            (pid,) = pool.pids()
            assert await pool.run(whoami, None, timeout=10) == pid
        finally:
            pool.close()

    asyncio.run(main())


def test_cancelling_a_run_frees_its_worker_or_its_place_in_the_queue() -> None:
    async def main() -> None:
        pool = WorkerPool(1)
        try:
            await ready(pool)
            running = asyncio.ensure_future(pool.run(sleep_then, (60, None), timeout=30))
            await until(lambda: pool.busy() == 1)
            (pid,) = pool.pids()
            waiting = asyncio.ensure_future(pool.run(double, 1, timeout=30))
            await until(lambda: pool.queued() == 1)
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
            assert pool.queued() == 0
            running.cancel()
            with pytest.raises(asyncio.CancelledError):
                await running
            asked = time.monotonic()
            assert await pool.run(double, 3, timeout=10) == 6
            assert time.monotonic() - asked < 5
            assert pid not in pool.pids()
            eventually_gone([pid])
            # wait_for cancels the same way.
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(pool.run(sleep_then, (60, None), timeout=30), 0.3)
            assert await pool.run(double, 4, timeout=10) == 8
        finally:
            pool.close()

    asyncio.run(main())


def test_close_ends_every_worker_at_once_even_mid_job() -> None:
    async def main() -> None:
        pool = WorkerPool(2)
        await ready(pool)
        tasks = [
            asyncio.ensure_future(pool.run(stubborn, None, timeout=7200)),
            asyncio.ensure_future(pool.run(sleep_then, (3600, None), timeout=7200)),
            asyncio.ensure_future(pool.run(sleep_then, (3600, None), timeout=7200)),
        ]
        await until(lambda: pool.busy() == 2 and pool.queued() == 1)
        # Time for the stubborn job to turn SIGTERM away, so that close() has to kill.
        await asyncio.sleep(0.3)
        pids = pool.pids()
        began = time.monotonic()
        pool.close()
        assert time.monotonic() - began < 1.5
        eventually_gone(pids, within=0.5)
        for task in tasks:
            with pytest.raises(PoolClosed):
                await task
        assert (pool.alive(), pool.busy(), pool.queued()) == (0, 0, 0)
        pool.close()
        with pytest.raises(PoolClosed):
            await pool.run(double, 1, timeout=1)

    asyncio.run(main())


PROGRAM = textwrap.dedent(
    """
    import asyncio, time
    from tussle.server.workers import WorkerPool

    async def main():
        pool = WorkerPool(2)
        pool.start()
        while pool.alive() < 2:
            await asyncio.sleep(0.01)
        job = asyncio.ensure_future(pool.run(time.sleep, 600, timeout=1200))
        while pool.busy() < 1:
            await asyncio.sleep(0.01)
        print(*pool.pids(), flush=True)
        await job

    asyncio.run(main())
    """
)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="SIGKILL is a POSIX signal")
def test_workers_die_with_a_server_killed_outright() -> None:
    with subprocess.Popen([sys.executable, "-c", PROGRAM], stdout=subprocess.PIPE, text=True) as program:
        try:
            assert program.stdout is not None
            readable, _, _ = select.select([program.stdout], [], [], 20)
            assert readable, "the program did not start its workers"
            pids = [int(pid) for pid in program.stdout.readline().split()]
            assert len(pids) == 2
            assert not any(gone(pid) for pid in pids)
        finally:
            program.kill()
    eventually_gone(pids, within=5)
