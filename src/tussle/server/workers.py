"""A pool of worker processes in which every job has a wall-clock cap: the computer seats' moves.

Why not :class:`concurrent.futures.ProcessPoolExecutor`: a job there runs until it
answers, however long it takes, and the pool cannot be made to give up on one.
Seen with the server:

- a computer seat asked for ``mcts:time=3600`` holds a worker for an hour, and
  once every worker holds such a move, no other game's computer seat moves;
- one worker killed from outside (the OOM killer) breaks the whole executor
  (``BrokenProcessPool``): no computer seat moves again until a restart;
- worker processes outlive a server killed with SIGKILL, indefinitely;
- SIGTERM hangs while a long move runs, since shutting the executor down
  waits for its jobs.

How: :class:`WorkerPool` keeps ``size`` processes, each its own slot with its own
pipe, so that exactly the worker that is late can be killed (SIGKILL) and
replaced while the others go on serving. A job waits in a FIFO queue for a free
worker; its cap counts from the moment a worker takes it. A worker that dies
(killed, crashed) is replaced and its job fails with :class:`WorkerDied`; a job
whose caller stops waiting (its task cancelled) has its worker killed and
replaced, since its answer is no longer wanted. :meth:`WorkerPool.close` ends
every worker within about a second, whatever they are doing.

Workers start with the ``spawn`` method, never ``fork``: a forked worker would
inherit the server's listening socket and every other descriptor. Starting one
takes about a millisecond of the caller's time (the new interpreter comes up on
its own, ~0.1-0.3 s, while jobs wait in the queue), so a worker is started
directly on the event loop's thread. That is deliberate, see below.

Workers die with their server. On Linux each asks the kernel to SIGKILL it
when its parent dies (``prctl(PR_SET_PDEATHSIG)``), which also covers a server
killed by SIGKILL, where no code of its own runs. The kernel's "parent" there
is the *thread* that started the worker, not the process: a worker started
from a short-lived thread (a thread pool's, say) would be killed when that
thread ends. So the pool starts every worker from the thread that runs its
event loop, which lives as long as the pool (in ``tussle serve``, the main
thread): a worker is only ever started by :meth:`WorkerPool.start`,
:meth:`WorkerPool.run` or a callback of that loop. As a second guard, for
other systems and for a parent that died before the request was made, a daemon
thread in each worker ends it once its parent process id changes.

Each worker's answers are read by a thread of the server's (one per worker,
blocked in ``recv``), which hands them to the event loop: the loop never blocks
on a pipe, and a large answer arriving in pieces holds no one up. That thread
also reaps its worker once the pipe closes, so that the exit status is known
when a death is reported.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import ctypes
import logging
import math
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, Generic, TypeVar

from tussle.errors import TussleError

log = logging.getLogger("tussle.server")

J = TypeVar("J")
R = TypeVar("R")

#: How long :meth:`WorkerPool.close` waits for terminated workers before it kills them.
CLOSE_GRACE = 0.5
#: How often a worker checks that its parent is still the process that started it.
PARENT_CHECK_INTERVAL = 0.5
#: The longest wait before starting a worker again after workers kept dying before they were up.
MAX_RESTART_DELAY = 30.0

_PR_SET_PDEATHSIG = 1


class WorkerError(TussleError):
    """A job that did not answer: its worker failed, or the exception it raised could not come back."""


class WorkerTimeout(WorkerError):  # noqa: N818 (each is named for what happened to the job)
    """A job did not answer within its cap: its worker was killed and replaced."""


class WorkerDied(WorkerError):  # noqa: N818
    """A worker process died while running the job (killed, crashed, out of memory); it was replaced.

    The job itself may be fine: asking again runs it on a fresh worker.
    """


class PoolClosed(WorkerError):  # noqa: N818
    """The pool was closed before the job answered, or a job was asked of a closed pool."""


# ---------------------------------------------------------------------------------------------
# The worker's side.


def _die_with_parent(parent_pid: int) -> None:
    """Ask to be killed when the server dies, by the kernel where it can and by a watching thread."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            # Without it the thread below still ends the worker, only a little later.
            pass
    # The parent may have died before the request above took effect: nothing would then fire.
    if os.getppid() != parent_pid:
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(PARENT_CHECK_INTERVAL)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _summary(exc: BaseException) -> str:
    """An exception as one line: its type and the first line of its message."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def _exception_reply(exc: BaseException) -> tuple[str, bytes | None, str, str]:
    blob: bytes | None
    try:
        blob = pickle.dumps(exc)
        # Many exceptions pickle but cannot be rebuilt (an __init__ with other arguments): try it here.
        pickle.loads(blob)
    except Exception:
        blob = None
    return ("raised", blob, _summary(exc), traceback.format_exc())


def _worker_main(conn: Connection, parent_pid: int) -> None:
    """A worker's life: run each job it is sent and send back its answer, until its pipe closes."""
    _die_with_parent(parent_pid)
    # Ctrl-C in a terminal reaches the whole process group: the server decides when its workers end.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    conn.send_bytes(pickle.dumps(("ready",)))
    while True:
        try:
            request = conn.recv_bytes()
        except (EOFError, OSError):
            return
        reply: tuple[Any, ...]
        try:
            fn, job = pickle.loads(request)
            answer = fn(job)
        except Exception as exc:
            reply = _exception_reply(exc)
        else:
            # Pickled on its own, so that the server can tell an answer it cannot read from a bad message.
            try:
                reply = ("ok", pickle.dumps(answer))
            except Exception as exc:
                reply = ("raised", None, f"the job's answer could not be sent back: {_summary(exc)}", "")
        try:
            conn.send_bytes(pickle.dumps(reply))
        except (EOFError, OSError):
            return


# ---------------------------------------------------------------------------------------------
# The server's side.


class _State(Enum):
    STARTING = "starting"
    IDLE = "idle"
    BUSY = "busy"


@dataclass(eq=False)
class _Entry(Generic[R]):
    """One job asked of the pool: what to send, its cap, and the future its caller awaits."""

    payload: bytes
    timeout: float
    future: asyncio.Future[R]
    worker: _Worker | None = None


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    conn: Connection
    state: _State = _State.STARTING
    job: _Entry[Any] | None = None
    timer: asyncio.TimerHandle | None = None
    #: Set once the pool has given up on this worker (killed it, or seen it die): its messages are ignored.
    retired: bool = False
    reader: threading.Thread | None = field(default=None, repr=False)

    @property
    def pid(self) -> int:
        assert self.process.pid is not None
        return self.process.pid


class WorkerPool:
    """``size`` worker processes that run picklable top-level functions, each job under a wall-clock cap.

    Workers start on :meth:`start`, or on the first :meth:`run`, both called on the
    event loop's thread (see the module's notes on why that thread). The pool
    belongs to that event loop. Call :meth:`close` when done.
    """

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"a worker pool needs at least one worker, not {size}")
        self.size = size
        self._context = multiprocessing.get_context("spawn")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._workers: list[_Worker] = []
        self._queue: collections.deque[_Entry[Any]] = collections.deque()
        self._closed = False
        #: Workers that died before they were up, in a row: each one waits longer before the next start.
        self._startup_failures = 0
        self._restarts: set[asyncio.TimerHandle] = set()
        self._retired: list[_Worker] = []
        self._count = 0

    # -- asking ------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the workers now, rather than on the first job. Call it on the event loop's thread."""
        if self._closed:
            raise PoolClosed("the worker pool is closed")
        loop = asyncio.get_running_loop()
        if self._loop is None:
            self._loop = loop
            for _ in range(self.size):
                self._spawn()
        elif self._loop is not loop:
            raise RuntimeError("a worker pool belongs to the event loop it was started on")

    async def run(self, fn: Callable[[J], R], job: J, *, timeout: float) -> R:
        """``fn(job)`` in a free worker, its answer; at most ``timeout`` seconds once a worker has it.

        ``fn`` must be a top-level function that a fresh interpreter can import,
        and ``job`` and the answer must pickle. Jobs wait for a free worker in
        the order asked. Raises :class:`WorkerTimeout` when the job is late (its
        worker is killed and replaced), :class:`WorkerDied` when its worker died,
        :class:`PoolClosed` when the pool closes first, and what ``fn`` raised
        where that exception pickles (else a :class:`WorkerError` naming it).
        Cancelling the awaiting task drops a waiting job, or kills and replaces
        the worker running it.
        """
        if not timeout > 0:
            raise ValueError(f"a job's timeout must be above 0 seconds, not {timeout}")
        # Pickled here so that an unpicklable job fails its caller at once, not a worker later.
        payload = pickle.dumps((fn, job))
        self.start()
        loop = asyncio.get_running_loop()
        entry: _Entry[R] = _Entry(payload, timeout, loop.create_future())
        self._queue.append(entry)
        self._dispatch()
        try:
            return await entry.future
        except asyncio.CancelledError:
            self._abandon(entry)
            raise

    # -- looking -----------------------------------------------------------------------------

    def alive(self) -> int:
        """Workers up now, able to take a job or running one (a worker still starting is not counted)."""
        return sum(1 for w in self._workers if w.state is not _State.STARTING)

    def busy(self) -> int:
        """Workers running a job now."""
        return sum(1 for w in self._workers if w.state is _State.BUSY)

    def queued(self) -> int:
        """Jobs waiting for a free worker."""
        return sum(1 for e in self._queue if not e.future.done())

    def pids(self) -> list[int]:
        """The process ids of the pool's current workers, those still starting included."""
        return [w.pid for w in self._workers]

    # -- ending ------------------------------------------------------------------------------

    def close(self) -> None:
        """End every worker within about a second, whatever it is running; fail every job not answered.

        Synchronous, so that a lifespan's shutdown or a signal handler can call
        it; call it on the event loop's thread, or once that loop has stopped
        (it fails the waiting jobs' futures, which belong to the loop). Calling
        it again does nothing.
        """
        if self._closed:
            return
        self._closed = True
        for handle in self._restarts:
            handle.cancel()
        self._restarts.clear()
        workers, self._workers = self._workers, []
        for worker in workers:
            worker.retired = True
            if worker.timer is not None:
                worker.timer.cancel()
            if worker.job is not None:
                self._fail(worker.job, PoolClosed("the worker pool closed before the job answered"))
                worker.job = None
        while self._queue:
            self._fail(self._queue.popleft(), PoolClosed("the worker pool closed before the job started"))
        for worker in workers:
            with contextlib.suppress(OSError, ValueError):
                worker.process.terminate()
        deadline = time.monotonic() + CLOSE_GRACE
        for worker in workers:
            worker.process.join(max(0.0, deadline - time.monotonic()))
        for worker in workers:
            if worker.process.exitcode is None:
                with contextlib.suppress(OSError, ValueError):
                    worker.process.kill()
        deadline = time.monotonic() + CLOSE_GRACE
        for worker in workers + self._retired:
            worker.process.join(max(0.0, deadline - time.monotonic()))
        # Each reader sees its pipe close as its worker dies; the pipe is closed here once it has.
        for worker in workers + self._retired:
            if worker.reader is not None:
                worker.reader.join(max(0.0, deadline - time.monotonic()))
                if not worker.reader.is_alive():
                    worker.conn.close()
        self._retired.clear()

    # -- inside ------------------------------------------------------------------------------

    def _spawn(self) -> None:
        """Start one worker; it joins the pool as starting, and takes jobs once it says it is up."""
        if self._closed:
            return
        assert self._loop is not None
        receive, send = self._context.Pipe(duplex=True)
        self._count += 1
        process = self._context.Process(
            target=_worker_main,
            args=(send, os.getpid()),
            name=f"tussle-worker-{self._count}",
            daemon=True,
        )
        try:
            process.start()
        except OSError as exc:
            receive.close()
            log.warning("could not start a worker process: %s", exc)
            self._startup_failures += 1
            self._restart_later()
            return
        finally:
            # The worker's end of the pipe must live in the worker only, or its death would go unseen.
            send.close()
        worker = _Worker(process, receive)
        worker.reader = threading.Thread(
            target=self._read,
            args=(worker, self._loop),
            name=f"{process.name}-reader",
            daemon=True,
        )
        worker.reader.start()
        self._workers.append(worker)

    def _restart_later(self) -> None:
        assert self._loop is not None
        delay = min(MAX_RESTART_DELAY, 0.25 * 2 ** min(self._startup_failures, 10))
        handle: asyncio.TimerHandle | None = None

        def restart() -> None:
            assert handle is not None
            self._restarts.discard(handle)
            self._spawn()

        handle = self._loop.call_later(delay, restart)
        self._restarts.add(handle)

    def _read(self, worker: _Worker, loop: asyncio.AbstractEventLoop) -> None:
        """A reader thread: hand each message of ``worker`` to the loop; then reap it and say it is gone."""
        while True:
            try:
                data = worker.conn.recv_bytes()
            except (EOFError, OSError):
                break
            try:
                message = self._decode(data)
            except Exception:
                # Not a message of this module's worker: nothing it says can be trusted any more.
                log.exception("a worker process sent a message that could not be read")
                break
            try:
                loop.call_soon_threadsafe(self._on_message, worker, message)
            except RuntimeError:
                # The loop is closed: nobody is waiting for anything this worker says.
                break
        worker.process.join(1.0)
        if worker.process.exitcode is None:
            # It closed its pipe and lives on: useless, and nobody would ever end it.
            with contextlib.suppress(OSError, ValueError):
                worker.process.kill()
            worker.process.join(1.0)
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._on_gone, worker)

    @staticmethod
    def _decode(data: bytes) -> tuple[str, Any]:
        """A worker's message as ``(kind, value)``: ``ready``, ``ok`` and the answer, ``raised`` and an error.

        Unpickled on the reader thread, off the loop.
        """
        message = pickle.loads(data)
        kind = message[0]
        if kind == "ready":
            return ("ready", None)
        if kind == "ok":
            try:
                return ("ok", pickle.loads(message[1]))
            except Exception as exc:
                return ("raised", WorkerError(f"the job's answer could not be read: {_summary(exc)}"))
        _, blob, summary, remote_traceback = message
        error: BaseException | None = None
        if blob is not None:
            try:
                error = pickle.loads(blob)
            except Exception:
                error = None
        if not isinstance(error, BaseException):
            error = WorkerError(summary)
        if remote_traceback:
            error.add_note(f"Raised in a worker process:\n{remote_traceback.rstrip()}")
        return ("raised", error)

    def _on_message(self, worker: _Worker, message: tuple[str, Any]) -> None:
        if worker.retired:
            return
        kind, value = message
        if kind == "ready":
            worker.state = _State.IDLE
            self._startup_failures = 0
        else:
            entry = worker.job
            if worker.timer is not None:
                worker.timer.cancel()
                worker.timer = None
            worker.job = None
            worker.state = _State.IDLE
            if entry is not None and not entry.future.done():
                if kind == "ok":
                    entry.future.set_result(value)
                else:
                    entry.future.set_exception(value)
        self._dispatch()

    def _on_gone(self, worker: _Worker) -> None:
        """A worker's reader has seen its pipe close and reaped it."""
        worker.reader = None
        if worker in self._retired:
            self._retired.remove(worker)
        worker.conn.close()
        if worker.retired:
            return
        starting = worker.state is _State.STARTING
        entry = worker.job
        how = _exit_description(worker.process.exitcode)
        self._retire(worker)
        if entry is not None:
            log.warning("worker process %d died (%s) while running a job", worker.pid, how)
            self._fail(entry, WorkerDied(f"the worker process running the job died ({how})"))
        if starting:
            log.warning("worker process %d died (%s) before it was up", worker.pid, how)
            self._startup_failures += 1
            self._restart_later()
        else:
            self._spawn()
        self._dispatch()

    def _retire(self, worker: _Worker) -> None:
        """Take ``worker`` out of the pool and kill it; its reader closes the pipe once it is dead."""
        worker.retired = True
        if worker.timer is not None:
            worker.timer.cancel()
            worker.timer = None
        worker.job = None
        if worker in self._workers:
            self._workers.remove(worker)
        if worker.reader is not None and worker.reader.is_alive():
            self._retired.append(worker)
        with contextlib.suppress(OSError, ValueError):
            worker.process.kill()

    def _replace(self, worker: _Worker) -> None:
        self._retire(worker)
        self._spawn()
        self._dispatch()

    def _dispatch(self) -> None:
        """Give waiting jobs, first come first served, to the idle workers."""
        while self._queue:
            worker = next((w for w in self._workers if w.state is _State.IDLE), None)
            if worker is None:
                return
            entry = self._queue.popleft()
            if entry.future.done():
                continue
            try:
                worker.conn.send_bytes(entry.payload)
            except OSError:
                # The worker died an instant ago: the job waits for its replacement or another worker.
                self._queue.appendleft(entry)
                self._retire(worker)
                self._spawn()
                continue
            assert self._loop is not None
            worker.state = _State.BUSY
            worker.job = entry
            entry.worker = worker
            if math.isfinite(entry.timeout):
                worker.timer = self._loop.call_later(entry.timeout, self._on_timeout, worker, entry)

    def _on_timeout(self, worker: _Worker, entry: _Entry[Any]) -> None:
        worker.timer = None
        if worker.job is not entry:
            return
        log.warning("a job ran past its %g s cap: its worker process %d is killed", entry.timeout, worker.pid)
        self._fail(entry, WorkerTimeout(f"the job did not answer within {entry.timeout:g} s"))
        self._replace(worker)

    def _abandon(self, entry: _Entry[Any]) -> None:
        """The caller of ``entry`` stopped waiting: drop the job, or end the worker running it."""
        worker = entry.worker
        if worker is None:
            with contextlib.suppress(ValueError):
                self._queue.remove(entry)
        elif worker.job is entry and not self._closed:
            self._replace(worker)

    @staticmethod
    def _fail(entry: _Entry[Any], error: WorkerError) -> None:
        if not entry.future.done():
            # The loop may be closed already when the pool is closed late: nobody awaits then.
            with contextlib.suppress(RuntimeError):
                entry.future.set_exception(error)


def _exit_description(exitcode: int | None) -> str:
    if exitcode is None:
        return "exit status unknown"
    if exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit status {exitcode}"
