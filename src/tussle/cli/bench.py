"""``tussle bench``: how fast the engines run, or tussle's MCTS against OpenSpiel's (--vs-openspiel)."""

from __future__ import annotations

import json
import os

import click
from rich import box
from rich.table import Table
from rich.text import Text

from tussle.cli.common import diagnostics_on_stderr, progress, stdout_console, text_cells
from tussle.errors import TussleError
from tussle.registry import game_ids, game_info


@click.command()
@click.argument("game_list", nargs=-1, metavar="[GAME]...")
@click.option(
    "--seconds",
    "-s",
    type=click.FloatRange(min=0, min_open=True),
    default=2.0,
    show_default=True,
    help="CPU seconds for each measurement.",
)
@click.option(
    "--compare",
    is_flag=True,
    help="Also time random chess playouts (python-chess) and check each game's target against them.",
)
@click.option(
    "--search",
    "search_spec",
    default="medium",
    show_default=True,
    metavar="AGENT",
    help="The agent whose search iterations are counted; 'none' skips the search measurement.",
)
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the games played.")
@click.option(
    "--vs-openspiel",
    "vs_openspiel",
    is_flag=True,
    help="Instead: tussle's MCTS against OpenSpiel's MCTSBot at the same time per move "
    "(the sequential games of perfect information; needs the openspiel extra).",
)
@click.option(
    "--games",
    "vs_games",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="Games per game id for --vs-openspiel (with --server: games at once, default 200).",
)
@click.option(
    "--move-seconds",
    type=click.FloatRange(min=0, min_open=True),
    default=0.5,
    show_default=True,
    help="Seconds per move of each side for --vs-openspiel.",
)
@click.option(
    "--server",
    "server_load",
    is_flag=True,
    help="Instead: a load test of tussle serve: --games games at once (default 200), each played by "
    "two WebSocket bots, over --db (default a new SQLite file).",
)
@click.option("--db", "db_url", metavar="URL", default=None, help="The database of --server.")
@click.option(
    "--scaling",
    is_flag=True,
    help="Instead: games per second of `tussle match` (random agents) on one process, then on "
    "--cpus processes and local Rays of --cpus CPUs, with parallel efficiency and the overhead of a "
    "chunk (--games games, default 4000; needs tussle[cluster]).",
)
@click.option(
    "--adapters",
    is_flag=True,
    help="Instead: each game's time per decision in the Gymnasium, PettingZoo and OpenSpiel "
    "environments against the engine alone, and the ratio (needs the rl extra).",
)
@click.option(
    "--cpus",
    metavar="N,N,...",
    default=None,
    help="CPU counts for --scaling [default: 1, 2, 4 ... up to this machine's cores].",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
def bench(
    *,
    game_list: tuple[str, ...],
    seconds: float,
    compare: bool,
    search_spec: str,
    seed: int,
    vs_openspiel: bool,
    vs_games: int,
    move_seconds: float,
    server_load: bool,
    db_url: str | None,
    scaling: bool,
    adapters: bool,
    cpus: str | None,
    as_json: bool,
) -> None:
    """Measure how fast the engines run: playouts, legal actions, search.

    Per GAME (default: all): random playouts with the game's simulation
    options, in events (steps) and whole games per second; calls of
    legal_actions per second on positions from random play; search iterations
    per second of the AGENT given by --search. With --compare, random chess
    playouts with python-chess in the same run are the yardstick: each game's
    playout rate is shown as a multiple of chess's, against its target.

    \b
    Examples:
      tussle bench
      tussle bench tank-chess fightopia --seconds 5
      tussle bench --compare --json
      tussle bench --vs-openspiel fightopia --games 10 --move-seconds 0.5
      tussle bench --server --games 200 --db postgresql://postgres@127.0.0.1/tussle_load
      tussle bench --scaling fite --cpus 1,2 --games 20000
      tussle bench --adapters fite robo-pigs
    """
    if adapters:
        _bench_adapters(list(game_list), seconds, as_json)
        return
    if scaling:
        _bench_scaling(list(game_list), vs_games if vs_games != 10 else 4000, cpus, as_json)
        return
    if server_load:
        _bench_server(vs_games if vs_games != 10 else 200, db_url, seed, as_json)
        return
    if vs_openspiel:
        _bench_vs_openspiel(
            list(game_list), games=vs_games, move_seconds=move_seconds, seed=seed, as_json=as_json
        )
        return
    from tussle.bench import run_bench, targets

    search = None if search_spec.strip().lower() == "none" else search_spec
    chosen = list(game_list) or game_ids()
    for game_id in chosen:
        game_info(game_id)  # an unknown game fails now, before any measuring
    total = 3 * len(dict.fromkeys(chosen)) + (1 if compare else 0)
    with progress(total, "bench") as advance:
        report = run_bench(
            chosen, seconds=seconds, seed=seed, compare=compare, search=search, on_step=lambda _: advance()
        )
    if as_json:
        click.echo(json.dumps(report.to_json()))
        return
    console = stdout_console()
    title = f"{seconds:g} CPU s per measurement, seed {seed}"
    table = _table(title)
    for column in ("game", "steps/s", "games/s", "legal/s", "actions", "search/s"):
        table.add_column(column, justify="left" if column == "game" else "right", no_wrap=True)
    if compare:
        table.add_column("vs chess", justify="right", no_wrap=True)
        table.add_column("target", no_wrap=True)
    notes: list[str] = []
    for g in report.games:
        row = [
            g.game,
            _rate(g.playout.steps_per_s),
            _rate(g.playout.games_per_s),
            _rate(g.legal.calls_per_s),
            _rate(g.legal.mean_actions),
            _rate(g.search.iterations_per_s) if g.search is not None else "-",
        ]
        if g.search is None and search is not None:
            notes.append(f"{g.game}: no search figure: {g.search_note}")
        if compare:
            row.append(f"{g.ratio:.2f}x" if g.ratio is not None else "-")
            if g.target is None or g.target_met is None:
                row.append("-")
            else:
                row.append(f"{g.target:g}x {'ok' if g.target_met else 'NO'}")
        table.add_row(*text_cells(*row))
    console.print(table)
    if report.chess is not None:
        console.print(
            f"chess (python-chess {report.chess_version}): {_rate(report.chess.steps_per_s)} steps/s, "
            f"{_rate(report.chess.games_per_s)} games/s",
            markup=False,
        )
        verdict = "every target met" if report.targets_met else "some targets NOT met"
        known = ", ".join(f"{k} {v:g}x" for k, v in targets().items())
        console.print(f"{verdict} (random-playout steps/s as a multiple of chess's: {known})", markup=False)
    for line in notes:
        console.print(line, markup=False)


def _cpu_counts(text: str | None) -> list[int]:
    """``--cpus``: a list of counts, or the powers of two up to this machine's cores and then those.

    >>> _cpu_counts("1, 2,8")
    [1, 2, 8]
    """
    if text is None:
        cores = os.cpu_count() or 1
        counts = [1 << k for k in range(cores.bit_length()) if 1 << k < cores]
        return [*counts, cores]
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        raise TussleError(f"--cpus {text!r}: give CPU counts such as 1,2,4")
    return counts


def _bench_scaling(game_list: list[str], games: int, cpus: str | None, as_json: bool) -> None:
    from tussle.scaling import measure_scaling

    if len(game_list) > 1:
        raise TussleError(f"--scaling measures one game at a time, not {len(game_list)}")
    game_id = game_list[0] if game_list else "fite"
    game_info(game_id)
    counts = _cpu_counts(cpus)
    with diagnostics_on_stderr(), progress(2 + 2 * len(counts), f"{game_id}: scaling") as advance:
        report = measure_scaling(
            game_id, ["random", "random"], games, counts, on_step=lambda _: advance()
        ).to_json()
    if as_json:
        click.echo(json.dumps(report))
        return
    console = stdout_console()
    table = _table(f"{game_id}, random vs random: {games:,} games, {report['chunk']} a chunk")
    for column in ("way", "CPUs", "seconds", "games/s", "speed-up", "efficiency"):
        table.add_column(column, justify="left" if column == "way" else "right", no_wrap=True)
    for p in report["points"]:
        table.add_row(
            *text_cells(
                p["way"],
                str(p["cpus"]),
                f"{p['seconds']:.2f}",
                _rate(p["games_per_s"]),
                f"{p['speedup']:.2f}x",
                f"{p['efficiency']:.0%}",
            )
        )
    console.print(table)
    starts = ", ".join(f"{c} CPUs {s} s" for c, s in report["ray_start_s"].items())
    overhead = ", ".join(f"{way} {ms:.2f} ms" for way, ms in report["chunk_overhead_ms"].items())
    console.print(f"a local Ray's start (not in the times above): {starts}", markup=False)
    console.print(f"overhead of a chunk beyond its games: {overhead}", markup=False)


def _bench_adapters(game_list: list[str], seconds: float, as_json: bool) -> None:
    chosen = game_list or game_ids()
    for game_id in chosen:
        game_info(game_id)
    from tussle.adapters.overhead import LIBRARIES, measure_overhead

    rows = []
    with progress(len(chosen), "adapters against the engine") as advance:
        for game_id in chosen:
            rows.append(measure_overhead(game_id, seconds).to_json())
            advance()
    if as_json:
        click.echo(json.dumps({"seconds": seconds, "adapters": rows}))
        return
    # Ratios only in the columns (the microseconds are in --json), so the table fits a terminal.
    table = _table(
        f"time per decision against the engine's, {seconds:g} CPU s each "
        "(gym: Gymnasium, pz: PettingZoo, spiel: OpenSpiel)"
    )
    table.add_column("game", no_wrap=True)
    table.add_column("engine\nus", justify="right", no_wrap=True)
    short = {"gymnasium": "gym", "pettingzoo": "pz", "openspiel": "spiel"}
    for name in LIBRARIES:
        head, _, mode = name.partition("-")
        # Two-line headings, so that eight columns fit an 80-column terminal.
        table.add_column(short[head] + (f"\n{mode}" if mode else ""), justify="right", no_wrap=True)

    def ratio(value: float) -> str:
        return f"{value:.0f}x" if value >= 100 else f"{value:.1f}x"

    for row in rows:
        table.add_row(
            *text_cells(
                row["game"],
                f"{row['engine_us']:.1f}",
                *(ratio(row["ratios"][n]) if n in row["ratios"] else "-" for n in LIBRARIES),
            )
        )
    stdout_console().print(table)


def _bench_server(games: int, db_url: str | None, seed: int, as_json: bool) -> None:
    from tussle.server.load import run_load

    data = run_load(games, db=db_url, seed=seed).to_json()
    if as_json:
        click.echo(json.dumps(data))
        return
    stdout_console().print(
        f"{data['games']} games at once on {data['db']}: {data['actions']} actions in {data['seconds']} s, "
        f"{data['actions_per_s']} actions/s; latency p50 {data['latency_p50_ms']} ms, "
        f"p99 {data['latency_p99_ms']} ms; errors {data['errors']}, lost events {data['lost_events']}",
        markup=False,
    )


def _bench_vs_openspiel(
    game_list: list[str], *, games: int, move_seconds: float, seed: int, as_json: bool
) -> None:
    from tussle.bench import openspiel_games

    searchable = openspiel_games()
    chosen = game_list or searchable
    for game_id in chosen:
        if game_id not in searchable:
            game_info(game_id)  # an unknown id gets the registry's own message
            raise TussleError(
                f"--vs-openspiel plays {', '.join(searchable)}, not {game_id} "
                "(MCTSBot needs a sequential game of perfect information)"
            )
    try:
        from tussle.adapters.openspiel_bench import compare_with_openspiel
    except ImportError as exc:
        raise TussleError(f"--vs-openspiel needs OpenSpiel: {exc}") from None
    rows = []
    with progress(len(chosen), "tussle MCTS vs OpenSpiel MCTSBot") as advance:
        for game_id in chosen:
            rows.append(compare_with_openspiel(game_id, move_seconds, games, seed))
            advance()
    if as_json:
        click.echo(json.dumps({"vs_openspiel": rows}))
        return
    console = stdout_console()
    table = _table(f"tussle MCTS vs OpenSpiel MCTSBot, {move_seconds:g} s a move, seed {seed}")
    for column in ("game", "games", "tussle wins", "MCTSBot wins", "draws", "tussle it/s", "MCTSBot it/s"):
        table.add_column(column, justify="left" if column == "game" else "right", no_wrap=True)
    for row in rows:
        table.add_row(
            *text_cells(
                row["game"],
                str(row["games"]),
                str(row["tussle_wins"]),
                str(row["openspiel_wins"]),
                str(row["draws"]),
                _rate(row["tussle_iterations_per_second"]),
                _rate(row["openspiel_iterations_per_second"]),
            )
        )
    console.print(table)


def _table(title: str) -> Table:
    """A table of figures as every bench table looks: the title at the left, plain rules."""
    return Table(
        title=Text(title), title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True
    )


def _rate(value: float) -> str:
    """A rate in three or four figures: ``950``, ``82.9k``, ``8.12M``.

    >>> _rate(82888.5), _rate(8115734.6), _rate(536.26), _rate(8.6)
    ('82.9k', '8.12M', '536', '8.6')
    """
    for scale, suffix in ((1e6, "M"), (1e3, "k")):
        if value >= scale:
            scaled = value / scale
            return f"{scaled:.3g}{suffix}" if scaled < 100 else f"{scaled:.0f}{suffix}"
    return f"{value:.3g}" if value < 100 else f"{value:.0f}"
