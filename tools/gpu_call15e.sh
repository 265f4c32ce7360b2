#!/bin/sh
# Fifteenth session, sixth call: f32 division with its common path in selects (the four elements
# of a thread interleave; measured slower and reverted): the division test and the speed
# (tenferro_bench_vk twice, PyTorch's between), as tools/gpu_call15d.sh without its einsum part.
EINSUM=0 exec sh tools/gpu_call15d.sh
