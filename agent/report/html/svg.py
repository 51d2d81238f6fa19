"""Small inline SVG charts for the static site (no script, no external asset: a page draws
without JavaScript and without the network)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22")
INDUCTOR_COLOR = "#222222"


@dataclass
class Series:
    """One line: a label, a colour and (x, y) points (y > 0 on a log axis)."""

    label: str
    color: str
    points: list[tuple[float, float]]
    dashed: bool = False


def _ticks_log(lo: float, hi: float) -> list[float]:
    """Round values (1, 2, 3, 5 times powers of ten) between ``lo`` and ``hi`` for a log axis."""
    out = []
    for e in range(math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1):
        for m in (1, 2, 3, 5):
            v = m * 10.0**e
            if lo <= v <= hi:
                out.append(v)
    if len(out) > 7:
        out = [v for v in out if f"{v:g}".lstrip("0.").startswith("1")] or out
    return out or [lo, hi]


def line_chart(series: list[Series], x_label: str, y_label: str, width: int = 560, height: int = 260,
               log_y: bool = True, ref_y: float | None = 1.0, x_ticks: list[float] | None = None,
               levels: list[tuple[str, str, float]] = ()) -> str:
    """An SVG line chart with markers, a dashed grey line at ``ref_y``, dashed full-width lines
    for ``levels`` ((label, colour, y): a constant such as Inductor's AS) and a legend.

    Returns an empty string where no series has a point (nothing to draw).
    """
    pts = [p for s in series for p in s.points if not log_y or p[1] > 0]
    if not pts:
        return ""
    pts += [(pts[0][0], y) for _, _, y in levels if not log_y or y > 0]
    left, right, top, bottom = 52, 10 + 150, 12, 36
    pw, ph = width - left - right, height - top - bottom
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts] + ([ref_y] if ref_y else [])
    x0, x1 = min(xs), max(xs)
    if x0 == x1:
        x0, x1 = x0 - 1, x1 + 1
    f = math.log10 if log_y else (lambda v: v)
    y0, y1 = f(min(ys)), f(max(ys))
    pad = (y1 - y0) * 0.08 or 0.1
    y0, y1 = y0 - pad, y1 + pad

    def sx(x: float) -> float:
        return left + (x - x0) / (x1 - x0) * pw

    def sy(y: float) -> float:
        return top + (1 - (f(y) - y0) / (y1 - y0)) * ph

    out = [f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
           f'height="{height}" role="img" aria-label="{escape(y_label)} against {escape(x_label)}">',
           f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="#fff" stroke="#ccc"/>']
    yt = _ticks_log(10**y0, 10**y1) if log_y else [y0 + (y1 - y0) * k / 4 for k in range(5)]
    for v in yt:
        y = sy(v)
        out.append(f'<line x1="{left}" x2="{left + pw}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eee"/>'
                   f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end" class="tick">{v:.3g}</text>')
    for x in x_ticks if x_ticks is not None else sorted(set(xs)):
        out.append(f'<text x="{sx(x):.1f}" y="{top + ph + 14}" text-anchor="middle" class="tick">{x:g}</text>')
    if ref_y is not None:
        out.append(f'<line x1="{left}" x2="{left + pw}" y1="{sy(ref_y):.1f}" y2="{sy(ref_y):.1f}" stroke="#999" '
                   'stroke-dasharray="4 3"/>')
    for i, (label, colour, y) in enumerate(levels):
        ly = top + 12 + 16 * (len(series) + i)
        out.append(f'<line class="level" x1="{left}" x2="{left + pw}" y1="{sy(y):.1f}" y2="{sy(y):.1f}" stroke="{colour}" '
                   f'stroke-width="1.5" stroke-dasharray="6 3"><title>{escape(label)}: {y:.4g}</title></line>'
                   f'<line x1="{left + pw + 10}" x2="{left + pw + 28}" y1="{ly - 4}" y2="{ly - 4}" stroke="{colour}" '
                   f'stroke-width="2" stroke-dasharray="6 3"/><text x="{left + pw + 32}" y="{ly}" class="legend">{escape(label[:22])}</text>')
    for i, s in enumerate(series):
        p = [(sx(x), sy(y)) for x, y in s.points if not log_y or y > 0]
        if not p:
            continue
        dash = ' stroke-dasharray="6 3"' if s.dashed else ""
        out.append(f'<g class="series" data-label="{escape(s.label)}"><polyline fill="none" stroke="{s.color}" '
                   f'stroke-width="2"{dash} points="' + " ".join(f"{x:.1f},{y:.1f}" for x, y in p) + '"/>')
        for (x, y), (_, v) in zip(p, [q for q in s.points if not log_y or q[1] > 0]):
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{s.color}"><title>{escape(s.label)}: {v:.4g}</title></circle>')
        out.append("</g>")
        ly = top + 12 + 16 * i
        out.append(f'<line x1="{left + pw + 10}" x2="{left + pw + 28}" y1="{ly - 4}" y2="{ly - 4}" stroke="{s.color}" '
                   f'stroke-width="2"{dash}/><text x="{left + pw + 32}" y="{ly}" class="legend">{escape(s.label[:22])}</text>')
    out.append(f'<text x="{left + pw / 2:.0f}" y="{height - 4}" text-anchor="middle" class="axis">{escape(x_label)}</text>')
    out.append(f'<text transform="translate(12 {top + ph / 2:.0f}) rotate(-90)" text-anchor="middle" class="axis">'
               f'{escape(y_label)}</text></svg>')
    return "".join(out)
