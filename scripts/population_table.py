#!/usr/bin/python3
"""Prints a population sweep as a table: users within their SLO per number of users (rows) and
variant (columns), from the `population.users` and `population.users_within_slo` columns, or
another results.csv column per number of users and variant.

    scripts/population_table.py RESULTS.csv
    scripts/population_table.py RESULTS.csv --value scheduler_metrics.accuracy [--format .3f]

A cell reads `within/users`, or with --value the column's value in --format (a Python format
spec, default .3f). A row per distinct `population.users`, in increasing order; a column per
`variant` in order of first appearance (or one column `-` when the sweep has no variants).
Exit 2 with one line when the file lacks a column or a cell is not a number (a whole number for
the users columns).
"""
import argparse
import csv
import sys


WITHIN = "population.users_within_slo"


def population_table(path, value=WITHIN):
    """{users: {variant: value}} and the variants in order of first appearance."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    table, variants = {}, []
    for line, row in enumerate(rows, start=2):
        for column in ("population.users", value):
            if row.get(column) is None:
                raise ValueError(f"{path}: no column '{column}' (a sweep of a population with "
                                 f"`columns: [population.users, {value}]`)")
        for column in ("population.users", WITHIN) if value == WITHIN else ("population.users",):
            if not row[column].isdigit():
                raise ValueError(f"{path}: line {line}: {column}: expected a whole number, got '{row[column]}'")
        try:
            cell = int(row[value]) if value == WITHIN else float(row[value])
        except ValueError:
            raise ValueError(f"{path}: line {line}: {value}: expected a number, got '{row[value]}'") from None
        variant = row.get("variant") or "-"
        if variant not in variants:
            variants.append(variant)
        table.setdefault(int(row["population.users"]), {})[variant] = cell
    return table, variants


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", help="a sweep's results.csv")
    parser.add_argument("--value", default=WITHIN, help=f"the column shown (default {WITHIN}: within/users)")
    parser.add_argument("--format", default=".3f", help="a Python format spec for --value (default .3f)")
    args = parser.parse_args()
    try:
        format(0.0, args.format)
    except ValueError:
        print(f"population_table: error: --format: '{args.format}' is no Python format spec", file=sys.stderr)
        return 2
    try:
        table, variants = population_table(args.results, args.value)
    except (OSError, ValueError) as e:
        print(f"population_table: error: {e}", file=sys.stderr)
        return 2

    def shown(n, v):
        if v not in table[n]:
            return ""
        return f"{table[n][v]}/{n}" if args.value == WITHIN else format(table[n][v], args.format)

    header = ["users"] + variants
    cells = [[str(n)] + [shown(n, v) for v in variants] for n in sorted(table)]
    widths = [max(len(r[i]) for r in [header] + cells) for i in range(len(header))]
    print("  ".join(h.rjust(w) for h, w in zip(header, widths)))
    for r in cells:
        print("  ".join(c.rjust(w) for c, w in zip(r, widths)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
