// Compute pipelines created lazily on first use and cached for the device's lifetime, keyed by
// (variant, op code, workgroup size, aux); one VkPipelineCache per device (STYLE.md B6.4).
// Every pipeline shares one layout: no descriptor sets (operands are buffer device addresses),
// one push-constant range of sizeof(KernelParams).
//
// Specialization constants: 0 = local_size_x (workgroup size), 1 = op code (params.h TF_OP_*),
// 2 = aux (a per-family switch; index.glsl: the inner-block table's shared memory, TF_TAB_ON).
// The pipeline cache persists in the kernel cache folder (runtime/compiler.hpp,
// kernel_cache_dir): one file per device model and driver build (vendor, device and the
// driver's pipelineCacheUUID in its name and header), read when the device opens and written,
// through a temporary file and a rename, after every generated pipeline and when the device
// closes. So a later process creates the pipelines this one compiled (a fused kernel's included)
// without compiling them again. A file of another driver or a damaged one is ignored.
//
// Thread safety: none; VulkanBackend serializes calls with its device mutex.
#pragma once
#include <vulkan/vulkan.h>

#include <filesystem>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "vulkan/runtime/device.hpp"
#include "vulkan/runtime/vk_check.hpp"

namespace tenferro::vk {

class Pipelines {
 public:
  static constexpr std::uint32_t kDefaultWorkgroupSize = 256;

  explicit Pipelines(const Device& device);
  ~Pipelines();
  Pipelines(const Pipelines&) = delete;
  Pipelines& operator=(const Pipelines&) = delete;

  /// The pipeline of shader `variant` specialized for `op`, `local_size` and `aux`.
  /// Unknown variant: Error{internal}. A hit costs one string hash and no allocation.
  VkPipeline get(std::string_view variant, int op, std::uint32_t local_size = kDefaultWorkgroupSize,
                 std::uint32_t aux = 0);
  /// The pipeline of a kernel generated at run time, cached under `key` (what determines its
  /// source); on a miss, `spirv()` gives its code (runtime/compiler.hpp), compiled outside this
  /// call's lock by the caller's choice. Same layout and push constants as the embedded kernels.
  /// `op`: specialization constant 1 (the key must tell ops apart).
  VkPipeline get_generated(const std::string& key, const std::function<std::vector<std::uint32_t>()>& spirv,
                           std::uint32_t local_size = kDefaultWorkgroupSize, int op = 0);
  VkPipelineLayout layout() const { return layout_.get(); }
  std::size_t size() const { return count_; }

 private:
  VkShaderModule module(std::string_view variant);
  /// Writes the pipeline cache to cache_file_ when pipelines were created since the last write.
  void save_cache();
  /// A shader module of `words` (f32 denormals preserved where the device allows it).
  Unique<VkShaderModule> create_module(std::span<const std::uint32_t> words);
  /// Creates the pipeline of `m` specialized for (local, op, aux).
  VkPipeline create(VkShaderModule m, std::string_view label, int op, std::uint32_t local, std::uint32_t aux);
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  struct Entry {
    int op;
    std::uint32_t local;
    std::uint32_t aux;
    Unique<VkPipeline> pipeline;
  };

  const Device& device_;
  Unique<VkPipelineCache> cache_;
  Unique<VkPipelineLayout> layout_;
  std::map<std::string, Unique<VkShaderModule>, std::less<>> modules_;
  // variant -> its (op, local size, aux) specializations (a handful each: a linear scan)
  std::unordered_map<std::string, std::vector<Entry>, Hash, std::equal_to<>> pipelines_;
  struct Generated {
    Unique<VkShaderModule> module;
    Unique<VkPipeline> pipeline;
  };
  std::unordered_map<std::string, Generated> generated_;  // key -> pipeline (local size in the key)
  std::size_t count_ = 0;
  std::filesystem::path cache_file_;  // empty: the cache is not persisted
  std::size_t saved_count_ = 0;       // count_ at the last read or write of cache_file_
};

}  // namespace tenferro::vk
