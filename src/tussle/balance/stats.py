"""Intervals and tests for the balance figures (scipy's, not home-made).

>>> p, lo, hi = wilson(60, 100)
>>> round(p, 2), round(lo, 3), round(hi, 3)
(0.6, 0.502, 0.691)
>>> d, lo, hi = difference(60, 100, 40, 100)
>>> round(d, 2), lo > 0
(0.2, True)
"""

from __future__ import annotations

import math

from scipy import stats

#: The confidence of every interval tussle balance reports.
CONFIDENCE = 0.95


def wilson(k: int, n: int) -> tuple[float, float, float]:
    """The proportion ``k/n`` and its 95% Wilson score interval (NaN when ``n`` is 0)."""
    if n <= 0:
        return math.nan, math.nan, math.nan
    interval = stats.binomtest(k, n).proportion_ci(confidence_level=CONFIDENCE, method="wilson")
    return k / n, float(interval.low), float(interval.high)


def difference(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float, float]:
    """``k1/n1 - k2/n2`` and its 95% interval (Newcombe's hybrid score method, from Wilson intervals)."""
    if n1 <= 0 or n2 <= 0:
        return math.nan, math.nan, math.nan
    p1, l1, u1 = wilson(k1, n1)
    p2, l2, u2 = wilson(k2, n2)
    d = p1 - p2
    return d, d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def no_advantage(wins: list[int]) -> float:
    """The p-value of the seats' win counts under "no seat has an advantage".

    Two seats: an exact binomial test of the first seat's share of the decided
    games; more: a chi-square test of equal win counts.

    >>> round(no_advantage([50, 50]), 3)
    1.0
    >>> no_advantage([80, 20]) < 0.001
    True
    """
    total = sum(wins)
    if total == 0:
        return math.nan
    if len(wins) == 2:
        return float(stats.binomtest(wins[0], total, 0.5).pvalue)
    return float(stats.chisquare(wins).pvalue)


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """A mean and its 95% t interval (NaN bounds with fewer than two values)."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = sum(values) / n
    if n < 2:
        return mean, math.nan, math.nan
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = float(stats.t.ppf(0.5 + CONFIDENCE / 2, n - 1)) * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def paired(differences: list[float]) -> tuple[float, float, float, float]:
    """The mean of per-game differences, its 95% t interval and the p-value of "the mean is 0".

    For two groups measured in the same games (two seats, say): each game gives one
    difference, so the groups' correlation is in the interval (a paired t test).
    NaN bounds with fewer than two games or with no spread at all (20 copies of one game
    give no interval of width 0); then the p-value is 1 for a mean of 0, else NaN.

    >>> d, lo, hi, p = paired([1.0, 1.0, -1.0, 0.0, 1.0, 1.0, 1.0, -1.0])
    >>> round(d, 3), lo < 0 < hi, round(p, 3)
    (0.375, True, 0.285)
    """
    mean, low, high = mean_interval(differences)
    if len(differences) < 2:
        return mean, low, high, math.nan
    if low == high:
        return mean, math.nan, math.nan, 1.0 if mean == 0 else math.nan
    return mean, low, high, float(stats.ttest_1samp(differences, 0.0).pvalue)


def sign_test(positive: int, negative: int) -> float:
    """The exact p-value of "a positive difference is as likely as a negative one" (ties left out).

    >>> round(sign_test(15, 5), 4)
    0.0414
    """
    if positive + negative == 0:
        return math.nan
    return float(stats.binomtest(positive, positive + negative, 0.5).pvalue)


def clustered_difference(
    with_wins: list[float], with_n: list[float], without_wins: list[float], without_n: list[float]
) -> tuple[float, float, float, float]:
    """``sum(with_wins)/sum(with_n) - sum(without_wins)/sum(without_n)`` with a 95% interval and p-value
    that count each game once: its two lists give one game each (wins and seats with a thing, without it).

    Seats of one game are not independent (when one wins another loses), so the variance
    is the cluster-robust (by game) delta-method variance of the two ratio estimates and of
    their covariance, with Student's t on games - 1 degrees of freedom. With one seat with
    and one without in every game it is the paired t interval of the per-game differences.

    >>> d, lo, hi, p = clustered_difference([1, 0, 1, 1], [1, 1, 1, 1], [0, 1, 0, 0], [1, 1, 1, 1])
    >>> d, round(lo, 3), round(hi, 3), round(p, 3)
    (0.5, -1.091, 2.091, 0.391)
    """
    games = len(with_wins)
    m, k = sum(with_n), sum(without_n)
    if games < 2 or m <= 0 or k <= 0:
        return math.nan, math.nan, math.nan, math.nan
    p1, p2 = sum(with_wins) / m, sum(without_wins) / k
    d = p1 - p2
    # Each game's contribution to the estimate's error: its residual in each ratio.
    rows = zip(with_wins, with_n, without_wins, without_n, strict=True)
    u = [(a - p1 * n) / m - (b - p2 * j) / k for a, n, b, j in rows]
    mean_u = sum(u) / games
    variance = games / (games - 1) * sum((x - mean_u) ** 2 for x in u)
    if variance <= 0:
        return d, math.nan, math.nan, 1.0 if d == 0 else math.nan
    se = math.sqrt(variance)
    t = float(stats.t.ppf(0.5 + CONFIDENCE / 2, games - 1))
    p = float(2 * stats.t.sf(abs(d) / se, games - 1))
    return d, d - t * se, d + t * se, p


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error), NaN kept where a p-value is NaN.

    >>> [round(p, 4) for p in holm([0.01, 0.04, 0.03, 0.005])]
    [0.03, 0.06, 0.06, 0.02]
    >>> holm([1e-57, 0.5])  # a tiny p-value stays exact
    [2e-57, 0.5]
    """
    found = sorted((p, i) for i, p in enumerate(p_values) if not math.isnan(p))
    out = [math.nan] * len(p_values)
    running = 0.0
    for rank, (p, i) in enumerate(found):
        running = max(running, min(1.0, (len(found) - rank) * p))
        out[i] = running
    return out


def benjamini_hochberg(p_values: list[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (false discovery rate; scipy's), NaN kept where NaN.

    >>> [round(p, 4) for p in benjamini_hochberg([0.01, 0.04, 0.03, 0.005])]
    [0.02, 0.04, 0.04, 0.02]
    """
    kept = [i for i, p in enumerate(p_values) if not math.isnan(p)]
    out = [math.nan] * len(p_values)
    if kept:
        adjusted = stats.false_discovery_control([p_values[i] for i in kept], method="bh")
        for i, p in zip(kept, adjusted, strict=True):
            out[i] = float(p)
    return out


def format_p(p: float) -> str:
    """A p-value as text: never "0.000", small ones in scientific notation.

    >>> format_p(0.04321), format_p(1.9e-06), format_p(0.0), format_p(float("nan"))
    ('0.0432', '1.9e-06', '< 1e-300', 'n/a')
    """
    if math.isnan(p):
        return "n/a"
    if p == 0:
        return "< 1e-300"
    return f"{p:.3g}" if p >= 0.001 else f"{p:.2g}"


def p_is(p: float) -> str:
    """What follows "p" in a sentence: "= 0.0432", or "< 1e-300" (never "p = < 1e-300").

    >>> p_is(0.04321), p_is(0.0)
    ('= 0.0432', '< 1e-300')
    """
    text = format_p(p)
    return text if text.startswith("<") else f"= {text}"
