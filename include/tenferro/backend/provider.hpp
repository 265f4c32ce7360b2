// A provider: one kind of backend (the CPU backend, the Vulkan provider) as the runtime
// (tenferro/runtime.hpp) sees it. Each backend library describes itself with one; the umbrella
// library lists the providers it was built with (src/runtime.cpp). Core knows none of them.
#pragma once
#include <vector>

#include "tenferro/backend/backend.hpp"
#include "tenferro/runtime.hpp"

namespace tenferro {

struct Provider {
  /// The name get_backend takes and DeviceInfo::backend shows ("cpu", "vulkan").
  const char* name;
  /// Every usable device of this provider, with its ordinal; never throws (a driver failure
  /// yields no device).
  std::vector<DeviceInfo> (*devices)();
  /// The backend of device `ordinal` (-1: the provider's preferred device), created on first use
  /// and kept for the process lifetime. Throws Error{invalid_argument} for an ordinal that is
  /// not among devices(), Error{unsupported} when there is no usable device.
  Backend& (*open)(int ordinal);
};

}  // namespace tenferro
