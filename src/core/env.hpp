// The process environment: the only place tenferro calls getenv. Each layer reads its own
// settings through these (core: src/core/options.cpp; the Vulkan provider: src/vulkan/options.cpp).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace tenferro::env {

/// The variable's value; nullopt when unset or empty.
std::optional<std::string> text(const char* name);
/// The variable as a decimal unsigned integer; `dflt` when unset or empty.
std::uint64_t u64(const char* name, std::uint64_t dflt);

}  // namespace tenferro::env
