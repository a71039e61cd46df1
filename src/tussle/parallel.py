"""Independent pieces of work ("chunks") run in this process, on this machine's cores, or on Ray.

``tussle match``, ``ladder`` and ``balance`` cut their games into chunks of
consecutive games and hand them to :func:`run_chunks`, which yields each chunk's
result as it comes back. A game's outcome depends only on its seed and number,
never on where it ran, so every way of running gives the same results; the
callers put the results back in order where order matters.

Three ways to run:

- ``jobs=1``: one chunk after another in this process;
- ``jobs=N``: a pool of N processes on this machine;
- ``cluster=Cluster(...)``: Ray tasks, on a local Ray started for the run or on an
  existing cluster (docs/cluster.md).

Off this process, at most :attr:`Cluster.in_flight` chunks (twice the CPUs by
default) are submitted at a time and finished ones are drained as they arrive
(``ray.wait``), so neither the object store nor the driver's memory fills up on
a long run. A worker process that dies mid-chunk has its chunk played again, up
to :data:`RETRIES` times.
"""

from __future__ import annotations

import functools
import json
import logging
import multiprocessing
import socket
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from tussle import __version__
from tussle.errors import TussleError

C = TypeVar("C")
R = TypeVar("R")

#: Games in a chunk unless told otherwise: long enough (about a tenth of a second
#: for the quickest games) that a task's overhead of a millisecond or two is lost in it.
DEFAULT_CHUNK = 100

#: Seconds between looks at the workers' ticks while their chunks are being played.
TICK_WAIT = 0.2

#: How many times a chunk is tried again after the process playing it died.
RETRIES = 3

INSTALL_HINT = "pip install 'tussle[cluster]'"

#: Seconds to wait for a cluster's head node to take a connection.
CONNECT_TIMEOUT = 10.0


class ClusterError(TussleError):
    """A cluster that cannot be used: Ray missing, unreachable, or running another tussle."""


@dataclass(frozen=True)
class Cluster:
    """Where Ray tasks run: an existing cluster's ``address``, or a local Ray (``address`` None).

    ``cpus`` sets a local Ray's CPUs (all of this machine's by default); ``runtime_env``
    is handed to ``ray.init`` to ship code and packages to the workers; ``in_flight``
    bounds the chunks submitted at once (twice the cluster's CPUs by default).

    >>> Cluster.parse("ray")
    Cluster(address=None, cpus=None, runtime_env=None, in_flight=None)
    >>> Cluster.parse("ray:10.0.0.5:6379").address
    '10.0.0.5:6379'
    >>> Cluster.parse("ray:ray://head:10001").describe()
    'the Ray cluster at ray://head:10001'
    >>> Cluster.parse("ray://head:10001").address
    'ray://head:10001'
    >>> Cluster.parse("ray", cpus=2).describe()
    'a local Ray with 2 CPUs'
    """

    address: str | None = None
    cpus: int | None = None
    runtime_env: Mapping[str, Any] | None = None
    in_flight: int | None = None

    @classmethod
    def parse(cls, text: str, *, cpus: int | None = None) -> Cluster:
        """``ray`` (a local Ray, of ``cpus`` CPUs) or ``ray:ADDRESS`` (an existing cluster).

        ADDRESS is whatever ``ray.init`` takes: ``HOST:PORT`` of the head node,
        ``ray://HOST:10001`` for Ray Client, or ``auto`` for the cluster this
        machine belongs to.
        """
        if text.strip().startswith("ray://"):
            text = "ray:" + text.strip()  # ray://HOST:10001 is Ray Client's address as it is
        kind, colon, address = text.strip().partition(":")
        if kind != "ray":
            raise ClusterError(f"unknown cluster {text!r}: give ray (a local Ray) or ray:ADDRESS")
        if colon and not address:
            raise ClusterError("ray: needs an address after the colon, such as ray:auto or ray:HOST:6379")
        if address and cpus is not None:
            raise ClusterError(
                f"--jobs sets the CPUs of a local Ray only; the Ray cluster at {address} has its own"
            )
        return cls(address=address or None, cpus=cpus)

    def describe(self) -> str:
        if self.address is not None:
            return f"the Ray cluster at {self.address}"
        return "a local Ray" + (f" with {self.cpus} CPUs" if self.cpus else "")


def chunked(items: Sequence[C], size: int) -> list[list[C]]:
    """``items`` cut into consecutive lists of ``size`` (the last may be shorter).

    >>> chunked([1, 2, 3, 4, 5], 2)
    [[1, 2], [3, 4], [5]]
    """
    if size < 1:
        raise TussleError(f"a chunk must hold at least one game, not {size}")
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def run_chunks(
    work: Callable[[C], R],
    chunks: Sequence[C],
    *,
    jobs: int = 1,
    cluster: Cluster | None = None,
    on_tick: Callable[[int], None] | None = None,
) -> Iterator[tuple[int, R]]:
    """``work(chunk)`` for every chunk, yielded as ``(index, result)`` in the order they finish.

    ``work`` must be a module-level function (other processes import it by name)
    and the chunks and results must pickle. An error ``work`` raises comes back
    here as itself (a :class:`TussleError` stays one line). Closing the iterator
    early cancels what is still running.

    ``on_tick(index)`` is called here each time ``work``, playing chunk ``index``,
    calls :func:`tick` (after each game, say), in this process, a pool's or a Ray
    worker's. A Ray task sends its ticks to a small actor at most every
    :data:`TICK_WAIT` seconds, so they arrive in bursts, and the last ones of a chunk
    may come after its result or not at all: a caller counts what a chunk's result
    holds, and ignores a tick of a chunk it already has.

    >>> sorted(run_chunks(sum, [[1, 2], [3]]))
    [(0, 3), (1, 3)]
    """
    if cluster is not None:
        yield from _ray_chunks(work, chunks, cluster, on_tick)
    elif jobs <= 1 or len(chunks) <= 1:
        for i, chunk in enumerate(chunks):
            if on_tick is not None:
                _TICKS["to"] = functools.partial(on_tick, i)
            try:
                result = work(chunk)
            finally:
                _TICKS["to"] = None
            yield i, result
    else:
        yield from _pool_chunks(work, chunks, jobs, on_tick)


#: Where :func:`tick` reports ("to": a function in the driver's process, a queue in a pool's
#: worker, or None) and the chunk a pool's worker is playing ("chunk").
_TICKS: dict[str, Any] = {"to": None, "chunk": -1}


def tick() -> None:
    """Report one piece of the chunk being worked on as done (to ``run_chunks``' ``on_tick``)."""
    to = _TICKS["to"]
    if to is None:
        return
    if callable(to):
        to()
    else:
        to.put(_TICKS["chunk"])


def _init_worker(queue: Any) -> None:
    _TICKS["to"] = queue


def _work_on(work: Callable[[C], R], index: int, chunk: C) -> R:
    _TICKS["chunk"] = index
    return work(chunk)


#: The file in an output folder that names the run whose results it holds.
RUN_FILE = ".tussle-run.json"


def claim_folder(folder: Path, identity: Mapping[str, Any], role: str) -> bool:
    """Make ``folder`` the home of the run that ``identity`` describes; True if it already was.

    A run whose folder already names it (it was stopped) takes what is there rather
    than playing it again. A folder that names another run is refused in one line,
    so that results of different runs never mix; a folder that names none (made by
    hand, or by an older tussle) is taken over and what is in it played again.
    """
    want = json.loads(json.dumps({"version": __version__, **identity}))
    path = folder / RUN_FILE
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            path.write_text(json.dumps(want, indent=1) + "\n", encoding="utf-8")
            return False
        held = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise TussleError(f"cannot use {folder} as the {role}: {exc.strerror}") from None
    except ValueError:
        held = None
    if held == want:
        return True
    detail = ""
    if isinstance(held, dict):
        differs = next((k for k in want if held.get(k) != want[k]), None)
        if differs is not None:
            detail = f" (its {differs} is {held.get(differs)!r}, this run's {want[differs]!r})"
    raise TussleError(f"{folder} holds the results of another run{detail}; give another {role}, or empty it")


# --- this machine's cores -------------------------------------------------------------------


def _pool_chunks(
    work: Callable[[C], R], chunks: Sequence[C], jobs: int, on_tick: Callable[[int], None] | None = None
) -> Iterator[tuple[int, R]]:
    todo = deque(range(len(chunks)))
    deaths = 0
    # The workers' ticks come back on a queue the pool's processes are given as they start.
    queue = multiprocessing.get_context().SimpleQueue() if on_tick is not None else None

    def drain() -> None:
        while queue is not None and on_tick is not None and not queue.empty():
            on_tick(queue.get())

    while todo:
        pool = ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=(queue,))
        pending: dict[Future[R], int] = {}
        try:
            while todo or pending:
                while todo and len(pending) < 2 * jobs:
                    i = todo.popleft()
                    pending[pool.submit(_work_on, work, i, chunks[i])] = i
                done: set[Future[R]] = set()
                while not done:
                    done, _ = wait(pending, timeout=TICK_WAIT if queue else None, return_when=FIRST_COMPLETED)
                    drain()
                for future in sorted(done, key=pending.__getitem__):
                    result = future.result()  # a dead worker raises BrokenProcessPool here
                    yield pending.pop(future), result
        except BrokenProcessPool:
            # A worker died (killed, or out of memory): the pool is unusable, so every
            # chunk not yet yielded is played again in a fresh one.
            deaths += 1
            if deaths > RETRIES:
                raise ClusterError(
                    f"worker processes died {deaths} times; the last time while playing chunk "
                    f"{min(pending.values()) + 1} of {len(chunks)}"
                ) from None
            todo.extendleft(sorted(pending.values(), reverse=True))
        finally:
            pool.shutdown(wait=False, cancel_futures=True)


# --- Ray ------------------------------------------------------------------------------------


def ray_module() -> Any:
    """The ``ray`` module, or a one-line :class:`ClusterError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ClusterError(f"--cluster ray needs Ray, which is not installed: {INSTALL_HINT}") from None
    return ray


def _about() -> tuple[str, str]:
    """What a worker runs: tussle's version and Python's (the driver compares them with its own)."""
    from tussle import __version__

    return __version__, f"{sys.version_info[0]}.{sys.version_info[1]}"


@contextmanager
def connected(cluster: Cluster) -> Iterator[Any]:
    """The ``ray`` module, connected to ``cluster`` for the block (or as it already was).

    A local Ray is started and stopped with the block; an existing cluster is joined
    and left. If this process is already connected (``ray.init`` done by the
    caller), that connection is used and kept.
    """
    ray = ray_module()
    if ray.is_initialized():
        yield ray
        return
    if cluster.address is not None:
        _check_reachable(cluster)
    # Only a Ray started here takes its CPUs; "local" starts a new one even where
    # RAY_ADDRESS or a running Ray is about.
    local: dict[str, Any] = {"num_cpus": cluster.cpus, "include_dashboard": False}
    try:
        ray.init(
            address=cluster.address or "local",
            runtime_env=dict(cluster.runtime_env) if cluster.runtime_env else None,
            logging_level=logging.ERROR,
            log_to_driver=False,
            **(local if cluster.address is None else {}),
        )
    except ConnectionError:
        if cluster.address != "auto":
            raise ClusterError(
                f"cannot connect to {cluster.describe()}; a cluster with token authentication "
                "also needs RAY_AUTH_MODE=token and its token here (docs/cluster.md)"
            ) from None
        raise ClusterError(
            "ray:auto found no Ray running here: start one (ray start --head), set RAY_ADDRESS, "
            "or give the cluster's address"
        ) from None
    except Exception as exc:  # Ray raises many kinds; any of them means no cluster for this run
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ClusterError(f"cannot start or reach {cluster.describe()}: {first}") from None
    try:
        if cluster.address is not None:
            _check_workers(ray, cluster)
        yield ray
    finally:
        ray.shutdown()


def _check_reachable(cluster: Cluster) -> None:
    """Fail at once, in one line, on a head node nothing answers at (Ray itself retries for minutes)."""
    address = cluster.address or ""
    where = address.removeprefix("ray://")
    host, colon, port = where.rpartition(":")
    if not colon or not port.isdigit():
        return  # 'auto', or an address Ray resolves itself
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT).close()
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise ClusterError(f"cannot reach {cluster.describe()}: {reason}") from None


def _check_workers(ray: Any, cluster: Cluster) -> None:
    """Refuse a cluster whose workers cannot import tussle, or run another version of it or of Python."""
    try:
        theirs = ray.get(ray.remote(_about).remote())
    except Exception as exc:
        raise ClusterError(
            f"the workers of {cluster.describe()} cannot run tussle ({type(exc).__name__}); "
            "install it there or ship it with a runtime environment (docs/cluster.md)"
        ) from None
    if tuple(theirs) != _about():
        raise ClusterError(
            f"the workers of {cluster.describe()} run tussle {theirs[0]} on Python {theirs[1]}, this "
            f"driver tussle {_about()[0]} on Python {_about()[1]}: games could differ; "
            "give them the same (docs/cluster.md)"
        )


class _Ticks:
    """A Ray actor that counts the ticks of each chunk until the driver takes them."""

    def __init__(self) -> None:
        self.done: dict[int, int] = {}

    def add(self, index: int, count: int) -> None:
        self.done[index] = self.done.get(index, 0) + count

    def take(self) -> dict[int, int]:
        done, self.done = self.done, {}
        return done


class _RayTicker:
    """:func:`tick` in a Ray task: counts, and sends the count to the actor at most every TICK_WAIT
    seconds (a message a game would cost the quickest games more than their play)."""

    def __init__(self, actor: Any, index: int) -> None:
        self.actor, self.index = actor, index
        self.count, self.sent = 0, time.monotonic()

    def __call__(self) -> None:
        self.count += 1
        now = time.monotonic()
        if now - self.sent >= TICK_WAIT:
            self.actor.add.remote(self.index, self.count)  # not awaited: the chunk plays on
            self.count, self.sent = 0, now


def _ray_work_on(work: Callable[[C], R], index: int, chunk: C, ticks: Any) -> R:
    _TICKS["to"] = _RayTicker(ticks, index)
    try:
        return work(chunk)
    finally:
        _TICKS["to"] = None  # the worker process plays other tasks next


def _ray_chunks(
    work: Callable[[C], R],
    chunks: Sequence[C],
    cluster: Cluster,
    on_tick: Callable[[int], None] | None = None,
) -> Iterator[tuple[int, R]]:
    with connected(cluster) as ray:
        # Named as the work is (its workers show as ray::NAME), with the tick actor when ticks are asked.
        name = getattr(work, "__name__", "work")
        ticks = ray.remote(num_cpus=0)(_Ticks).remote() if on_tick is not None else None
        task = ray.remote(max_retries=RETRIES)(_ray_work_on if ticks is not None else work).options(name=name)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        in_flight = cluster.in_flight or max(4, 2 * cpus)
        pending: dict[Any, int] = {}
        todo = deque(range(len(chunks)))
        looked = time.monotonic()
        try:
            while todo or pending:
                while todo and len(pending) < in_flight:  # fill up to the bound
                    i = todo.popleft()
                    args = (work, i, chunks[i], ticks) if ticks is not None else (chunks[i],)
                    pending[task.remote(*args)] = i
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=TICK_WAIT if ticks else None)
                if ticks is not None and on_tick is not None and time.monotonic() - looked >= TICK_WAIT:
                    looked = time.monotonic()
                    for index, count in ray.get(ticks.take.remote()).items():
                        for _ in range(count):
                            on_tick(index)
                if ready:
                    i = pending.pop(ready[0])
                    yield i, _ray_result(ray, ready[0], i, len(chunks))
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)


def _ray_result(ray: Any, ref: Any, index: int, total: int) -> Any:
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        # The task's own error (a bad agent spec, say) is raised as itself.
        cause = getattr(exc, "cause", None)
        if isinstance(cause, BaseException):
            raise cause from None
        raise
    except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError) as exc:
        raise ClusterError(
            f"chunk {index + 1} of {total} failed {RETRIES + 1} times: {type(exc).__name__}"
        ) from None
