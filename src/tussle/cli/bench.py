"""``tussle bench``: how fast the engines run, or tussle's agents against OpenSpiel's (--vs-openspiel)."""

from __future__ import annotations

import json
import os
from typing import Any

import click
from rich import box
from rich.table import Table
from rich.text import Text

from tussle.cli.common import (
    MAX_GAMES,
    MAX_JOBS,
    MAX_ROUNDS,
    MAX_SECONDS,
    SEED,
    Amount,
    Count,
    diagnostics_on_stderr,
    game_options_option,
    progress,
    read_documents,
    stdout_console,
    text_cells,
)
from tussle.cli.extras import needs
from tussle.errors import TussleError, shorten
from tussle.registry import game_ids, game_info


@click.command()
@click.argument("game_list", nargs=-1, metavar="[GAME]...")
@click.option(
    "--seconds",
    "-s",
    type=Amount(0, MAX_SECONDS, min_open=True),
    default=2.0,
    show_default=True,
    help="CPU seconds for each measurement (the playouts of each game share them over the rounds).",
)
@click.option(
    "--compare",
    is_flag=True,
    help="Also time the yardsticks in the same rounds (chess with python-chess; OpenSpiel's C++ "
    "breakthrough, chess and goofspiel when OpenSpiel is installed) and check each game's target.",
)
@click.option(
    "--openspiel/--no-openspiel",
    "openspiel",
    default=True,
    show_default=True,
    help="With --compare: time OpenSpiel's C++ games too, when OpenSpiel is installed.",
)
@click.option(
    "--rounds",
    type=Count(1, MAX_ROUNDS),
    default=5,
    show_default=True,
    help="Interleaved rounds of playouts (each game and yardstick in turn); rates are min/median/max "
    "(--adapters: each way's best round).",
)
@click.option(
    "--search",
    "search_spec",
    default="medium",
    show_default=True,
    metavar="AGENT",
    help="The agent whose search iterations are counted; 'none' skips the search measurement.",
)
@click.option("--seed", type=SEED, default=1, show_default=True, help="Seed of the games played.")
@click.option(
    "--vs-openspiel",
    "vs_openspiel",
    is_flag=True,
    help="Instead: tussle's levels (or --agent) against OpenSpiel's MCTSBot at the same time per "
    "move, with game options from -o (the sequential games of perfect information; needs the "
    "openspiel extra).",
)
@click.option(
    "--games",
    "vs_games",
    type=Count(1, MAX_GAMES),
    default=10,
    show_default=True,
    help="Games per game id for --vs-openspiel (with --server: games at once, default 200).",
)
@click.option(
    "--move-seconds",
    type=Amount(0, MAX_SECONDS, min_open=True),
    default=0.5,
    show_default=True,
    help="--vs-openspiel: MCTSBot's seconds for its first move; after that it gets the tussle side's mean.",
)
@click.option(
    "--agent",
    "vs_agents",
    multiple=True,
    metavar="AGENT",
    help="--vs-openspiel: the tussle side (repeat for several) [default: the levels easy, medium, hard].",
)
@game_options_option
@click.option(
    "--server",
    "server_load",
    is_flag=True,
    help="Instead: a load test of tussle serve: --games games at once (default 200), each played by "
    "two WebSocket bots, over --db (default a new SQLite file).",
)
@click.option("--db", "db_url", metavar="URL", default=None, help="The database of --server.")
@click.option(
    "--computers",
    type=Amount(0, 1),
    default=0.0,
    help="With --server: also run with this share of the games against a computer seat (easy), "
    "beside the people-only run (e.g. 0.3).",
)
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
    help="Instead: each game's time per decision in the Gymnasium, PettingZoo, OpenSpiel and "
    "rl_environment environments against the engine alone, the agent choosing from the legal list "
    "and from the mask, and the ratios (needs the rl extra).",
)
@click.option(
    "--batch",
    "batched",
    is_flag=True,
    help="Instead: the batched engines' random playouts (tussle.batch, JAX) in decisions per second "
    "at each batch size of --sizes, with the views pgx's interface makes and without them, beside the "
    "scalar engine in the same rounds (needs the jax extra).",
)
@click.option(
    "--sizes",
    metavar="N,N,...",
    default=None,
    help="Batch sizes for --batch [default: 1,4,16,64,256,1024,4096].",
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
    openspiel: bool,
    rounds: int,
    search_spec: str,
    seed: int,
    vs_openspiel: bool,
    vs_games: int,
    move_seconds: float,
    vs_agents: tuple[str, ...],
    options: dict[str, str],
    server_load: bool,
    computers: float,
    db_url: str | None,
    scaling: bool,
    adapters: bool,
    batched: bool,
    sizes: str | None,
    cpus: str | None,
    as_json: bool,
) -> None:
    """Measure how fast the engines run: playouts, legal actions, search.

    Per GAME (default: all): random playouts with the game's simulation
    options, in decisions (a player's choice, applied with its check), chance
    events and whole games per second, timed in interleaved rounds; lists of
    every legal action per second on positions from random play; search
    iterations per CPU second of the AGENT given by --search, over at least 20
    moves. With --compare, random chess playouts with python-chess (and
    OpenSpiel's C++ games, when installed) in the same rounds are the
    yardsticks: each game's decisions per second is shown as a multiple of
    theirs, round by round, against its target.

    \b
    Examples:
      tussle bench
      tussle bench tank-chess fightopia --seconds 5
      tussle bench --compare --json
      tussle bench --vs-openspiel fightopia --games 10 -o ply_limit=200
      tussle bench --vs-openspiel tank-chess --agent mcts:time=0.5 --games 4
      tussle bench --server --games 200 --db postgresql://postgres@127.0.0.1/tussle_load
      tussle bench --scaling fite --cpus 1,2 --games 20000
      tussle bench --adapters fite robo-pigs
      tussle bench --batch fite --sizes 1,64,1024
    """
    if batched:
        _bench_batch(
            list(game_list), _sizes(sizes), seconds=seconds, rounds=rounds, seed=seed, as_json=as_json
        )
        return
    if adapters:
        _bench_adapters(list(game_list), seconds, rounds, as_json)
        return
    if scaling:
        _bench_scaling(list(game_list), vs_games if vs_games != 10 else 4000, cpus, as_json)
        return
    if server_load:
        _bench_server(vs_games if vs_games != 10 else 200, db_url, seed, as_json, computers)
        return
    if vs_openspiel:
        _bench_vs_openspiel(
            list(game_list),
            agents=list(vs_agents) or ["easy", "medium", "hard"],
            options=options,
            games=vs_games,
            move_seconds=move_seconds,
            seed=seed,
            as_json=as_json,
        )
        return
    if options:
        raise TussleError("--option is for --vs-openspiel; the others use each game's simulation options")
    from tussle.bench import run_bench, steps

    search = None if search_spec.strip().lower() == "none" else search_spec
    chosen = list(dict.fromkeys(game_list or game_ids()))
    for game_id in chosen:
        game_info(game_id)  # an unknown game fails now, before any measuring
    total = steps(len(chosen), compare=compare, openspiel=openspiel, rounds=rounds)
    with progress(total, "bench") as advance:
        report = run_bench(
            chosen,
            seconds=seconds,
            seed=seed,
            compare=compare,
            openspiel=openspiel,
            search=search,
            rounds=rounds,
            on_step=lambda _: advance(),
        )
    if as_json:
        click.echo(json.dumps(report.to_json()))
        return
    _print_bench(report, search)


def _print_bench(report: Any, search: str | None) -> None:
    """The tables of a plain or --compare run."""
    from tussle.bench import MIN_SEARCH_MOVES

    console = stdout_console()
    table = _table(
        f"{report.seconds:g} CPU s per measurement, playouts in {report.rounds} interleaved rounds "
        f"(medians), seed {report.seed}"
    )
    headings = ("game", "decisions\n/s", "chance\n/s", "games\n/s", "legal\nlists/s", "actions\n/list")
    for column in (*headings, "search\nit/s", "search\ns/move"):
        table.add_column(column, justify="left" if column == "game" else "right", no_wrap=True)
    notes: list[str] = []
    for g in report.games:
        row = [
            g.game,
            _rate(g.playout.decisions_per_s.median),
            _rate(g.playout.chance_per_s.median) if g.playout.chance else "-",
            _rate(g.playout.games_per_s.median),
            _rate(g.legal.calls_per_s),
            _rate(g.legal.mean_actions),
            _rate(g.search.iterations_per_s) if g.search is not None else "-",
            f"{g.search.seconds_per_move:.3f}" if g.search is not None else "-",
        ]
        if g.search is None and search is not None:
            notes.append(f"{g.game}: no search figure: {g.search_note}")
        table.add_row(*text_cells(*row))
    console.print(table)
    if report.games and any(g.search is not None for g in report.games):
        console.print(
            f"search: {search}, CPU time of its moves (at least {MIN_SEARCH_MOVES} a game)",
            markup=False,
        )
    for line in notes:
        console.print(line, markup=False)
    if not report.yardsticks:
        return
    console.print()
    ratios = _table("decisions per second against each yardstick's, round by round (median)")
    ratios.add_column("game", no_wrap=True)
    for yardstick in report.yardsticks:
        if yardstick.name == "chess":
            ratios.add_column("chess", justify="right", no_wrap=True)
            ratios.add_column("chess\nmin-max", justify="right", no_wrap=True)
            ratios.add_column("target", no_wrap=True)
        else:
            # OpenSpiel's games by their own names: "breakthrough\nC++".
            ratios.add_column(f"{yardstick.name.partition(':')[2]}\nC++", justify="right", no_wrap=True)
    for g in report.games:
        cells = [g.game]
        for yardstick in report.yardsticks:
            spread = g.ratios[yardstick.name]
            cells.append(_times(spread.median))
            if yardstick.name == "chess":
                cells.append(f"{spread.min:.2f}-{spread.max:.2f}")
                if g.target is None or g.target_met is None:
                    cells.append("-")
                else:
                    cells.append(f"{g.target:g}x {'ok' if g.target_met else 'NO'}")
        ratios.add_row(*text_cells(*cells))
    console.print(ratios)
    for yardstick in report.yardsticks:
        rates = yardstick.playout.decisions_per_s
        line = (
            f"{yardstick.name.rpartition(':')[2]}: {yardstick.label} {yardstick.version}, "
            f"{_rate(rates.median)} decisions/s ({_rate(rates.min)}-{_rate(rates.max)})"
        )
        if yardstick.legal is not None:
            line += f", {_rate(yardstick.legal.calls_per_s)} lists/s"
        console.print(line, markup=False)
    if report.yardstick_note:
        console.print(report.yardstick_note, markup=False)
    if report.targets_met is not None:
        verdict = "every target met" if report.targets_met else "some targets NOT met"
        console.print(f"{verdict} (the median against chess)", markup=False)


def _times(value: float) -> str:
    """A ratio: ``0.42x``, ``4.12x``, ``13.2x``.

    >>> _times(0.4213), _times(4.123), _times(13.24)
    ('0.42x', '4.12x', '13.2x')
    """
    return f"{value:.3g}x" if value >= 1 else f"{value:.2f}x"


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
    if not counts or min(counts) < 1 or max(counts) > MAX_JOBS:
        raise TussleError(f"--cpus {shorten(text)}: give CPU counts from 1 to {MAX_JOBS}, such as 1,2,4")
    return counts


def _sizes(text: str | None) -> list[int]:
    """``--sizes``: batch sizes, or the default ones.

    >>> _sizes("1, 64,4096"), _sizes(None)[-1]
    ([1, 64, 4096], 4096)
    """
    if text is None:
        return [1, 4, 16, 64, 256, 1024, 4096]
    try:
        sizes = [int(part) for part in text.split(",")]
    except ValueError:
        sizes = []
    if not sizes or min(sizes) < 1 or max(sizes) > MAX_BATCH:
        raise TussleError(
            f"--sizes {shorten(text)}: give batch sizes from 1 to {MAX_BATCH}, such as 1,64,1024"
        )
    return list(dict.fromkeys(sizes))


#: The largest batch --batch plays (a FITE state is about 11 KB: 65,536 of them about 700 MB).
MAX_BATCH = 65536


def _bench_batch(
    game_list: list[str], sizes: list[int], *, seconds: float, rounds: int, seed: int, as_json: bool
) -> None:
    chosen = game_list or [game_id for game_id in game_ids() if game_info(game_id).hooks.batch]
    for game_id in chosen:
        if not game_info(game_id).hooks.batch:
            raise TussleError(
                f"{game_id} has no batched engine yet (docs/ecosystem.md, 'Batched simulation')"
            )
    with needs("tussle bench --batch", "jax"):
        from tussle.batch.bench import environment, measure_batch

    figures = []
    rows = 2 * len(sizes) * len(chosen)  # each size with views and without
    with progress(rows + rounds * (len(chosen) + rows), "batched engines") as advance:
        for game_id in chosen:
            figures.append(
                measure_batch(
                    game_id,
                    sizes=sizes,
                    seconds=seconds,
                    rounds=rounds,
                    seed=seed,
                    on_step=lambda _: advance(),
                )
            )
    if as_json:
        click.echo(
            json.dumps(
                {
                    "seconds": seconds,
                    "rounds": rounds,
                    "environment": environment(),
                    "games": [f.to_json() for f in figures],
                }
            )
        )
        return
    console = stdout_console()
    for figure in figures:
        table = _table(
            f"{figure.game}: random playouts, decisions per wall-clock second, {seconds:g} s each in "
            f"{rounds} interleaved rounds (median, min-max); the scalar engine on one core "
            f"{_rate(figure.scalar.median)}/s ({_rate(figure.scalar.min)}-{_rate(figure.scalar.max)})"
        )
        table.add_column("batch", justify="right")
        table.add_column("views")
        table.add_column("decisions/s", justify="right")
        table.add_column("min-max", justify="right")
        table.add_column("x scalar", justify="right")
        table.add_column("compile s", justify="right")
        for rate in figure.sizes:
            spread = rate.decisions_per_s
            table.add_row(
                *text_cells(
                    str(rate.size),
                    "yes" if rate.views else "no",
                    _rate(spread.median),
                    f"{_rate(spread.min)}-{_rate(spread.max)}",
                    f"{spread.median / figure.scalar.median:.2f}" if figure.scalar.median else "-",
                    f"{rate.compile_s:.1f}",
                )
            )
        console.print(table)
        target = figure.target
        best = figure.best
        line = f"{figure.game}: best at batch {best.size}{'' if best.views else ' without views'}, "
        line += f"{_rate(best.decisions_per_s.median)}/s"
        if target is not None:
            met = "meets" if best.decisions_per_s.median >= target else "BELOW"
            line += f", {met} issue 41's target of {_rate(target)}/s"
        console.print(line, markup=False)


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


def _bench_adapters(game_list: list[str], seconds: float, rounds: int, as_json: bool) -> None:
    chosen = game_list or game_ids()
    for game_id in chosen:
        game_info(game_id)
    with needs("tussle bench --adapters", "rl"):
        from tussle.adapters.overhead import LIBRARIES, TARGET, measure_overhead

    rows = []
    with progress(len(chosen), "adapters against the engine") as advance:
        for game_id in chosen:
            rows.append(measure_overhead(game_id, seconds, rounds).to_json())
            advance()
    if as_json:
        click.echo(json.dumps({"seconds": seconds, "rounds": rounds, "target": TARGET, "adapters": rows}))
        return
    # Ratios only in the columns (the microseconds are in --json), so the table fits a terminal;
    # a row for each pick, the agent choosing from the list and from the mask, side by side.
    table = _table(
        f"time per decision against the engine's, {seconds:g} CPU s each, best of {rounds} rounds "
        "(gym: Gymnasium, pz: PettingZoo, spiel: OpenSpiel, rl: its rl_environment); a game's row "
        "has the agent choosing from the legal list, the 'mask' row below it from the mask"
    )
    table.padding = (0, 0)  # the box's own space between columns, so that eleven fit 80 characters
    table.show_edge = False
    table.add_column("game", no_wrap=True)
    table.add_column("engine\nus", justify="right", no_wrap=True)
    short = {"gymnasium": "gym", "pettingzoo": "pz", "openspiel": "spiel", "rl_environment": "rl"}
    for name in LIBRARIES:
        head, _, mode = name.partition("-")
        # Two-line headings, so that the columns fit a narrow terminal.
        table.add_column(short[head] + (f"\n{mode}" if mode else ""), justify="right", no_wrap=True)

    def ratio(value: float) -> str:
        shown = f"{value:.0f}x" if value >= 100 else f"{value:.1f}x"
        return shown + ("*" if round(value, 1) > TARGET else "")

    for row in rows:
        for pick, ratios in (("list", row["ratios"]), ("mask", row.get("mask_ratios", {}))):
            if pick == "mask" and not ratios:
                continue
            table.add_row(
                *text_cells(
                    row["game"] if pick == "list" else " mask",
                    f"{row['engine_us']:.1f}" if pick == "list" else "",
                    *(ratio(ratios[n]) if n in ratios else "-" for n in LIBRARIES),
                )
            )
    console = stdout_console()
    console.print(table)
    over = sum(len(row["over_target"]) for row in rows)
    measured = sum(len(row["ratios"]) + len(row.get("mask_ratios", {})) for row in rows)
    verdict = (
        f"every environment within {TARGET:g}x the engine's time per decision"
        if not over
        else f"* over the target of {TARGET:g}x the engine's time per decision: {over} of {measured}"
    )
    console.print(verdict, markup=False)
    # The target that must hold: Gymnasium within it on every game in one of its ways.
    for row in rows:
        best = row.get("gymnasium_best")
        if best is None:
            continue
        met = "within" if row["gymnasium_within"] else "OVER"
        console.print(
            f"{row['game']}: Gymnasium at best {best['ratio']:.1f}x ({best['way']}), "
            f"{met} its target of {row['gymnasium_target']:g}x",
            markup=False,
        )


def _bench_server(games: int, db_url: str | None, seed: int, as_json: bool, computers: float = 0.0) -> None:
    with needs("tussle bench --server", "server"):
        # The server runs in processes of its own: what they import is checked here first.
        import tussle.server.app  # noqa: F401
        from tussle.server.load import run_load

    # Side by side in one run: people only, then a share of the games against a computer seat.
    shares = [0.0] if not computers else [0.0, computers]
    rows = [run_load(games, db=db_url, seed=seed, computers=share).to_json() for share in shares]
    if as_json:
        click.echo(json.dumps(rows if len(rows) > 1 else rows[0]))
        return
    for data in rows:
        stdout_console().print(
            f"{data['games']} games at once on {data['db']} ({data['computer_games']} against a computer): "
            f"{data['actions']} people's actions in {data['seconds']} s, {data['actions_per_s']} actions/s; "
            f"latency p50 {data['latency_p50_ms']} ms, p95 {data['latency_p95_ms']} ms, "
            f"p99 {data['latency_p99_ms']} ms; errors {data['errors']}, lost events {data['lost_events']}; "
            f"memory: server {data['server_mb']} MB, workers {data['workers_mb']} MB",
            markup=False,
        )


def _bench_vs_openspiel(
    game_list: list[str],
    *,
    agents: list[str],
    options: dict[str, str],
    games: int,
    move_seconds: float,
    seed: int,
    as_json: bool,
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
        info = game_info(game_id)
        for name in options:
            info.option(name)  # an unknown option is a one-line error before any game
    with needs("tussle bench --vs-openspiel", "openspiel"):
        from tussle.adapters.openspiel_bench import compare_with_openspiel
    given = {game_id: read_documents(game_id, options) for game_id in chosen}
    rows = []
    with progress(len(chosen) * len(agents), "tussle vs OpenSpiel MCTSBot") as advance:
        for game_id in chosen:
            for agent in agents:
                rows.append(
                    compare_with_openspiel(
                        game_id, move_seconds, games, seed, options=given[game_id], agent=agent
                    )
                )
                advance()
    if as_json:
        click.echo(json.dumps({"vs_openspiel": rows}))
        return
    console = stdout_console()
    table = _table(f"tussle against OpenSpiel's MCTSBot at the same time per move, seed {seed}")
    headings = ("game", "tussle", "games", "tussle\nW-L-D")
    for column in (*headings, "tussle\ns/move", "MCTSBot\ns/move", "tussle\nit/s", "MCTSBot\nit/s"):
        table.add_column(column, justify="left" if column in ("game", "tussle") else "right", no_wrap=True)
    for row in rows:
        table.add_row(
            *text_cells(
                row["game"],
                row["agent"],
                str(row["games"]),
                f"{row['tussle_wins']}-{row['openspiel_wins']}-{row['draws']}",
                f"{row['tussle_seconds_per_move']:.3f}",
                f"{row['openspiel_seconds_per_move']:.3f}",
                _rate(row["tussle_iterations_per_second"]),
                _rate(row["openspiel_iterations_per_second"]),
            )
        )
    console.print(table)
    if options:
        console.print("options: " + ", ".join(f"{k}={v}" for k, v in options.items()), markup=False)


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
