#include "core/env.hpp"

#include <cstdlib>

namespace tenferro::env {

std::optional<std::string> text(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string(v);
}

std::uint64_t u64(const char* name, std::uint64_t dflt) {
  const std::optional<std::string> v = text(name);
  return v ? std::strtoull(v->c_str(), nullptr, 10) : dflt;
}

}  // namespace tenferro::env
