// The --backend / --device options shared by `tenferro einsum` and `tenferro bench`, and the
// backend they select (the default backend when --backend is not given).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "tenferro/backend/backend.hpp"
#include "tenferro/runtime.hpp"

namespace tenferro::cli {

struct BackendChoice {
  std::string backend;  // "" = the default backend; else cpu or vulkan
  int device = -1;      // Vulkan ordinal; -1: the default Vulkan device
};

inline void add_backend_options(CLI::App* cmd, BackendChoice& c) {
  cmd->add_option("--backend", c.backend, "cpu or vulkan (default: the default backend)");
  cmd->add_option("--device", c.device, "Vulkan device ordinal")->check(CLI::Range(0, 4095));
}

inline Backend& chosen_backend(const BackendChoice& c) {
  return c.backend.empty() ? default_backend() : get_backend(c.backend, c.device);
}

}  // namespace tenferro::cli
