"""scripts/gpu-batch.py: its CSV on the CPU path, and its refusal of bad batch lists (needs torch)."""
import contextlib
import importlib.util
import io
import pathlib
import sys
import tempfile
import unittest
from unittest import mock

import script_module

HAVE_TORCH = importlib.util.find_spec("torch") is not None and importlib.util.find_spec("torchvision") is not None


def run(*argv):
    """main() with argv; returns (exit code or 0, stdout, stderr)."""
    script = script_module.load_script("gpu-batch.py")
    out, err = io.StringIO(), io.StringIO()
    with mock.patch.object(sys, "argv", ["gpu-batch.py", *argv]), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        try:
            script.main()
            code = 0
        except SystemExit as e:
            code = e.code
    return code, out.getvalue(), err.getvalue()


@unittest.skipUnless(HAVE_TORCH, "torch and torchvision are not installed")
class GpuBatchTest(unittest.TestCase):
    def test_on_the_cpu_it_writes_one_row_per_batch_with_no_graph_time(self):
        with tempfile.TemporaryDirectory() as d:
            csv = pathlib.Path(d, "batch.csv")
            code, out, _ = run("--device", "cpu", "--out", str(csv), "--batches", "1,2", "--reps", "1",
                               "--warmup", "1", "squeezenet1_0")
            self.assertEqual(code, 0)
            lines = csv.read_text().splitlines()
        self.assertEqual(lines[0], "model,batch,graph_ms,eager_ms")
        self.assertEqual([line.split(",")[:3] for line in lines[1:]], [["squeezenet1_0", "1", ""],
                                                                       ["squeezenet1_0", "2", ""]])
        self.assertTrue(all(float(line.split(",")[3]) > 0 for line in lines[1:]))
        self.assertIn("squeezenet1_0 batch 2: eager", out)

    def test_a_batch_list_not_starting_at_1_is_refused(self):
        code, _, err = run("--device", "cpu", "--out", "unused.csv", "--batches", "2,4")
        self.assertEqual(code, 2)
        self.assertIn("--batches 2,4: expected sizes >= 1, starting with 1", err)

    def test_a_model_torchvision_does_not_have_is_refused(self):
        code, _, err = run("--device", "cpu", "--out", "unused.csv", "no_such_net")
        self.assertEqual(code, 2)
        self.assertIn("unknown torchvision model 'no_such_net'", err)


if __name__ == "__main__":
    unittest.main()
