"""scripts/population_table.py on a small results file: users within the SLO, another column, bad input."""
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "population_table.py"

RESULTS = """run,variant,population.users,population.users_within_slo,scheduler_metrics.accuracy
0,cbo,1,1,0.857
1,local,1,1,0.624
2,cbo,4,0,0.8051
3,local,4,4,0.624
"""


class PopulationTableTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="population_table_test_")
        self.results = os.path.join(self.tmp.name, "results.csv")
        with open(self.results, "w") as f:
            f.write(RESULTS)

    def tearDown(self):
        self.tmp.cleanup()

    def run_script(self, *args):
        return subprocess.run([sys.executable, str(SCRIPT), self.results, *args], capture_output=True, text=True)

    def test_users_within_the_slo_per_users_and_variant(self):
        r = self.run_script()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, "users  cbo  local\n    1  1/1    1/1\n    4  0/4    4/4\n")

    def test_another_column_in_its_format(self):
        r = self.run_script("--value", "scheduler_metrics.accuracy", "--format", ".2f")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, "users   cbo  local\n    1  0.86   0.62\n    4  0.81   0.62\n")

    def test_a_missing_column_is_one_error_line_and_exit_2(self):
        r = self.run_script("--value", "bogus")
        self.assertEqual(r.returncode, 2)
        self.assertEqual(len(r.stderr.splitlines()), 1)
        self.assertIn("no column 'bogus'", r.stderr)

    def test_a_bad_format_is_one_error_line_and_exit_2(self):
        r = self.run_script("--value", "scheduler_metrics.accuracy", "--format", "zz")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--format", r.stderr)


if __name__ == "__main__":
    unittest.main()
