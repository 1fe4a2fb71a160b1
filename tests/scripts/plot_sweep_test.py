"""scripts/plot_sweep.py on small results files, against means and Student-t intervals by hand.

Needs the coinfer binary ($COINFER, as CTest sets it, or build/coinfer)."""
import math
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

SCRIPTS = pathlib.Path(__file__).resolve().parents[2] / "scripts"
sys.path.insert(0, str(SCRIPTS))
import plot_sweep  # noqa: E402

import matplotlib  # noqa: E402
matplotlib.use("Agg")

T_975_2 = 4.302652729749464  # Student-t quantile at 0.975 with 2 degrees of freedom

# Variant a: three seeds at rate 1 (10, 12, 14: mean 12, sd 2) and at rate 2 (20, 20, 23: mean 21,
# sd sqrt(3)); variant b: three at rate 1 (5, 7, 9: mean 7, sd 2) and one at rate 2 (30).
RESULTS = """run,seed,rate,variant,latency
0,1,1,a,10
1,2,1,a,12
2,3,1,a,14
3,1,2,a,20
4,2,2,a,20
5,3,2,a,23
6,1,1,b,5
7,2,1,b,7
8,3,1,b,9
9,1,2,b,30
"""


class PlotSweepTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="plot_sweep_test_")
        self.results = os.path.join(self.tmp.name, "results.csv")
        with open(self.results, "w") as f:
            f.write(RESULTS)

    def tearDown(self):
        self.tmp.cleanup()

    def run_cli(self, *args):
        return subprocess.run([sys.executable, str(SCRIPTS / "plot_sweep.py"), self.results, *args],
                              capture_output=True, text=True, cwd=self.tmp.name)

    def test_points_are_the_means_with_student_t_intervals_over_the_seeds(self):
        _, points = plot_sweep.plot_sweep(self.results, x="rate", y="latency", by=["variant"])
        got = {(p["line"][0], p["x"]): p for p in points}
        half_sd2 = T_975_2 * 2 / math.sqrt(3)
        for key, mean, half in [(("a", "1"), 12, half_sd2), (("a", "2"), 21, T_975_2),
                                (("b", "1"), 7, half_sd2)]:
            self.assertEqual(got[key]["n"], 3)
            self.assertAlmostEqual(got[key]["mean"], mean, places=12)
            self.assertAlmostEqual(got[key]["low"], mean - half, places=9)
            self.assertAlmostEqual(got[key]["high"], mean + half, places=9)
        self.assertEqual(got[("b", "2")]["n"], 1)
        self.assertEqual(got[("b", "2")]["mean"], 30)

    def test_each_line_is_drawn_at_its_x_values_with_bars_from_low_to_high(self):
        ax, _ = plot_sweep.plot_sweep(self.results, x="rate", y="latency", by=["variant"])
        a, b = ax.containers  # one errorbar container per --by value, in order of appearance
        self.assertEqual(a.lines[0].get_xydata().tolist(), [[1, 12], [2, 21]])
        segments = a.lines[2][0].get_segments()
        self.assertAlmostEqual(segments[1][0][1], 21 - T_975_2, places=9)
        self.assertAlmostEqual(segments[1][1][1], 21 + T_975_2, places=9)
        # One row has no interval: its bar has no length.
        self.assertEqual(b.lines[0].get_xydata().tolist(), [[1, 7], [2, 30]])
        self.assertEqual(b.lines[2][0].get_segments()[1][0][1], b.lines[2][0].get_segments()[1][1][1])
        self.assertEqual([t.get_text() for t in ax.get_legend().get_texts()], ["variant=a", "variant=b"])

    def test_an_x_that_is_not_numbers_is_drawn_in_order_of_appearance(self):
        ax, points = plot_sweep.plot_sweep(self.results, x="variant", y="latency", by=["rate"])
        self.assertEqual([t.get_text() for t in ax.get_xticklabels()], ["a", "b"])
        # Two lines side by side around each category: rate 1 left of the tick, rate 2 right of it.
        xs = [c.lines[0].get_xydata()[:, 0].tolist() for c in ax.containers]
        self.assertEqual(xs, [[-0.04, 0.96], [0.04, 1.04]])
        self.assertEqual(len(points), 4)

    def test_the_command_writes_the_figure_and_says_what_it_drew(self):
        r = self.run_cli("--x", "rate", "--y", "latency", "--by", "variant", "-o", "fig.png",
                         "--summary-csv", "points.csv")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, "wrote fig.png: latency over rate, 4 points on 2 lines, 1 to 3 rows each, "
                                   "95% intervals\n")
        with open(os.path.join(self.tmp.name, "fig.png"), "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        with open(os.path.join(self.tmp.name, "points.csv")) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[0], "variant,rate,n,mean,low,high")
        self.assertEqual(lines[4], "b,2,1,30.0,,")

    def test_the_same_input_gives_the_same_png(self):
        for name in ["one.png", "two.png"]:
            self.assertEqual(self.run_cli("--x", "rate", "--y", "latency", "-o", name).returncode, 0)
        with open(os.path.join(self.tmp.name, "one.png"), "rb") as one, \
                open(os.path.join(self.tmp.name, "two.png"), "rb") as two:
            self.assertEqual(one.read(), two.read())

    def test_a_column_that_does_not_exist_is_one_line_and_exit_2(self):
        r = self.run_cli("--x", "rate", "--y", "nosuch", "-o", "fig.png")
        self.assertEqual(r.returncode, 2)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertIn("nosuch", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "fig.png")))

    def test_a_level_outside_0_100_is_one_line_and_exit_2(self):
        r = self.run_cli("--x", "rate", "--y", "latency", "--ci", "100", "-o", "fig.png")
        self.assertEqual(r.returncode, 2)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertIn("--ci", r.stderr)

    def test_x_named_again_in_by_is_refused(self):
        r = self.run_cli("--x", "rate", "--y", "latency", "--by", "rate", "-o", "fig.png")
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr, "plot_sweep: --x rate is also in --by: name each column once\n")


if __name__ == "__main__":
    unittest.main()
