// Environment options, read once here and nowhere else.
#pragma once
#include <cstdint>
#include <string>

namespace tenferro {

struct Options {
  std::string device;                  // TENFERRO_DEVICE: "" (auto), "cpu" or a Vulkan ordinal
  bool vk_validation = false;          // TENFERRO_VK_VALIDATION=1: enable the Khronos layer
  std::uint64_t vk_memory_cap = 0;     // TENFERRO_VK_MEMORY_CAP: bytes (0 = device budget)
  std::uint64_t vk_cache_bytes = 256ull << 20;  // TENFERRO_VK_CACHE: bytes kept after frees
};

const Options& options();

}  // namespace tenferro
