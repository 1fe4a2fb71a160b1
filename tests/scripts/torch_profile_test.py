"""scripts/torch-profile.py's mapping of torch.fx nodes to our layers, on a tiny model (needs torch)."""
import contextlib
import importlib.util
import io
import pathlib
import unittest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "torch-profile.py"
HAVE_TORCH = importlib.util.find_spec("torch") is not None and importlib.util.find_spec("torchvision") is not None


def load_script():
    spec = importlib.util.spec_from_file_location("torch_profile", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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


if __name__ == "__main__":
    unittest.main()
