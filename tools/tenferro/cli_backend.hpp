// The --backend / --device options shared by `tenferro einsum` and `tenferro bench`, and the
// backend they select: --backend cpu, vulkan or webgpu; --device N alone selects Vulkan device N
// (it implies --backend vulkan); --device with --backend cpu is an error; neither: the default
// backend (TENFERRO_DEVICE, else the preference of tenferro/runtime.hpp).
#pragma once

#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>

#include "tenferro/backend/backend.hpp"
#include "tenferro/runtime.hpp"

namespace tenferro::cli {

struct BackendChoice {
  std::string backend;  // "" = the default backend; else cpu, vulkan or webgpu
  int device = -1;      // Vulkan ordinal; -1: the default Vulkan device
};

inline void add_backend_options(CLI::App* cmd, BackendChoice& c) {
  cmd->add_option("--backend", c.backend, "cpu, vulkan or webgpu (default: the default backend)");
  cmd->add_option("--device", c.device, "Vulkan device ordinal (implies --backend vulkan)")->check(CLI::Range(0, 4095));
}

/// Throws std::invalid_argument for --device with a backend other than vulkan (`name`: the
/// --backend value, "" when not given).
inline void check_device_choice(const std::string& name, int device) {
  if (device >= 0 && !name.empty() && name != "vulkan")
    throw std::invalid_argument("--device " + std::to_string(device) + " selects a Vulkan device; it cannot be used with --backend " +
                                name + " (leave out --backend, or give --backend vulkan)");
}

inline Backend& chosen_backend(const BackendChoice& c) {
  check_device_choice(c.backend, c.device);
  if (c.backend.empty() && c.device < 0) return default_backend();
  return get_backend(c.backend.empty() ? "vulkan" : c.backend, c.device);
}

}  // namespace tenferro::cli
