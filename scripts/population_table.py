#!/usr/bin/python3
"""Prints a population sweep as a table: users within their SLO per number of users (rows) and
variant (columns), from the `population.users` and `population.users_within_slo` columns.

    scripts/population_table.py RESULTS.csv

A cell reads `within/users`. A row per distinct `population.users`, in increasing order; a column
per `variant` in order of first appearance (or one column `-` when the sweep has no variants).
Exit 2 with one line when the file lacks a column or a cell is not a whole number.
"""
import argparse
import csv
import sys


def population_table(path):
    """{users: {variant: within}} and the variants in order of first appearance."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    table, variants = {}, []
    for line, row in enumerate(rows, start=2):
        for column in ("population.users", "population.users_within_slo"):
            if row.get(column) is None:
                raise ValueError(f"{path}: no column '{column}' (a sweep of a population with "
                                 "`columns: [population.users, population.users_within_slo]`)")
            if not row[column].isdigit():
                raise ValueError(f"{path}: line {line}: {column}: expected a whole number, got '{row[column]}'")
        variant = row.get("variant") or "-"
        if variant not in variants:
            variants.append(variant)
        table.setdefault(int(row["population.users"]), {})[variant] = int(row["population.users_within_slo"])
    return table, variants


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", help="a sweep's results.csv")
    args = parser.parse_args()
    try:
        table, variants = population_table(args.results)
    except (OSError, ValueError) as e:
        print(f"population_table: error: {e}", file=sys.stderr)
        return 2
    header = ["users"] + variants
    cells = [[str(n)] + [f"{table[n][v]}/{n}" if v in table[n] else "" for v in variants] for n in sorted(table)]
    widths = [max(len(r[i]) for r in [header] + cells) for i in range(len(header))]
    print("  ".join(h.rjust(w) for h, w in zip(header, widths)))
    for r in cells:
        print("  ".join(c.rjust(w) for c, w in zip(r, widths)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
