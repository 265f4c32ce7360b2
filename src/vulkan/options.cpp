#include "vulkan/options.hpp"

#include <algorithm>

#include "core/env.hpp"

namespace tenferro::vk {

const Options& options() {
  static const Options o = [] {
    Options r;
    r.validation = env::u64("TENFERRO_VK_VALIDATION", 0) != 0;
    r.memory_cap = env::u64("TENFERRO_VK_MEMORY_CAP", 0);
    r.profile = env::u64("TENFERRO_VK_PROFILE", 0) != 0;
    const std::uint64_t oz = env::u64("TENFERRO_VK_GEMM_OZAKI", 1);
    r.gemm_ozaki = oz <= 1 ? static_cast<std::uint32_t>(oz) : static_cast<std::uint32_t>(std::clamp<std::uint64_t>(oz, 8, 20));
    r.gemm_3m = static_cast<std::uint32_t>(std::min<std::uint64_t>(env::u64("TENFERRO_VK_GEMM_3M", 0), 2));
    r.f32_via_f64 = static_cast<std::uint32_t>(std::min<std::uint64_t>(env::u64("TENFERRO_VK_F32_VIA_F64", 2), 2));
    r.cache_bytes = env::u64("TENFERRO_VK_CACHE", r.cache_bytes);
    r.spin_us = static_cast<std::uint32_t>(env::u64("TENFERRO_VK_SPIN_US", r.spin_us));
    r.early_commands = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, env::u64("TENFERRO_VK_EARLY_COMMANDS", r.early_commands)));
    r.gemm_tile = env::text("TENFERRO_VK_GEMM_TILE").value_or("");
    r.gemm_stage = env::u64("TENFERRO_VK_GEMM_STAGE", 0) != 0;
    r.pipeline_stats = env::u64("TENFERRO_VK_PIPELINE_STATS", 0) != 0;
    return r;
  }();
  return o;
}

TestHooks& test_hooks() {
  static TestHooks h;
  return h;
}

}  // namespace tenferro::vk
