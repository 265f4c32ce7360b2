"""PyTorch's f32 add and div of 2^28 elements on the GPU (out=, CUDA events, median of 15 after 3
warm-ups): the peer for tenferro_bench_vk's add / div rows (fifteenth session)."""
import statistics
import torch

n = 1 << 28
x = torch.rand(n, device="cuda") + 0.5
y = torch.rand(n, device="cuda") + 0.5
o = torch.empty_like(x)
for name, fn in (("copy", lambda: o.copy_(x)), ("add", lambda: torch.add(x, y, out=o)),
                 ("div", lambda: torch.div(x, y, out=o))):
    for _ in range(3):
        fn()
    ts = []
    for _ in range(15):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        torch.cuda.synchronize()
        ts.append(a.elapsed_time(b) * 1e3)
    us = statistics.median(ts)
    nbytes = (8 if name == "copy" else 12) * n
    print(f"torch {name:5s} {us:10.1f} us {nbytes / us / 1e3:8.1f} GB/s")
