// VkResult -> tenferro::Error, and move-only RAII handles (STYLE.md B4, B6.1).
#pragma once
#include <vulkan/vulkan.h>

#include <utility>

#include "tenferro/error.hpp"

namespace tenferro::vk {

/// Throws for any result < 0: OUT_OF_DEVICE/HOST_MEMORY -> out_of_memory, DEVICE_LOST ->
/// device_lost, others -> backend_failure. The message names the call text and location
/// (__FILE__ and __LINE__: clang 14 with libstdc++ 12 has no std::source_location).
void check_result(VkResult r, const char* call, const char* file, int line);
const char* result_name(VkResult r);
/// True once for the call that TestHooks::lose_device_at names (options.hpp), which then resets:
/// TENFERRO_VK_CHECK skips that call and reports VK_ERROR_DEVICE_LOST instead.
bool injected_device_loss(const char* call);

/// A zero-initialized Vulkan struct with its sType set.
template <class S> S vk_struct(VkStructureType type) {
  S s{};
  s.sType = type;
  return s;
}

/// A device-owned handle destroyed with `destroy(device, handle, nullptr)`. Move-only.
template <class H> class Unique {
 public:
  using Destroy = void (*)(VkDevice, H, const VkAllocationCallbacks*);
  Unique() = default;
  Unique(VkDevice device, H handle, Destroy destroy) : device_(device), handle_(handle), destroy_(destroy) {}
  Unique(Unique&& o) noexcept { *this = std::move(o); }
  Unique& operator=(Unique&& o) noexcept {
    if (this != &o) {
      reset();
      device_ = std::exchange(o.device_, VK_NULL_HANDLE);
      handle_ = std::exchange(o.handle_, VK_NULL_HANDLE);
      destroy_ = std::exchange(o.destroy_, nullptr);
    }
    return *this;
  }
  Unique(const Unique&) = delete;
  Unique& operator=(const Unique&) = delete;
  ~Unique() { reset(); }
  H get() const { return handle_; }
  explicit operator bool() const { return handle_ != VK_NULL_HANDLE; }
  void reset() {
    if (handle_ != VK_NULL_HANDLE && destroy_) destroy_(device_, handle_, nullptr);
    handle_ = VK_NULL_HANDLE;
  }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  H handle_ = VK_NULL_HANDLE;
  Destroy destroy_ = nullptr;
};

}  // namespace tenferro::vk

// The call is made unless a test hook simulates a device loss at it (injected_device_loss).
#define TENFERRO_VK_CHECK(expr)                                                               \
  ::tenferro::vk::check_result(                                                               \
      ::tenferro::vk::injected_device_loss(#expr) ? VK_ERROR_DEVICE_LOST : (expr), #expr,     \
      __FILE__, __LINE__)
