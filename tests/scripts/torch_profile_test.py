"""scripts/torch-profile.py's mapping of torch.fx nodes to our layers, on a tiny model, and the files it reads
and writes (needs torch)."""
import contextlib
import importlib.util
import io
import json
import pathlib
import tempfile
import types
import unittest

import script_module

HAVE_TORCH = importlib.util.find_spec("torch") is not None and importlib.util.find_spec("torchvision") is not None


def load_script():
    return script_module.load_script("torch-profile.py")


def layer(name, op, shape, params=0):
    return {"name": name, "op": op, "output_shape": shape, "params": params}


# Our layers of the tiny model below: conv 3->4 3x3 (4*3*9 + 4 = 112 params), relu, x + x,
# global average pool, fc 4->2 (4*2 + 2 = 10 params) and a trailing softmax torch does not have.
OURS = [layer("c", "conv2d", [4, 8, 8], 112), layer("r", "relu", [4, 8, 8]), layer("a", "add", [4, 8, 8]),
        layer("gap", "global_avg_pool", [4, 1, 1]), layer("fc", "fc", [2], 10), layer("prob", "softmax", [2])]


@unittest.skipUnless(HAVE_TORCH, "torch and torchvision are not installed")
class MapLayersTest(unittest.TestCase):
    def traced(self):
        import torch
        import torch.fx
        from torch.fx.passes.shape_prop import ShapeProp

        class Tiny(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
                self.relu = torch.nn.ReLU()
                self.pool = torch.nn.AdaptiveAvgPool2d(1)
                self.fc = torch.nn.Linear(4, 2)

            def forward(self, x):
                x = self.relu(self.conv(x))
                return self.fc(torch.flatten(self.pool(x + x), 1))

        gm = torch.fx.symbolic_trace(Tiny().eval())
        ShapeProp(gm).propagate(torch.randn(1, 3, 8, 8))
        return gm

    def test_nodes_map_in_order_and_the_softmax_runs_after(self):
        # flatten is no layer of ours (skipped); the five others pair up in order.
        mapping, tail = load_script().map_layers("tiny", self.traced(), OURS)
        self.assertEqual(list(mapping.values()), ["c", "r", "a", "gap", "fc"])
        self.assertEqual(tail, ["prob"])

    def test_a_shape_mismatch_fails_naming_both_sides(self):
        ours = [dict(OURS[0], output_shape=[4, 4, 4])] + OURS[1:]
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as raised:
            load_script().map_layers("tiny", self.traced(), ours)
        self.assertEqual(raised.exception.code, 2)
        self.assertIn("tiny: torch node conv -> our layer c: output shape [4, 8, 8] != [4, 4, 4]", err.getvalue())

    def test_a_layer_torch_lacks_fails(self):
        # Our fc removed: torch's fc node then pairs with our softmax, an op mismatch.
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit):
            load_script().map_layers("tiny", self.traced(), OURS[:4] + OURS[5:])
        self.assertIn("our layer prob: op fc != softmax", err.getvalue())


@unittest.skipUnless(HAVE_TORCH, "torch and torchvision are not installed")
class LayersAndKernelsTest(unittest.TestCase):
    def test_layers_come_from_a_saved_model_show_file_without_the_input(self):
        with tempfile.TemporaryDirectory() as d:
            shown = {"layers": [layer("data", "input", [3, 8, 8])] + OURS}
            pathlib.Path(d, "tiny.json").write_text(json.dumps(shown))
            ours = load_script().our_layers(None, d, "tiny")
        self.assertEqual([x["name"] for x in ours], ["c", "r", "a", "gap", "fc", "prob"])

    def test_a_missing_layers_file_fails_naming_it(self):
        err = io.StringIO()
        with tempfile.TemporaryDirectory() as d, contextlib.redirect_stderr(err), \
                self.assertRaises(SystemExit) as raised:
            load_script().our_layers(None, d, "tiny")
        self.assertEqual(raised.exception.code, 2)
        self.assertIn("tiny.json", err.getvalue())
        self.assertIn("coinfer model show --json tiny", err.getvalue())

    def test_layers_that_launched_no_kernel_are_left_out_of_the_kernel_file(self):
        # Medians: c 2 ms, r 0 (no kernel, as dropout in eval mode), fc 4 ms.
        samples = {"c": [1.0, 2.0, 3.0], "r": [0.0, 0.0, 0.0], "fc": [4.0, 4.0, 5.0]}
        with tempfile.TemporaryDirectory() as d, contextlib.redirect_stdout(io.StringIO()):
            args = types.SimpleNamespace(out=d, trace=[])
            total = load_script().write_model("tiny", None, ["c", "r", "fc"], samples, 3, args, ".kernels")
            written = pathlib.Path(d, "tiny.kernels.csv").read_text()
        self.assertEqual(written, "layer,ms\nc,2\nfc,4\n")
        self.assertEqual(total, 6.0)

    def test_a_model_with_no_kernel_time_at_all_fails(self):
        err = io.StringIO()
        with tempfile.TemporaryDirectory() as d, contextlib.redirect_stderr(err), \
                self.assertRaises(SystemExit) as raised:
            args = types.SimpleNamespace(out=d, trace=[])
            load_script().write_model("tiny", None, ["c"], {"c": [0.0]}, 1, args, ".kernels")
        self.assertEqual(raised.exception.code, 2)
        self.assertIn("tiny: the profiler attributed no GPU kernel time to any layer", err.getvalue())

    def test_kernel_time_reads_torch_1_13s_cuda_total_when_torch_2s_name_is_absent(self):
        script = load_script()
        self.assertEqual(script.kernel_us(types.SimpleNamespace(device_time_total=7.0)), 7.0)
        self.assertEqual(script.kernel_us(types.SimpleNamespace(cuda_time_total=5.0)), 5.0)


if __name__ == "__main__":
    unittest.main()
