// The provider entry points: device probe, per-ordinal backends, default device choice.
#include "vulkan/provider.hpp"

#include "backend_common/process_backends.hpp"
#include "vulkan/backend.hpp"

namespace tenferro::vk {

namespace {
struct Probe {
  std::vector<DeviceInfo> infos;
  std::vector<VkPhysicalDeviceType> types;
};

const Probe& probe() {
  static const Probe p = [] {
    Probe r;
    try {
      // Kept for the process, as the backends are: destroying it made the loader unload the
      // drivers, which the first backend then loaded again; what a driver allocated in its
      // first copy (lavapipe's LLVM set-up) then showed as leaked from an unknown module.
      static Instance* const instance = new Instance(false);
      const auto pds = physical_devices(instance->get());
      for (std::size_t i = 0; i < pds.size(); ++i) {
        const DeviceCaps c = query_caps(pds[i], instance->get());
        if (!c.missing().empty()) continue;  // listed only when tenferro can run on it
        DeviceInfo d;
        d.backend = "vulkan";
        d.ordinal = static_cast<int>(i);
        d.name = c.name;
        d.type = c.type;
        d.driver = c.driver;
        d.details = c.describe();
        r.infos.push_back(std::move(d));
        r.types.push_back(c.device_type);
      }
    } catch (...) {  // no loader, no driver: no Vulkan devices
      r = Probe{};
    }
    return r;
  }();
  return p;
}

VulkanBackend& as_vulkan(Backend& be) {
  auto* vb = dynamic_cast<VulkanBackend*>(&be);
  TENFERRO_CHECK(vb != nullptr, invalid_argument, "vulkan", "backend", "backend ", be.name(), " is not a Vulkan backend");
  return *vb;
}
}  // namespace

std::vector<DeviceInfo> list_vulkan_devices() {
  try {
    return probe().infos;
  } catch (...) {
    return {};
  }
}

Backend& vulkan_backend(int ordinal) {
  const Probe& p = probe();
  bool known = false;
  for (const DeviceInfo& d : p.infos) known |= d.ordinal == ordinal;
  TENFERRO_CHECK(known, invalid_argument, "vulkan", "ordinal", "no usable Vulkan device with ordinal ", ordinal,
                 " (", p.infos.size(), " usable devices)");
  return detail::process_backend<VulkanBackend>(ordinal);
}

int default_vulkan_ordinal() {
  const Probe& p = probe();
  auto rank = [](VkPhysicalDeviceType t) {
    switch (t) {
      case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
      case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
      case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
      default: return 2;
    }
  };
  int best = -1, best_rank = 99;
  for (std::size_t i = 0; i < p.infos.size(); ++i)
    if (rank(p.types[i]) < best_rank) {
      best_rank = rank(p.types[i]);
      best = p.infos[i].ordinal;
    }
  TENFERRO_CHECK(best >= 0, unsupported, "vulkan", "", "no usable Vulkan device (needs Vulkan 1.2 with "
                 "bufferDeviceAddress, timelineSemaphore and shaderInt64)");
  return best;
}

const Provider& provider() {
  static const Provider p{"vulkan", list_vulkan_devices, [](int ordinal) -> Backend& {
                            return vulkan_backend(ordinal < 0 ? default_vulkan_ordinal() : ordinal);
                          }};
  return p;
}

std::uint64_t validation_message_count() { return ::tenferro::vk::validation_message_count_impl(); }

bool set_accuracy_if_vulkan(Backend& be, const AccuracyOptions& a) {
  auto* vb = dynamic_cast<VulkanBackend*>(&be);
  if (vb) vb->set_accuracy(a);
  return vb != nullptr;
}

std::optional<AccuracyOptions> accuracy_if_vulkan(const Backend& be) {
  const auto* vb = dynamic_cast<const VulkanBackend*>(&be);
  return vb ? std::optional(vb->accuracy()) : std::nullopt;
}

bool validation_active(Backend& be) { return as_vulkan(be).device().validation_active(); }

AllocatorStats allocator_stats(Backend& be) {
  VulkanBackend& vb = as_vulkan(be);
  auto guard = vb.lock();
  const MemoryStats s = vb.allocator().stats();
  return {s.bytes_in_use,     s.bytes_reserved,        s.bytes_cached,       s.blocks,
          s.live_allocations, s.tensor_bytes_reserved, vb.allocator().cap(), vb.allocator().cache_limit()};
}

void set_memory_limits(Backend& be, std::uint64_t cap, std::uint64_t cache) {
  VulkanBackend& vb = as_vulkan(be);
  auto guard = vb.lock();
  vb.allocator().set_limits(cap, cache);
}

std::uint64_t barrier_count(Backend& be) {
  VulkanBackend& vb = as_vulkan(be);
  auto guard = vb.lock();
  return vb.recorder().barriers();
}

}  // namespace tenferro::vk
