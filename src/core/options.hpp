// Core's settings from the environment (src/core/env.hpp), read once. Backends keep their own
// (the Vulkan provider's: src/vulkan/options.hpp).
#pragma once
#include <string>

namespace tenferro {

struct Options {
  std::string device;  // TENFERRO_DEVICE: "" (auto), "cpu", "vulkan", "vulkan:N" or an ordinal N
};

const Options& options();

}  // namespace tenferro
