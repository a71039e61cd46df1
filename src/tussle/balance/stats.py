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
