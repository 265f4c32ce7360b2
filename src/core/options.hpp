// Core's settings from the environment (src/core/env.hpp), read once. Backends keep their own
// (the Vulkan provider's: src/vulkan/options.hpp).
#pragma once
#include <cstdint>
#include <string>

namespace tenferro {

struct Options {
  std::string device;  // TENFERRO_DEVICE: "" (auto), "cpu" or a Vulkan ordinal
  bool einsum_interleave = true;
  bool einsum_unit_stride = true;
  std::uint64_t einsum_consumer_order_bytes = 1ull << 20;
  bool einsum_consumer_swap = true;
};

const Options& options();

}  // namespace tenferro
