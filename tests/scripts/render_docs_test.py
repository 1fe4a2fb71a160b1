"""scripts/render-docs.py on small repositories built in a temporary folder per test."""
import json
import pathlib
import subprocess
import tempfile
import unittest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "render-docs.py"

# A report baseline as `coinfer check` records one: two rows, the second without a paper value.
REPORT = {
    "report/title": "T",
    "report/source": "[MoDNN] Table 1",
    "report/rows.0.name": "local ms",
    "report/rows.1.name": "auto ms",
    "report/rows.0.ours": 110.0,
    "report/rows.1.ours": 5.25,
    "report/rows.0.paper": 100,
    "report/rows.1.paper": None,
    "report/rows.2.name": "match",
    "report/rows.2.ours": 83.99999,
    "report/rows.2.paper": 84.0,
}

# A sweep baseline: two rates x two variants, numbered runs as results.csv has them.
GRID = {f"{i}/{k}": v for i, run in enumerate([
    {"variant": "cbo", "rate": 1.0, "acc": 0.5},
    {"variant": "local", "rate": 1.0, "acc": 0.25},
    {"variant": "cbo", "rate": 5.0, "acc": 0.75},
    {"variant": "local", "rate": 5.0, "acc": 0.25},
]) for k, v in run.items()}

# A claims baseline: one claim held, one failed, as a `claims:` check records them.
CLAIMS = {
    "up-to/claim": "gain up to 66%", "up-to/source": "[JointDNN §4]", "up-to/ours": 29.128,
    "up-to/paper": "66 +-15%", "up-to/held": False, "up-to/cause": "the TX2's speed",
    "order/claim": "CBO beats FastVA", "order/source": "[CBO §V-B]", "order/ours": 0.0042,
    "order/paper": ">= 0", "order/held": True,
    "tiny/claim": "never worse", "tiny/source": "[JointDNN §4]", "tiny/ours": -7.7e-14,
    "tiny/paper": ">= 0", "tiny/held": False,
}


class Repo:
    def __init__(self, tmp, baselines, page):
        self.root = pathlib.Path(tmp)
        (self.root / "bench" / "baselines").mkdir(parents=True)
        (self.root / "docs" / "systems").mkdir(parents=True)
        for name, metrics in baselines.items():
            (self.root / "bench" / "baselines" / f"{name}.json").write_text(
                json.dumps({"format": "coinfer-check-baseline/1", "check": name, "metrics": metrics}))
        self.page = self.root / "docs" / "systems" / "p.md"
        self.page.write_text(page)

    def run(self, *args):
        return subprocess.run(["/usr/bin/python3", str(SCRIPT), "--root", str(self.root), *args],
                              capture_output=True, text=True)


def page(marker, body="stale\n"):
    return f"# P\n\n{marker}\n{body}<!-- /generated -->\nafter\n"


class RenderDocsTest(unittest.TestCase):
    def test_report_rows_with_gap_and_source(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp, {"r": REPORT}, page("<!-- generated: report r -->"))
            self.assertEqual(repo.run().returncode, 0)
            # gap = (110 - 100) / 100 = +10.0%; 110 >= 100 prints without decimals, 5.25 with two;
            # the paper's 84.0 prints as the paper has it, and a gap of -1e-5 % as +0.0%.
            self.assertEqual(repo.page.read_text(), page(
                "<!-- generated: report r -->",
                "| | ours | paper | gap |\n|---|---|---|---|\n| local ms | 110 | 100 | +10.0% |\n"
                "| auto ms | 5.25 | - | - |\n| match | 84.00 | 84 | +0.0% |\n\nPaper: [MoDNN] Table 1.\n"))

    def render_claims(self, marker):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp, {"c": CLAIMS}, page(marker))
            self.assertEqual(repo.run().returncode, 0)
            return repo.page.read_text()

    def test_claims_table_with_count_held(self):
        # below 100: three significant digits (29.1, 0.0042), a rounding residue is 0; a failed claim is bold.
        self.assertEqual(self.render_claims("<!-- generated: claims c -->"), page(
            "<!-- generated: claims c -->",
            "| claim | the paper says | ours | paper | holds | why not |\n|---|---|---|---|---|---|\n"
            "| `up-to` | gain up to 66% [JointDNN §4] | 29.1 | 66 +-15% | **no** | the TX2's speed |\n"
            "| `order` | CBO beats FastVA [CBO §V-B] | 0.0042 | >= 0 | yes | |\n"
            "| `tiny` | never worse [JointDNN §4] | 0 | >= 0 | **no** | not found yet |\n\n1 of 3 claims hold.\n"))

    def test_claims_table_without_why_column(self):
        # the same rows as above, without their last cell
        self.assertEqual(self.render_claims("<!-- generated: claims c why=no -->"), page(
            "<!-- generated: claims c why=no -->",
            "| claim | the paper says | ours | paper | holds |\n|---|---|---|---|---|\n"
            "| `up-to` | gain up to 66% [JointDNN §4] | 29.1 | 66 +-15% | **no** |\n"
            "| `order` | CBO beats FastVA [CBO §V-B] | 0.0042 | >= 0 | yes |\n"
            "| `tiny` | never worse [JointDNN §4] | 0 | >= 0 | **no** |\n\n1 of 3 claims hold.\n"))

    def test_claims_table_rejects_an_unknown_option(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp, {"c": CLAIMS}, page("<!-- generated: claims c why=maybe -->"))
            r = repo.run()
            self.assertEqual(r.returncode, 2)
            self.assertIn("p.md:3: a claims table takes only why=yes|no", r.stderr)

    def test_claims_table_needs_a_claims_baseline(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp, {"r": REPORT}, page("<!-- generated: claims r -->"))
            r = repo.run()
            self.assertEqual(r.returncode, 2)
            self.assertIn("p.md:3: the baseline has no claims", r.stderr)

    def test_report_row_range(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp, {"r": REPORT}, page("<!-- generated: report r rows=1-1 -->"))
            self.assertEqual(repo.run().returncode, 0)
            self.assertNotIn("local ms", repo.page.read_text())
            self.assertIn("| auto ms | 5.25 |", repo.page.read_text())

    def test_report_row_list(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp, {"r": REPORT}, page("<!-- generated: report r rows=1,0 -->"))
            self.assertEqual(repo.run().returncode, 0)
            text = repo.page.read_text()
            self.assertLess(text.index("auto ms"), text.index("local ms"))

    def test_report_row_outside_the_report(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp, {"r": REPORT}, page("<!-- generated: report r rows=0-3 -->"))
            r = repo.run()
            self.assertEqual(r.returncode, 2)
            self.assertIn("p.md:3: rows=0-3: '0-3' is not a range in 0-2", r.stderr)

    def test_grid_pivots_a_sweep(self):
        with tempfile.TemporaryDirectory() as tmp:
            marker = "<!-- generated: grid g row=variant col=rate value=acc fmt=.2f corner=Mbps -->"
            repo = Repo(tmp, {"g": GRID}, page(marker))
            self.assertEqual(repo.run().returncode, 0)
            # Rows and columns in the runs' order; whole-number rates print without ".0".
            self.assertIn("| Mbps | 1 | 5 |\n|---|---|---|\n| cbo | 0.50 | 0.75 |\n| local | 0.25 | 0.25 |\n",
                          repo.page.read_text())

    def test_grid_where_keeps_matching_runs(self):
        with tempfile.TemporaryDirectory() as tmp:
            marker = "<!-- generated: grid g row=variant col=rate value=acc where=variant=cbo -->"
            repo = Repo(tmp, {"g": GRID}, page(marker))
            self.assertEqual(repo.run().returncode, 0)
            self.assertNotIn("local", repo.page.read_text())

    def test_grid_where_not_keeps_the_other_runs(self):
        with tempfile.TemporaryDirectory() as tmp:
            marker = "<!-- generated: grid g row=variant col=rate value=acc where=variant!=cbo -->"
            repo = Repo(tmp, {"g": GRID}, page(marker))
            self.assertEqual(repo.run().returncode, 0)
            table = repo.page.read_text().split("-->\n", 1)[1]  # after the marker, which names cbo
            self.assertNotIn("cbo", table)
            self.assertIn("| local | 0.25 | 0.25 |", table)

    def test_grid_columns_from_two_keys_renamed(self):
        with tempfile.TemporaryDirectory() as tmp:
            marker = "<!-- generated: grid g row=rate col=variant,rate value=acc heads=a|b|c|d -->"
            repo = Repo(tmp, {"g": GRID}, page(marker))
            self.assertEqual(repo.run().returncode, 0)
            # Columns "cbo 1", "local 1", "cbo 5", "local 5" renamed a-d; rate 1 has no "cbo 5" run.
            self.assertIn("| | a | b | c | d |\n|---|---|---|---|---|\n| 1 | 0.5 | 0.25 | - | - |\n",
                          repo.page.read_text())

    def test_grid_heads_must_match_the_columns(self):
        with tempfile.TemporaryDirectory() as tmp:
            marker = "<!-- generated: grid g row=rate col=variant value=acc heads=a -->"
            repo = Repo(tmp, {"g": GRID}, page(marker))
            r = repo.run()
            self.assertEqual(r.returncode, 2)
            self.assertIn("heads= names 1 columns, the runs have 2: cbo, local", r.stderr)

    def test_check_reports_a_stale_table_with_a_diff(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp, {"r": REPORT}, page("<!-- generated: report r -->"))
            r = repo.run("--check")
            self.assertEqual(r.returncode, 1)
            self.assertIn("-stale", r.stdout)
            self.assertIn("+| local ms | 110 | 100 | +10.0% |", r.stdout)
            self.assertIn("stale\n", repo.page.read_text())  # --check writes nothing

    def test_check_passes_once_rendered(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp, {"r": REPORT}, page("<!-- generated: report r -->"))
            repo.run()
            r = repo.run("--check")
            self.assertEqual((r.returncode, r.stdout), (0, ""))

    def test_missing_baseline_names_page_and_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp, {}, page("<!-- generated: report nope -->"))
            r = repo.run("--check")
            self.assertEqual(r.returncode, 2)
            # The marker is line 3 of the page.
            self.assertIn("docs/systems/p.md:3: no baseline bench/baselines/nope.json", r.stderr)

    def test_unterminated_block_is_an_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp, {"r": REPORT}, "<!-- generated: report r -->\nno end\n")
            r = repo.run()
            self.assertEqual(r.returncode, 2)
            self.assertIn("p.md:1: no '<!-- /generated -->'", r.stderr)


if __name__ == "__main__":
    unittest.main()
