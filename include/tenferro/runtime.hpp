// Backend selection: the CPU backend always; Vulkan devices when the provider is built and a
// device exists. The default prefers a discrete GPU, then integrated, then other GPUs, then the
// CPU backend; a CPU Vulkan device (lavapipe) is never the default, only chosen by
// TENFERRO_DEVICE (an ordinal, "vulkan" or "cpu") or by naming it.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "tenferro/device.hpp"

namespace tenferro {

class Backend;  // tenferro/backend/backend.hpp

/// One row of `tenferro devices`.
struct DeviceInfo {
  std::string backend;  // "cpu" or "vulkan"
  int ordinal = 0;
  std::string name, type, driver;
  std::vector<std::string> details;  // "key: value" lines (heaps, features, limits)
};

/// Every usable device; never throws (a Vulkan failure yields just the CPU row).
std::vector<DeviceInfo> list_devices();
/// The list_devices() row of the device `be` runs on (nullopt if none matches); never throws.
std::optional<DeviceInfo> device_info(const Backend& be);
/// True when at least one Vulkan device can be opened; never throws.
bool vulkan_available() noexcept;
/// "cpu" or "vulkan" (ordinal -1: the default Vulkan device). Throws Error{unsupported} for
/// an unknown backend, Error{invalid_argument} for an ordinal that does not exist.
Backend& get_backend(const std::string& name, int ordinal = -1);
/// The default backend as described above.
Backend& default_backend();
/// The backend of a device (opened on first use). Throws like get_backend.
Backend& backend_for(const Device& device);
/// The device a backend runs on.
Device device_of(const Backend& be);

}  // namespace tenferro
