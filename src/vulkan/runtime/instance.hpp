// The Vulkan instance: loader entry, optional Khronos validation layer and a debug messenger
// that counts every warning/error message (tests fail on a non-zero count).
#pragma once
#include <vulkan/vulkan.h>

#include <cstdint>

namespace tenferro::vk {

class Instance {
 public:
  /// Creates a Vulkan 1.2 instance. With `validation`, enables VK_LAYER_KHRONOS_validation and a
  /// counting messenger when the layer exists (else prints a note and runs without).
  /// Throws Error{unsupported} when no Vulkan 1.2 loader/ICD exists, backend_failure otherwise.
  explicit Instance(bool validation);
  ~Instance();
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  VkInstance get() const { return instance_; }
  bool validation_active() const { return messenger_ != VK_NULL_HANDLE; }

 private:
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
};

/// Validation-layer warnings and errors seen by any instance of this process.
std::uint64_t validation_message_count_impl();

}  // namespace tenferro::vk
