#!/usr/bin/python3
"""Draws a sweep's metric against one of its axes: the mean over seeds with its confidence interval.

    scripts/plot_sweep.py RESULTS.csv --x COLUMN --y METRIC [--by COLUMN,...] [--ci 95]
                          [--coinfer PATH] [--summary-csv FILE] -o FIGURE.png

One line per value of the --by columns; each point is the mean of METRIC over the rows that share
its x and --by values (name every sweep axis but the seed in --x and --by, and those rows are the
seeds), with an error bar from the interval's low to its high end. The numbers come from
`coinfer summarize` (Student-t interval, the same as that command prints); a point of one row has
no bar. An x column whose values are all numbers is drawn to scale, any other in order of first
appearance. Errors (a missing column, a cell that is not a number, a level outside (0, 100)) are
coinfer's: one line, exit 2.

From a notebook:

    import sys; sys.path.insert(0, str(root / "scripts"))
    from plot_sweep import plot_sweep
    ax, points = plot_sweep("out/noisy/results.csv", x="partitioner", y="latency_ms.mean")
"""
import argparse
import csv
import io
import logging
import math
import os
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class SweepPlotError(Exception):
    """A bad input, in one line."""


def find_coinfer(coinfer=None):
    """--coinfer, else $COINFER, else `coinfer` on PATH, else the repository's build/coinfer."""
    for candidate in (coinfer, os.environ.get("COINFER"), shutil.which("coinfer"),
                      os.path.join(REPO, "build", "coinfer")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise SweepPlotError("no coinfer binary: give --coinfer PATH or set COINFER (build it with scripts/test.sh)")


def summarize(results_csv, x, y, by=(), ci=95.0, coinfer=None):
    """Rows of `coinfer summarize RESULTS --by x,by... --metrics y --ci ci` as dicts: the group
    columns, then n (int), mean, sd, low and high (floats, NaN where coinfer leaves them empty)."""
    by = list(by)
    if x in by:
        raise SweepPlotError(f"--x {x} is also in --by: name each column once")
    binary = find_coinfer(coinfer)
    with tempfile.TemporaryDirectory(prefix="coinfer_plot_") as tmp:
        summary = os.path.join(tmp, "summary.csv")
        run = subprocess.run([binary, "summarize", results_csv, "--by", ",".join([x] + by), "--metrics", y,
                              "--ci", f"{ci:g}", "--csv", summary],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if run.returncode != 0:
            raise SweepPlotError(run.stderr.strip() or f"coinfer summarize exited with {run.returncode}")
        with open(summary, newline="") as f:
            text = f.read()
    low, high = f"ci{ci:g}_low", f"ci{ci:g}_high"
    number = lambda cell: float(cell) if cell != "" else math.nan
    rows = []
    for row in csv.DictReader(io.StringIO(text)):
        out = {column: row[column] for column in [x] + by}
        out.update(n=int(row["n"]), mean=number(row["mean"]), sd=number(row["sd"]),
                   low=number(row[low]), high=number(row[high]))
        rows.append(out)
    return rows


def _as_numbers(values):
    try:
        return [float(v) for v in values]
    except ValueError:
        return None


def plot_sweep(results_csv, x, y, by=(), ci=95.0, coinfer=None, ax=None):
    """Draws the summary on `ax` (a new figure's when None). Returns the axes and the points: one
    dict per drawn point with its line (a tuple of the --by values), x, mean, low, high and n."""
    import matplotlib
    if ax is None:
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        _, ax = plt.subplots(figsize=(7, 4))
    by = list(by)
    rows = summarize(results_csv, x, y, by, ci, coinfer)
    xs = list(dict.fromkeys(row[x] for row in rows))
    numeric = _as_numbers(xs)
    position = dict(zip(xs, numeric if numeric is not None else range(len(xs))))
    lines = list(dict.fromkeys(tuple(row[c] for c in by) for row in rows))
    points = []
    for k, line in enumerate(lines):
        mine = sorted((row for row in rows if tuple(row[c] for c in by) == line), key=lambda r: position[r[x]])
        # Categories side by side: each line a little to the right of the one before.
        shift = 0.0 if numeric is not None or len(lines) == 1 else (k - (len(lines) - 1) / 2) * 0.08
        px = [position[r[x]] + shift for r in mine]
        means = [r["mean"] for r in mine]
        below = [r["mean"] - r["low"] if r["n"] > 1 else 0.0 for r in mine]
        above = [r["high"] - r["mean"] if r["n"] > 1 else 0.0 for r in mine]
        label = ", ".join(f"{c}={v}" for c, v in zip(by, line)) or None
        ax.errorbar(px, means, yerr=[below, above], fmt="o-" if numeric is not None else "o", capsize=3,
                    label=label)
        points += [dict(line=line, x=r[x], mean=r["mean"], low=r["low"], high=r["high"], n=r["n"]) for r in mine]
    if numeric is None:
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels([v if len(v) <= 24 else v[:23] + "…" for v in xs], rotation=15, ha="right")
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.set_title(f"{y}: mean and {ci:g}% interval over seeds")
    if by:
        ax.legend()
    return ax, points


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", help="a results CSV (a sweep's results.csv)")
    parser.add_argument("--x", required=True, help="the column on the x axis")
    parser.add_argument("--y", required=True, help="the metric column drawn")
    parser.add_argument("--by", default="", help="columns whose values make separate lines (comma-separated)")
    parser.add_argument("--ci", type=float, default=95.0, help="interval level in percent (default 95)")
    parser.add_argument("--coinfer", help="the coinfer binary (default: $COINFER, PATH, build/coinfer)")
    parser.add_argument("--summary-csv", help="also write the points drawn as CSV")
    parser.add_argument("-o", "--output", required=True, help="the figure to write (.png, .svg, .pdf)")
    args = parser.parse_args(argv)
    # Matplotlib's notes on stderr (building its font cache on a fresh machine, a temporary config
    # folder under a read-only HOME) would end up in every caller's output: only its errors show.
    logging.getLogger("matplotlib").setLevel(logging.ERROR)
    by = [c for c in args.by.split(",") if c]
    try:
        ax, points = plot_sweep(args.results, args.x, args.y, by, args.ci, args.coinfer)
    except SweepPlotError as e:
        print(f"plot_sweep: {e}", file=sys.stderr)
        return 2
    ax.figure.tight_layout()
    ax.figure.savefig(args.output, dpi=120, metadata={"Software": None} if args.output.endswith(".png") else None)
    if args.summary_csv:
        with open(args.summary_csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(by + [args.x, "n", "mean", "low", "high"])
            for p in points:
                cells = [repr(p[k]) if not math.isnan(p[k]) else "" for k in ("mean", "low", "high")]
                w.writerow(list(p["line"]) + [p["x"], p["n"]] + cells)
    counts = sorted({p["n"] for p in points})
    seeds = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
    lines = len({p["line"] for p in points})
    plural = lambda count, word: f"{count} {word}{'s' if count != 1 else ''}"
    print(f"wrote {args.output}: {args.y} over {args.x}, {plural(len(points), 'point')} on "
          f"{plural(lines, 'line')}, {seeds} rows each, {args.ci:g}% intervals")
    return 0


if __name__ == "__main__":
    sys.exit(main())
