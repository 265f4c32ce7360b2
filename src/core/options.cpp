#include "options.hpp"

#include <algorithm>
#include <cstdlib>

namespace tenferro {

namespace {
std::uint64_t env_u64(const char* name, std::uint64_t dflt) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : dflt;
}
}  // namespace

const Options& options() {
  static const Options o = [] {
    Options r;
    if (const char* d = std::getenv("TENFERRO_DEVICE")) r.device = d;
    r.vk_validation = env_u64("TENFERRO_VK_VALIDATION", 0) != 0;
    r.vk_memory_cap = env_u64("TENFERRO_VK_MEMORY_CAP", 0);
    r.vk_profile = env_u64("TENFERRO_VK_PROFILE", 0) != 0;
    r.vk_cache_bytes = env_u64("TENFERRO_VK_CACHE", r.vk_cache_bytes);
    if (const char* t = std::getenv("TENFERRO_VK_GEMM_TILE")) r.vk_gemm_tile = t;
    r.vk_gemm_waves = env_u64("TENFERRO_VK_GEMM_WAVES", 1) != 0;
    r.vk_gemm_pair = env_u64("TENFERRO_VK_GEMM_PAIR", 1) != 0;
    r.vk_gemm_stage = env_u64("TENFERRO_VK_GEMM_STAGE", 0) != 0;
    const std::uint64_t chains = env_u64("TENFERRO_VK_GEMM_CHAINS", 1);
    r.vk_gemm_chains = chains != 0;
    r.vk_gemm_chains_wide = chains == 2;
    r.vk_gemm_3m = static_cast<std::uint32_t>(std::min<std::uint64_t>(env_u64("TENFERRO_VK_GEMM_3M", 0), 2));
    // 1 (default): certified; 0: off; 8 to 20: the normwise product on that many moduli.
    const std::uint64_t oz = env_u64("TENFERRO_VK_GEMM_OZAKI", 1);
    r.vk_gemm_ozaki = oz <= 1 ? static_cast<std::uint32_t>(oz) : static_cast<std::uint32_t>(std::clamp<std::uint64_t>(oz, 8, 20));
    r.vk_f32_via_f64 = static_cast<std::uint32_t>(std::min<std::uint64_t>(env_u64("TENFERRO_VK_F32_VIA_F64", 2), 2));
    r.vk_permute_tiles = env_u64("TENFERRO_VK_PERMUTE_TILES", 1) != 0;
    r.vk_strided_elems = static_cast<std::uint32_t>(std::min<std::uint64_t>(env_u64("TENFERRO_VK_STRIDED_ELEMS", r.vk_strided_elems), 1024));
    r.vk_spin_us = static_cast<std::uint32_t>(env_u64("TENFERRO_VK_SPIN_US", r.vk_spin_us));
    r.vk_pipeline_stats = env_u64("TENFERRO_VK_PIPELINE_STATS", 0) != 0;
    r.einsum_interleave = env_u64("TENFERRO_EINSUM_INTERLEAVE", 1) != 0;
    r.einsum_unit_stride = env_u64("TENFERRO_EINSUM_UNIT_STRIDE", 1) != 0;
    r.einsum_consumer_order_bytes = env_u64("TENFERRO_EINSUM_CONSUMER_ORDER", r.einsum_consumer_order_bytes);
    r.einsum_consumer_swap = env_u64("TENFERRO_EINSUM_CONSUMER_SWAP", 1) != 0;
    r.dot_batch_repack = env_u64("TENFERRO_DOT_BATCH_REPACK", 1) != 0;
    const std::uint64_t early = env_u64("TENFERRO_VK_EARLY_COMMANDS", r.vk_early_commands);
    r.vk_early_commands = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, early));
    return r;
  }();
  return o;
}

}  // namespace tenferro
