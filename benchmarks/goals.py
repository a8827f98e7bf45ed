"""The issues' goals, checked against one run's figures.

1. Our append within 1.5x of raw sqlite3 (same schema, same pragmas), projections included.
2. Ahead of every framework store on append and on whole-session read, at equal durability.
3. Replaying a session costs the same whatever the database's total size (within 1.5x).
4. A turn at 6,000 events within 1.5x of a turn at 30 (over HTTP).
5. ``GET /health`` on a kept-alive connection: p50 under 2 ms.
6. One slow message: another session's p99 under 100 ms while 64 KiB messages are posted.
7. Delivery of an event written through the server to its stream readers: p50 under 10 ms.
8. 64 streams catching up a 20,000-event session: ``/health`` p99 under 100 ms meanwhile,
   and the server's memory within 100 MB of its start once they have closed.

Every ratio is taken round by round (see :mod:`benchmarks.measure`); a verdict whose middle
half of rounds falls on both sides of its limit is marked "not settled" rather than claimed.
"""

from __future__ import annotations

from collections.abc import Callable

from benchmarks.chat_bench import ChatFigures
from benchmarks.measure import Ratio, paired_ratio
from benchmarks.results import Results
from benchmarks.tables import Table

APPEND_OVER_RAW_LIMIT = 1.5
REPLAY_GROWTH_LIMIT = 1.5
TURN_GROWTH_LIMIT = 1.5
HEALTH_P50_LIMIT_MS = 2.0
SLOW_MESSAGE_P99_LIMIT_MS = 100.0
DELIVERY_P50_LIMIT_MS = 10.0
CATCH_UP_HEALTH_P99_LIMIT_MS = 100.0
CATCH_UP_MEMORY_LIMIT_MB = 100.0

Row = tuple[str, str, str]


def goals_table(results: Results) -> Table:
    """One row per goal: the goal, the figure that decides it, and the verdict."""
    rows = [_append_near_floor(results), _ahead_of_frameworks(results), _replay_flat(results)]
    rows += _http_goals(results)
    rows += _stream_goals(results)
    note = (
        "Ratios are medians of per-round ratios; 'middle half a-b' is their quartiles. A"
        " verdict whose middle half lies on both sides of its limit is 'not settled'."
    )
    return Table("Goals", ("Goal", "Measured", "Verdict"), rows, [note])


def _verdict(met: bool, ratio: Ratio | None = None, limit: float = 0.0) -> str:
    verdict = "met" if met else "MISSED"
    if ratio is not None and ratio.straddles(limit):
        return f"{verdict}, not settled (middle half on both sides of {limit:g})"
    return verdict


def _append_near_floor(results: Results) -> Row:
    goal = f"our append within {APPEND_OVER_RAW_LIMIT}x of raw sqlite3"
    worst: tuple[Ratio, str] | None = None
    for raw in _figures_with_role(results, "floor"):
        ours = results.ours_like(raw)
        if ours is None:
            continue
        ratio = _ratio(ours, raw, "append")
        if worst is None or ratio.median > worst[0].median:
            worst = (ratio, f"{ours.system} vs {raw.system}, {raw.messages:,} messages")
    if worst is None:
        return goal, "not measured", "-"
    ratio, where = worst
    met = ratio.median <= APPEND_OVER_RAW_LIMIT
    return goal, f"worst {ratio} ({where})", _verdict(met, ratio, APPEND_OVER_RAW_LIMIT)


def _ahead_of_frameworks(results: Results) -> Row:
    goal = "ahead of every framework on append and read at equal durability"
    compared: list[tuple[Ratio, str]] = []
    for theirs in _figures_with_role(results, "framework"):
        ours = results.ours_like(theirs)
        if ours is None:
            continue
        for measure in _MEASURES:
            where = f"{measure}: {theirs.system} at {theirs.messages:,}"
            compared.append((_ratio(theirs, ours, measure), where))
    if not compared:
        return goal, "no framework ran", "-"
    behind = [f"{where} ({ratio})" for ratio, where in compared if ratio.median <= 1.0]
    closest, where = min(compared, key=lambda pair: pair[0].median)
    measured = f"{len(compared)} comparisons; closest {where}: theirs/ours {closest}"
    if behind:
        measured += "; behind in " + "; ".join(behind)
    return goal, measured, _verdict(not behind, closest, 1.0)


def _replay_flat(results: Results) -> Row:
    goal = f"replay cost independent of database size (within {REPLAY_GROWTH_LIMIT}x)"
    if len(results.replay) < 2:
        return goal, "not measured", "-"
    alone, largest = results.replay[0], results.replay[-1]
    ratio = paired_ratio(
        largest.replay_samples,
        alone.replay_samples,
        (largest.replay_seconds, alone.replay_seconds),
    )
    measured = f"{ratio} ({largest.total_events:,} events vs {alone.total_events:,})"
    return goal, measured, _verdict(ratio.median <= REPLAY_GROWTH_LIMIT, ratio, REPLAY_GROWTH_LIMIT)


def _http_goals(results: Results) -> list[Row]:
    http = results.http
    if http is None:
        return [("the HTTP goals", "not measured", "-")]
    shortest, longest = http.by_length[0], http.by_length[-1]
    growth = longest.ratio_to(shortest)
    health_ms, victim_ms = http.health.p50 * 1e3, http.victim.p99 * 1e3
    return [
        (
            f"a turn at {longest.events:,} events within {TURN_GROWTH_LIMIT}x of one at"
            f" {shortest.events:,}",
            f"{growth} ({longest.turn.p50 * 1e3:.2f} ms vs {shortest.turn.p50 * 1e3:.2f} ms)",
            _verdict(growth.median <= TURN_GROWTH_LIMIT, growth, TURN_GROWTH_LIMIT),
        ),
        (
            f"GET /health on a kept-alive connection: p50 under {HEALTH_P50_LIMIT_MS:g} ms",
            f"p50 {health_ms:.2f} ms, p99 {http.health.p99 * 1e3:.2f} ms",
            _verdict(health_ms < HEALTH_P50_LIMIT_MS),
        ),
        (
            f"one slow message: another session's p99 under {SLOW_MESSAGE_P99_LIMIT_MS:g} ms",
            f"p99 {victim_ms:.1f} ms over {http.victim.count:,} turns, beside"
            f" {http.heavy_posts:,} posts of 64 KiB worst-case text",
            _verdict(victim_ms < SLOW_MESSAGE_P99_LIMIT_MS),
        ),
    ]


def _stream_goals(results: Results) -> list[Row]:
    streams = results.streams
    if streams is None:
        return [("the event-stream goals", "not measured", "-")]
    delivery = {point.readers: point.delay.p50 * 1e3 for point in streams.delivery}
    missed = [readers for readers, p50 in delivery.items() if p50 >= DELIVERY_P50_LIMIT_MS]
    measured = "; ".join(f"{readers} readers {p50:.1f} ms" for readers, p50 in delivery.items())
    verdict = "met" if not missed else f"MISSED at {', '.join(map(str, missed))} readers"
    catch_up = streams.catch_up
    health_ms = catch_up.health.p99 * 1e3
    growth = catch_up.memory_after_mb - catch_up.memory_before_mb
    return [
        (
            f"delivery through the same server: p50 under {DELIVERY_P50_LIMIT_MS:g} ms",
            f"p50 {measured}",
            verdict,
        ),
        (
            f"/health p99 under {CATCH_UP_HEALTH_P99_LIMIT_MS:g} ms while {catch_up.streams}"
            f" streams catch up {catch_up.events:,} events",
            f"p99 {health_ms:.1f} ms over {catch_up.health.count:,} calls",
            _verdict(health_ms < CATCH_UP_HEALTH_P99_LIMIT_MS),
        ),
        (
            f"server memory within {CATCH_UP_MEMORY_LIMIT_MB:g} MB of its start once they close",
            f"{catch_up.memory_before_mb:.0f} MB before, {catch_up.memory_peak_mb:.0f} MB at"
            f" most, {catch_up.memory_after_mb:.0f} MB after",
            _verdict(growth < CATCH_UP_MEMORY_LIMIT_MB),
        ),
    ]


def _figures_with_role(results: Results, role: str) -> list[ChatFigures]:
    names = set(results.names_with_role(role))
    return [figures for figures in results.chat if figures.system in names]


#: For each measure: the per-round times, and the median (used when no rounds were kept).
_MEASURES: dict[
    str, tuple[Callable[[ChatFigures], tuple[float, ...]], Callable[[ChatFigures], float]]
] = {
    "append": (lambda f: f.append_samples, lambda f: f.append_seconds),
    "read": (lambda f: f.read_all_samples, lambda f: f.read_all_seconds),
}


def _ratio(top: ChatFigures, bottom: ChatFigures, measure: str) -> Ratio:
    samples, median_of = _MEASURES[measure]
    return paired_ratio(samples(top), samples(bottom), (median_of(top), median_of(bottom)))
