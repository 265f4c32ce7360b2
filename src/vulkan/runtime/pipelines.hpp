// Compute pipelines created lazily on first use and cached for the device's lifetime, keyed by
// (variant, op code, workgroup size); one VkPipelineCache per device (STYLE.md B6.4).
// Every pipeline shares one layout: no descriptor sets (operands are buffer device addresses),
// one push-constant range of sizeof(KernelParams).
//
// Specialization constants: 0 = local_size_x (workgroup size), 1 = op code (params.h TF_OP_*).
// Thread safety: none; VulkanBackend serializes calls with its device mutex.
#pragma once
#include <vulkan/vulkan.h>

#include <map>
#include <string>
#include <tuple>

#include "vulkan/runtime/device.hpp"
#include "vulkan/runtime/vk_check.hpp"

namespace tenferro::vk {

class Pipelines {
 public:
  static constexpr std::uint32_t kDefaultWorkgroupSize = 256;

  explicit Pipelines(const Device& device);
  Pipelines(const Pipelines&) = delete;
  Pipelines& operator=(const Pipelines&) = delete;

  /// The pipeline of shader `variant` specialized for `op` and `local_size`.
  /// Unknown variant: Error{internal}.
  VkPipeline get(const std::string& variant, int op, std::uint32_t local_size = kDefaultWorkgroupSize);
  VkPipelineLayout layout() const { return layout_.get(); }
  std::size_t size() const { return pipelines_.size(); }

 private:
  VkShaderModule module(const std::string& variant);

  const Device& device_;
  Unique<VkPipelineCache> cache_;
  Unique<VkPipelineLayout> layout_;
  std::map<std::string, Unique<VkShaderModule>> modules_;
  std::map<std::tuple<std::string, int, std::uint32_t>, Unique<VkPipeline>> pipelines_;
};

}  // namespace tenferro::vk
