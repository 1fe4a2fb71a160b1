#!/usr/bin/python3
"""Renders the tables of docs/systems/*.md from the regression suite's result baselines.

Every number the system pages show as "ours" comes from bench/baselines/<check>.json, which
`coinfer check bench/regression.yaml` compares with the code; the paper's values come from the
same files (a scenario's `report:` block is recorded there as the run `report`). A table sits
between two markers and is replaced whole:

    <!-- generated: report modnn-table1-report rows=0-4 -->
    ... (rewritten) ...
    <!-- /generated -->

    <!-- generated: grid cbo-fig11 value=scheduler_metrics.accuracy row=variant col=rate fmt=.3f -->

`report CHECK`: the rows of a scenario's report block (name | ours | paper | gap), `rows=0-4,7`
(0-based, inclusive ranges) picks some of them. `grid CHECK`: a sweep's runs pivoted, `row=` and `col=`
name results.csv columns whose values label the rows and columns, `value=` the column shown,
`col=A,B` labels columns by several values, `heads=x|y|z` renames the columns in order,
`where=COLUMN=TEXT` (`;`-separated) keeps matching runs (`COLUMN!=TEXT` the others; an empty cell is `-`), `fmt=` is a Python format spec and
`corner=` the top-left cell's text (`_` stands for a space in `heads` and `corner`). `claims CHECK`:
a claims ledger's verdicts (claim | the paper says | ours | paper | holds | why not: the ledger's
`cause`, "not found yet" without one), from a `claims:` check; `why=no` leaves the "why not" column
out (a sensitivity ledger, whose failing rows are themselves the evidence).

    scripts/render-docs.py            # rewrite the tables in place
    scripts/render-docs.py --check    # exit 1 and print a diff when a committed table is stale
"""
import argparse
import difflib
import json
import math
import pathlib
import re
import sys

BEGIN = re.compile(r"^<!-- generated: (\S+) (\S+)((?: [^>]*)?) -->$")
END = "<!-- /generated -->"


class DocError(Exception):
    """Bad input: the message names the file and line."""


def number(v):
    """The C++ report's format (sim/report/reference_report.cpp): 0 decimals from 100 up, else 2."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    if isinstance(v, str):
        return v
    return f"{v:.0f}" if abs(v) >= 100 else f"{v:.2f}"


def paper_text(v):
    """A paper's value as the paper prints it: 84, 10.43, or its text."""
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return f"{v:g}"
    return number(v)


def load_baseline(root, check, where):
    path = root / "bench" / "baselines" / f"{check}.json"
    if not path.exists():
        raise DocError(f"{where}: no baseline {path.relative_to(root)} (record it with "
                       f"`build/coinfer check bench/regression.yaml --update --only {check}`)")
    return json.loads(path.read_text())["metrics"]


def runs_of(metrics):
    """{label: {key: value}} in the baseline's order of first appearance."""
    runs = {}
    for name, value in metrics.items():
        label, _, key = name.partition("/")
        runs.setdefault(label, {})[key] = value
    return runs


def parse_options(text, where):
    options = {}
    for item in text.split():
        key, eq, value = item.partition("=")
        if not eq:
            raise DocError(f"{where}: expected key=value, got '{item}'")
        options[key] = value
    return options


def render_report(metrics, options, where):
    report = runs_of(metrics).get("report")
    if report is None:
        raise DocError(f"{where}: the baseline has no report rows (metrics report/rows.*.ours, ...)")
    count = 1 + max(int(k.split(".")[1]) for k in report if k.startswith("rows."))
    picked = list(range(count))
    if "rows" in options:
        picked = []
        for part in options["rows"].split(","):
            a, _, b = part.partition("-")
            if not a.isdigit() or not (b or a).isdigit() or not int(a) <= int(b or a) < count:
                raise DocError(f"{where}: rows={options['rows']}: '{part}' is not a range in 0-{count - 1}")
            picked += range(int(a), int(b or a) + 1)
    lines = ["| | ours | paper | gap |", "|---|---|---|---|"]
    for i in picked:
        name = report[f"rows.{i}.name"]
        ours = report.get(f"rows.{i}.ours")
        paper = report.get(f"rows.{i}.paper")
        gap = "-"
        if isinstance(paper, (int, float)) and paper != 0 and isinstance(ours, (int, float)):
            gap = f"{round(100.0 * (ours - paper) / paper, 1) + 0.0:+.1f}%"  # + 0.0: no "-0.0%"
        lines.append(f"| {name} | {number(ours)} | {paper_text(paper)} | {gap} |")
    if report.get("source"):
        lines += ["", f"Paper: {report['source']}."]
    return lines


def cell_text(value, fmt):
    if isinstance(value, (int, float)) and not isinstance(value, bool) and fmt:
        return format(value, fmt)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "-" if value is None else str(value)


def render_grid(metrics, options, where):
    for key in ("row", "col", "value"):
        if key not in options:
            raise DocError(f"{where}: grid needs {key}=COLUMN")
    runs = list(runs_of(metrics).values())
    for cond in filter(None, options.get("where", "").split(";")):
        column, _, text = cond.partition("=")
        keep = not column.endswith("!")  # COLUMN!=TEXT keeps the runs that do not match
        runs = [r for r in runs if (cell_text(r.get(column.rstrip("!")), "") == text) == keep]
    col_keys = options["col"].split(",")
    rows, cols, cells = [], [], {}
    for run in runs:
        for key in [options["row"], options["value"]] + col_keys:
            if key not in run:
                raise DocError(f"{where}: the baseline's runs have no column '{key}'")
        r = cell_text(run[options["row"]], "")
        c = " ".join(cell_text(run[k], "") for k in col_keys)
        rows += [r] if r not in rows else []
        cols += [c] if c not in cols else []
        cells[(r, c)] = cell_text(run[options["value"]], options.get("fmt", ""))
    if not cells:
        raise DocError(f"{where}: no run matches where={options.get('where')}")
    corner = options.get("corner", "").replace("_", " ")
    heads = cols
    if "heads" in options:
        heads = options["heads"].replace("_", " ").split("|")
        if len(heads) != len(cols):
            raise DocError(f"{where}: heads= names {len(heads)} columns, the runs have {len(cols)}: "
                           + ", ".join(cols))
    lines = [table_row([corner] + heads), "|" + "---|" * (len(cols) + 1)]
    lines += [table_row([r] + [cells.get((r, c), "-") for c in cols]) for r in rows]
    return lines


def claim_number(v):
    """A claim's value: 0 decimals from 100 up, else 3 significant digits (differences of 0.004)."""
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        return "-"
    if abs(v) < 1e-9:
        return "0"  # a rounding residue, not a value
    return f"{v:.0f}" if abs(v) >= 100 else f"{v:.3g}"


def render_claims(metrics, options, where):
    unknown = set(options) - {"why"}
    if unknown or options.get("why", "yes") not in ("yes", "no"):
        raise DocError(f"{where}: a claims table takes only why=yes|no")
    with_why = options.get("why", "yes") == "yes"
    runs = runs_of(metrics)
    if not runs or any("held" not in c or "claim" not in c for c in runs.values()):
        raise DocError(f"{where}: the baseline has no claims (metrics */ours, */held, */paper, */claim, */source)")
    held = sum(1 for c in runs.values() if c["held"] is True)
    head = ["claim", "the paper says", "ours", "paper", "holds"] + (["why not"] if with_why else [])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for cid, c in runs.items():
        ok = c["held"] is True
        row = (f"| `{cid}` | {c['claim']} {c.get('source', '')} | {claim_number(c.get('ours'))} | "
               f"{c.get('paper', '-')} | {'yes' if ok else '**no**'} |")
        if with_why:
            why = "" if ok else (c.get("cause") or "not found yet")
            row += f" {why} |" if why else " |"
        lines.append(row)
    lines += ["", f"{held} of {len(runs)} claims hold."]
    return lines


def table_row(cells):
    return "|" + "|".join(f" {c} " if c else " " for c in cells) + "|"


RENDERERS = {"report": render_report, "grid": render_grid, "claims": render_claims}


def render_page(root, path):
    """The page's text with every generated block rewritten."""
    out, lines, i = [], path.read_text().split("\n"), 0
    while i < len(lines):
        out.append(lines[i])
        m = BEGIN.match(lines[i])
        i += 1
        if not m:
            continue
        where = f"{path.relative_to(root)}:{i}"
        kind, check, rest = m.groups()
        if kind not in RENDERERS:
            raise DocError(f"{where}: unknown table kind '{kind}'; known: {', '.join(RENDERERS)}")
        end = next((j for j in range(i, len(lines)) if lines[j] == END), None)
        if end is None:
            raise DocError(f"{where}: no '{END}' after the marker")
        metrics = load_baseline(root, check, where)
        out += RENDERERS[kind](metrics, parse_options(rest, where), where)
        out.append(END)
        i = end + 1
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 with a diff when a page is stale")
    parser.add_argument("--root", default=pathlib.Path(__file__).resolve().parent.parent, type=pathlib.Path)
    args = parser.parse_args()
    root = args.root.resolve()
    stale = 0
    try:
        for page in sorted((root / "docs" / "systems").glob("*.md")):
            old, new = page.read_text(), render_page(root, page)
            if old == new:
                continue
            rel = str(page.relative_to(root))
            if args.check:
                stale += 1
                sys.stdout.writelines(difflib.unified_diff(
                    old.splitlines(True), new.splitlines(True), rel + " (committed)", rel + " (rendered)"))
            else:
                page.write_text(new)
                print(f"rewrote {rel}")
    except DocError as e:
        print(f"render-docs: error: {e}", file=sys.stderr)
        return 2
    if stale:
        print(f"render-docs: {stale} page(s) differ from the baselines; run scripts/render-docs.py",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
