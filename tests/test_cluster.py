"""Match, ladder and balance on Ray (docs/cluster.md): the same results as on this machine's cores,
a killed worker's chunk played again, a killed driver's run taken up from what it stored.

A real Ray runs here: one head of 2 CPUs for the module (a separate process, as a
cluster would be), which the commands join with ``--cluster ray:ADDRESS``; one test
starts its own local Ray with ``--cluster ray``. The module's tests share one xdist
worker (``xdist_group``) so that two Rays never compete for the 2 cores.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tussle.balance.play import open_data
from tussle.cli import cli
from tussle.errors import TussleError
from tussle.ladder import run_ladder
from tussle.parallel import RETRIES, ClusterError, chunked, run_chunks
from tussle.runner import run_match

pytestmark = pytest.mark.xdist_group("ray")

# The head and every driver use Ray's token authentication, its default for a new cluster.
ENV = {**os.environ, "RAY_AUTH_MODE": "token"}

HEAD = """
import logging, sys, ray
ray.init(address="local", num_cpus=2, include_dashboard=False, object_store_memory=200 * 2**20,
         logging_level=logging.ERROR)
print(ray.get_runtime_context().gcs_address, flush=True)
sys.stdin.read()
ray.shutdown()
"""


@pytest.fixture(scope="module")
def head() -> Iterator[str]:
    """The address of a running Ray head of 2 CPUs."""
    process = subprocess.Popen(
        [sys.executable, "-c", HEAD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=ENV
    )
    assert process.stdout is not None and process.stdin is not None
    address = process.stdout.readline().strip()
    assert address, "the Ray head did not start"
    yield address
    process.stdin.close()  # the head shuts its Ray down and exits
    process.wait(timeout=60)


def tussle(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tussle", *args],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=timeout,
        check=False,
    )


def kill_when(args: list[str], ready: Callable[[], bool]) -> None:
    """Start ``tussle ARGS`` and SIGKILL it as soon as ``ready()`` (it must still be running)."""
    driver = subprocess.Popen(
        [sys.executable, "-m", "tussle", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and driver.poll() is None and not ready():
        time.sleep(0.02)
    assert driver.poll() is None, "the run ended before it could be stopped"
    driver.kill()
    driver.wait()


def ok(*args: str) -> str:
    done = tussle(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if not p.name.endswith(".partial")}


def ray_workers(task: str) -> list[int]:
    """The processes running ``task`` now (Ray titles a busy worker ``ray::TASK``)."""
    out = subprocess.run(["ps", "-eo", "pid=,args="], capture_output=True, text=True, check=True).stdout
    return [int(line.split()[0]) for line in out.splitlines() if line.split()[1:2] == [f"ray::{task}"]]


# --- the same results --------------------------------------------------------------


def test_the_issue_command_gives_the_json_of_two_processes_on_a_local_ray() -> None:
    # The command the issue names, word for word, against --jobs 2; Ray starts and stops here.
    command = ["match", "fite", "random", "random", "-n", "20000", "--json"]
    assert ok(*command, "--cluster", "ray") == ok(*command, "--jobs", "2")


def test_match_summary_and_records_are_the_same_on_one_process_two_and_ray(head: str, tmp_path: Path) -> None:
    command = ["match", "fite", "rule", "random", "-n", "300", "--seed", "4", "--json"]
    one = ok(*command, "--jobs", "1", "--record", str(tmp_path / "one"))
    two = ok(*command, "--jobs", "2", "--chunk", "7", "--record", str(tmp_path / "two"))
    on_ray = ok(*command, "--cluster", f"ray:{head}", "--chunk", "40", "--record", str(tmp_path / "ray"))
    assert json.loads(one)["games"] == 300
    assert one == two == on_ray
    stored = files(tmp_path / "one")
    assert len(stored) == 301  # every game, and the file naming the match
    assert stored == files(tmp_path / "two") == files(tmp_path / "ray")


def test_ladder_and_balance_are_the_same_on_one_process_and_on_ray(head: str, tmp_path: Path) -> None:
    ladder = ["ladder", "robo-pigs", "random", "rule", "-n", "40", "-o", "round_limit=6", "--json"]
    assert ok(*ladder, "--jobs", "1") == ok(*ladder, "--cluster", f"ray:{head}", "--chunk", "6")
    balance = ["balance", "fite", "random", "random", "-n", "250", "--json"]
    here = ok(*balance, "--jobs", "1", "--out", str(tmp_path / "here"))
    there = ok(*balance, "--cluster", f"ray:{head}", "--out", str(tmp_path / "there"))
    assert json.loads(here)["plan"]["n"] == 250
    assert here == there
    # The chunks are cut to the workers' number, so the files differ; the games in them do not.
    for table in ("games", "events"):
        data = [open_data(tmp_path / where / "data") for where in ("here", "there")]
        held = [c.execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall() for c in data]
        assert held[0] == held[1] and len(held[0]) > 0


def test_bench_scaling_times_processes_and_ray_side_by_side() -> None:
    report = json.loads(ok("bench", "--scaling", "fite", "--cpus", "1,2", "--games", "400", "--json"))
    ways = [(p["way"], p["cpus"]) for p in report["points"]]
    assert ways == [("process", 1), ("ray", 1), ("pool", 2), ("ray", 2)]
    base = report["points"][0]
    assert base["speedup"] == base["efficiency"] == 1.0 and base["games"] == 400
    for p in report["points"]:
        assert p["games_per_s"] == pytest.approx(400 / p["seconds"])
        assert p["efficiency"] == pytest.approx(p["speedup"] / p["cpus"])
    assert set(report["ray_start_s"]) == {"1", "2"} and set(report["chunk_overhead_ms"]) == {"ray", "pool"}
    bad = tussle("bench", "--scaling", "fite", "--cpus", "two")
    assert bad.returncode == 2 and "--cpus 'two': give CPU counts from 1 to 256, such as 1,2,4" in bad.stderr


TICKS = """
import json, sys
from tussle.balance.play import _Job, _play_chunk
from tussle.parallel import Cluster, run_chunks
from tussle.registry import simulation_options

options = simulation_options("fite", {})
jobs = [_Job("fite", 2, options, 0, "default", "rule,rule", ("rule", "rule"), 3, k) for k in range(64)]
log = []
ticked = lambda k: log.append(["tick", k])
on = Cluster.parse(sys.argv[1])
for i, (games, _) in run_chunks(_play_chunk, [jobs[:32], jobs[32:]], cluster=on, on_tick=ticked):
    log.append(["done", i, len(games)])
print(json.dumps(log))
"""


def test_balance_games_on_ray_tick_the_progress_within_their_chunk(head: str) -> None:
    # Two chunks of 32 jobs of FITE games between rule agents: each chunk's games tick the driver's
    # progress before the chunk comes back, as a pool's workers do. A worker sends its ticks at
    # most every TICK_WAIT (0.2 s), so a chunk must last longer than that on a fast machine too
    # (8 jobs a chunk did not, once).
    driver = subprocess.Popen(
        [sys.executable, "-c", TICKS, f"ray:{head}"], stdout=subprocess.PIPE, text=True, env=ENV
    )
    seen = False
    while driver.poll() is None:
        seen = seen or bool(ray_workers("_play_chunk"))  # the tasks keep the work's name
        time.sleep(0.05)
    out, _ = driver.communicate()
    assert driver.returncode == 0
    log = json.loads(out)
    for chunk in (0, 1):
        done = log.index(["done", chunk, 64])
        before = sum(1 for entry in log[:done] if entry == ["tick", chunk])
        assert 1 <= before <= sum(1 for entry in log if entry == ["tick", chunk]) <= 32
    assert seen


# --- faults ------------------------------------------------------------------------


def test_a_worker_killed_mid_chunk_has_its_chunk_played_again(head: str) -> None:
    command = ["match", "fite", "random", "random", "-n", "6000", "--chunk", "500", "--json"]
    expected = ok(*command, "--jobs", "2")
    driver = subprocess.Popen(
        [sys.executable, "-m", "tussle", *command, "--cluster", f"ray:{head}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and driver.poll() is None and time.monotonic() < deadline:
        busy = ray_workers("_play_chunk")
        if busy:
            os.kill(busy[0], signal.SIGKILL)  # a worker in the middle of a chunk of 500 games
            killed = busy[0]
        time.sleep(0.02)
    out, err = driver.communicate(timeout=300)
    assert killed is not None, "no worker was seen playing a chunk"
    assert driver.returncode == 0, err
    assert out == expected


def test_a_match_driver_killed_goes_on_from_the_records_it_saved(head: str, tmp_path: Path) -> None:
    command = ["match", "fite", "random", "random", "-n", "3000", "--chunk", "50", "--json", "--seed", "9"]
    expected = ok(*command, "--jobs", "2", "--record", str(tmp_path / "whole"))
    folder = tmp_path / "stopped"
    on_ray = [*command, "--cluster", f"ray:{head}", "--record", str(folder)]
    kill_when(on_ray, lambda: folder.is_dir() and len(list(folder.glob("fite-*.json"))) >= 200)
    saved = len(list(folder.glob("fite-*.json")))
    assert 200 <= saved < 3000
    again = tussle(*on_ray)
    assert again.returncode == 0, again.stderr
    assert again.stdout == expected
    # Every game saved before the kill was taken, not played again.
    taken = int(again.stderr.split(" of the 3000 games were already in")[0].split()[-1])
    assert saved <= taken < 3000
    assert files(folder) == files(tmp_path / "whole")


def test_a_balance_driver_killed_goes_on_from_the_chunks_it_stored(head: str, tmp_path: Path) -> None:
    command = ["balance", "fite", "random", "random", "-n", "1200", "--json"]
    expected = ok(*command, "--jobs", "2", "--out", str(tmp_path / "whole"))
    folder = tmp_path / "stopped"
    on_ray = [*command, "--cluster", f"ray:{head}", "--out", str(folder)]
    kill_when(on_ray, lambda: len(list((folder / "data").glob("games-*.parquet"))) >= 2)
    stored = len(list((folder / "data").glob("games-*.parquet")))
    assert 2 <= stored < 12
    assert ok(*on_ray) == expected


def _dies_the_first_time(chunk: tuple[str, bool]) -> int:
    # A worker process killed in the middle of its chunk, once: the marker says it happened.
    marker, dies = chunk
    if dies and not os.path.exists(marker):
        Path(marker).touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return os.getpid()


def _always_dies(_: Any) -> int:
    os.kill(os.getpid(), signal.SIGKILL)
    return 0


def test_a_killed_process_of_the_pool_has_its_chunk_played_again(tmp_path: Path) -> None:
    marker = str(tmp_path / "died")
    chunks = [(marker, i == 2) for i in range(5)]
    done = dict(run_chunks(_dies_the_first_time, chunks, jobs=2))
    assert sorted(done) == [0, 1, 2, 3, 4] and os.path.exists(marker)
    with pytest.raises(ClusterError, match=f"died {RETRIES + 1} times"):
        list(run_chunks(_always_dies, [1, 2, 3], jobs=2))


def test_a_ladder_stopped_goes_on_from_its_records(tmp_path: Path) -> None:
    agents = ["random", "rule", "q=random"]
    kwargs: dict[str, Any] = {"seed": 2, "options": {"round_limit": 4}}
    whole = run_ladder("robo-pigs", agents, 6, record_dir=str(tmp_path / "whole"), **kwargs)

    def stop(done: int, total: int) -> None:
        if done == 7:
            raise KeyboardInterrupt

    folder = str(tmp_path / "stopped")
    with pytest.raises(KeyboardInterrupt):
        run_ladder("robo-pigs", agents, 6, record_dir=folder, on_game=stop, chunk=2, **kwargs)
    again = run_ladder("robo-pigs", agents, 6, record_dir=folder, chunk=4, **kwargs)
    assert again.resumed == 7
    assert again.to_json() == whole.to_json()
    assert files(Path(folder)) == files(tmp_path / "whole")


def test_a_folder_of_another_run_is_refused_in_one_line(tmp_path: Path) -> None:
    list(run_match("fite", ["random", "random"], 4, seed=1, record_dir=str(tmp_path)))
    with pytest.raises(TussleError, match=r"another run \(its seed is 1, this run's 2\)"):
        list(run_match("fite", ["random", "random"], 4, seed=2, record_dir=str(tmp_path)))
    # More games of the same match take the four already there.
    more = list(run_match("fite", ["random", "random"], 6, seed=1, record_dir=str(tmp_path)))
    assert [g.stored_before for g in more] == [True] * 4 + [False] * 2


def test_chunks_cover_every_game_once() -> None:
    assert chunked(list(range(7)), 3) == [[0, 1, 2], [3, 4, 5], [6]]
    with pytest.raises(TussleError, match="at least one game"):
        chunked([1], 0)


# --- errors ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--cluster", "spark"], "unknown cluster 'spark': give ray"),
        (["--cluster", "ray:"], "needs an address after the colon"),
        (["--cluster", "ray:127.0.0.1:1"], "cannot reach the Ray cluster at 127.0.0.1:1"),
        (["--cluster", "ray:127.0.0.1:1", "--jobs", "2"], "--jobs sets the CPUs of a local Ray only"),
        (["--chunk", "0"], "--chunk"),
    ],
)
@pytest.mark.parametrize("command", ["match", "ladder"])
def test_bad_cluster_input_is_one_line(command: str, args: list[str], words: str) -> None:
    result = CliRunner().invoke(cli, [command, "fite", "random", "rule", "-n", "2", *args])
    assert result.exit_code == 2
    assert words in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) <= 3  # click's usage lines at most


def test_without_ray_installed_the_error_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails as if it were missing
    out = tmp_path / "report"
    for command in (["match", "fite", "random", "random"], ["balance", "fite", "-n", "2", "--out", str(out)]):
        result = CliRunner().invoke(cli, [*command, "--cluster", "ray"])
        assert result.exit_code == 2
        assert result.output.strip() == (
            "tussle: error: --cluster ray needs Ray, which is not installed: pip install 'tussle[cluster]'"
        )
    assert not out.exists()  # refused before anything was made


def python(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=ENV, check=True)


def test_workers_that_run_another_tussle_are_refused(head: str, tmp_path: Path) -> None:
    # The workers get a fake tussle first on their path: first one without the module the
    # driver needs, then one of another version.
    fake = tmp_path / "fake" / "tussle"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text('__version__ = "9.9"\n')
    script = f"""
from tussle.errors import TussleError
from tussle.parallel import Cluster
from tussle.runner import run_match
cluster = Cluster({head!r}, runtime_env={{"env_vars": {{"PYTHONPATH": {str(fake.parent)!r}}}}})
try:
    list(run_match("fite", ["random", "random"], 2, cluster=cluster))
except TussleError as exc:
    print(exc)
"""
    missing = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=ENV, check=True
    )
    assert "cannot run tussle" in missing.stdout and "runtime environment" in missing.stdout
    (fake / "parallel.py").write_text("def _about():\n    return ('9.9', '3.11')\n")
    other = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=ENV, check=True
    )
    assert "run tussle 9.9" in other.stdout and "games could differ" in other.stdout
