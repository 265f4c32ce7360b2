// Backend registry and default device selection.
#include "tenferro/runtime.hpp"

#include "options.hpp"
#ifdef TENFERRO_HAVE_VULKAN
#include "vulkan/provider.hpp"
#endif

namespace tenferro {

std::vector<DeviceInfo> list_devices() {
  std::vector<DeviceInfo> out;
  DeviceInfo cpu;
  cpu.backend = "cpu";
  cpu.name = cpu_backend().device_name();
  cpu.type = "cpu";
  cpu.driver = "tenferro cpu (OpenBLAS)";
  out.push_back(cpu);
#ifdef TENFERRO_HAVE_VULKAN
  try {
    for (DeviceInfo& d : vk::list_vulkan_devices()) out.push_back(std::move(d));
  } catch (...) {  // the probe never throws
  }
#endif
  return out;
}

std::optional<DeviceInfo> device_info(const Backend& be) {
  if (be.is_host()) return list_devices().front();
  // Vulkan backends name their device "NAME (TYPE, DRIVER)" (VulkanBackend::device_name).
  for (DeviceInfo& d : list_devices())
    if (d.backend == "vulkan" && d.name + " (" + d.type + ", " + d.driver + ")" == be.device_name()) return d;
  return std::nullopt;
}

bool vulkan_available() noexcept {
#ifdef TENFERRO_HAVE_VULKAN
  try {
    return !vk::list_vulkan_devices().empty();
  } catch (...) {
    return false;
  }
#else
  return false;
#endif
}

Backend& get_backend(const std::string& name, int ordinal) {
  if (name == "cpu") return cpu_backend();
  if (name == "vulkan") {
#ifdef TENFERRO_HAVE_VULKAN
    return vk::vulkan_backend(ordinal < 0 ? vk::default_vulkan_ordinal() : ordinal);
#else
    (void)ordinal;
    TENFERRO_FAIL(unsupported, "get_backend", "name", "this build has no Vulkan provider");
#endif
  }
  TENFERRO_FAIL(unsupported, "get_backend", "name", "unknown backend '", name, "' (expected cpu or vulkan)");
}

Backend& default_backend() {
  const std::string dev = options().device;
  if (dev == "cpu") return cpu_backend();
  if (!dev.empty()) return get_backend("vulkan", std::stoi(dev));
  if (vulkan_available()) return get_backend("vulkan", -1);
  return cpu_backend();
}

}  // namespace tenferro
