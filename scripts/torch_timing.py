"""What the PyTorch measuring scripts share (torch-profile.py, gpu-batch.py, gpu-power.py): their
one-line failure and their wall-clock step timing.

    fail = functools.partial(torch_timing.fail, "gpu-batch.py")
    times = torch_timing.wall_ms(lambda: net(x), 25, torch.cuda.synchronize)
"""
import sys
import time


def fail(script, message):
    """Prints `script: message` on stderr and exits 2 (a bad argument or a measurement that cannot be made)."""
    print(f"{script}: {message}", file=sys.stderr)
    sys.exit(2)


def wall_ms(step, count, synchronize=None):
    """Wall milliseconds of each of `count` calls of step(), each timed up to synchronize() when given
    (a CUDA step returns before its kernels end)."""
    times = []
    for _ in range(count):
        begin = time.perf_counter()
        step()
        if synchronize is not None:
            synchronize()
        times.append((time.perf_counter() - begin) * 1000.0)
    return times
