"""scripts/gpu-power.py: reading nvidia-smi's power samples, and its refusal without a GPU (needs torch)."""
import contextlib
import importlib.util
import io
import os
import pathlib
import stat
import sys
import tempfile
import unittest
from unittest import mock

import script_module

HAVE_TORCH = importlib.util.find_spec("torch") is not None and importlib.util.find_spec("torchvision") is not None


def load_script():
    return script_module.load_script("gpu-power.py")


@contextlib.contextmanager
def fake_nvidia_smi(output):
    """An `nvidia-smi` first on PATH that prints `output` and exits."""
    with tempfile.TemporaryDirectory() as d:
        tool = pathlib.Path(d, "nvidia-smi")
        tool.write_text(f"#!/bin/sh\nprintf '{output}'\n")
        tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
        with mock.patch.dict(os.environ, {"PATH": d + os.pathsep + os.environ["PATH"]}):
            yield


@unittest.skipUnless(HAVE_TORCH, "torch and torchvision are not installed")
class GpuPowerTest(unittest.TestCase):
    def test_samples_are_the_watts_nvidia_smi_prints_skipping_lines_that_are_no_number(self):
        with fake_nvidia_smi("78.30\\n[N/A]\\n589.51\\n"):
            self.assertEqual(load_script().sample(2, 100), [78.3, 589.51])

    def test_no_readings_at_all_fail_with_what_nvidia_smi_said(self):
        err = io.StringIO()
        with fake_nvidia_smi("No devices were found\\n"), contextlib.redirect_stderr(err), \
                self.assertRaises(SystemExit) as raised:
            load_script().sample(2, 100)
        self.assertEqual(raised.exception.code, 2)
        self.assertIn("nvidia-smi gave no power readings: No devices were found", err.getvalue())

    def test_without_a_cuda_gpu_it_refuses_with_exit_2(self):
        script = load_script()
        err = io.StringIO()
        with mock.patch.object(script.torch.cuda, "is_available", return_value=False), \
                mock.patch.object(sys, "argv", ["gpu-power.py", "--out", os.devnull]), \
                contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as raised:
            script.main()
        self.assertEqual(raised.exception.code, 2)
        self.assertIn("this PyTorch sees no CUDA GPU", err.getvalue())


if __name__ == "__main__":
    unittest.main()
