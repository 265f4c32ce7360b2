// Host tensor memory (host.cpp): the bytes of every live host tensor's storage, requested sizes,
// in this process (the CPU backend's Backend::memory_usage). Buffers that kernels and OpenBLAS
// hold privately are not counted.
#pragma once
#include "tenferro/backend/backend.hpp"

namespace tenferro::detail {

MemoryUsage host_memory_usage();
/// Starts a new peak window (peak = in use now).
void reset_host_memory_peak();

}  // namespace tenferro::detail
