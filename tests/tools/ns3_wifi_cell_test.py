"""coinfer-ns3-wifi-cell (tools/ns3_wifi_cell): its CSV row, its agreement with the fair share for two
stations, and its refusal of bad arguments. The binary is $COINFER_NS3_WIFI_CELL."""
import os
import subprocess
import unittest

TOOL = os.environ["COINFER_NS3_WIFI_CELL"]


def run(*args):
    return subprocess.run([TOOL, *args], capture_output=True, text=True, timeout=120)


def row(stations, nbytes):
    out = run(f"--stations={stations}", f"--bytes={nbytes}", "--seed=1")
    assert out.returncode == 0, out.stderr
    fields = out.stdout.strip().split(",")
    return {"stations": int(fields[0]), "bytes": int(fields[1]), "first": float(fields[3]),
            "mean": float(fields[4]), "last": float(fields[5]), "mbps": float(fields[6])}


class Ns3WifiCellTest(unittest.TestCase):
    def test_one_station_alone_uploads_below_the_54_mbps_phy_rate(self):
        r = row(1, 200000)
        self.assertEqual((r["stations"], r["bytes"]), (1, 200000))
        self.assertEqual(r["first"], r["last"])
        # Goodput = bytes over the completion time; TCP, IP and 802.11 overheads keep it below the PHY rate.
        self.assertAlmostEqual(r["mbps"], 8 * 200000 / r["last"] / 1e6, places=3)
        self.assertTrue(10 < r["mbps"] < 54, r)

    def test_two_stations_finish_their_last_byte_near_twice_one_station_time(self):
        # The cell's airtime is shared: the batch takes about what one station takes for twice the
        # bytes (the flow model's fair share), within the few percent contention costs.
        one, two = row(1, 200000), row(2, 200000)
        self.assertLess(abs(two["last"] / (2 * one["last"]) - 1), 0.1, (one, two))
        self.assertLessEqual(two["first"], two["mean"])
        self.assertLessEqual(two["mean"], two["last"])

    def test_bad_arguments_are_one_line_and_exit_2(self):
        for args, message in ((["--stations=0"], "--stations=0: expected an integer in 1..256"),
                              (["--bytes=12x"], "--bytes=12x: expected an integer in 1..1000000000"),
                              (["--stations"], "unknown argument '--stations'"),
                              (["--hops=3"], "unknown argument '--hops=3'")):
            out = run(*args)
            self.assertEqual(out.returncode, 2, args)
            self.assertEqual(out.stderr.count("\n"), 1, out.stderr)
            self.assertIn(message, out.stderr)


if __name__ == "__main__":
    unittest.main()
