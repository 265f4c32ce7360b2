// Core's settings from the environment (src/core/env.hpp), read once; default_accuracy()
// (tenferro/options.hpp) is defined here too. Backends keep their own (the Vulkan provider's:
// src/vulkan/options.hpp).
#pragma once
#include <string>

#include "tenferro/options.hpp"

namespace tenferro {

struct Options {
  std::string device;  // TENFERRO_DEVICE: "" (auto), "cpu", "vulkan", "vulkan:N" or an ordinal N
};

const Options& options();

/// Throws Error{invalid_argument} (op "set_accuracy") for an enumerator out of range, or for
/// OzakiMode::uncertified with ozaki_moduli outside 8 to 20.
void check_accuracy(const AccuracyOptions& a);

}  // namespace tenferro
