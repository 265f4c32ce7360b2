#include "vulkan/options.hpp"

#include <limits>
#include <regex>

#include "core/env.hpp"
#include "tenferro/error.hpp"
#include "vulkan/kernels/gemm/config.hpp"

namespace tenferro::vk {

const Options& options() {
  // A throwing initializer leaves the static uninitialized: the next call reads again.
  static const Options o = [] {
    constexpr std::uint64_t kU32 = std::numeric_limits<std::uint32_t>::max();
    Options r;
    r.validation = env::flag("TENFERRO_VK_VALIDATION", false);
    r.memory_cap = env::bytes("TENFERRO_VK_MEMORY_CAP", 0);
    r.profile = env::flag("TENFERRO_VK_PROFILE", false);
    r.cache_bytes = env::bytes("TENFERRO_VK_CACHE", r.cache_bytes);
    r.spin_us = static_cast<std::uint32_t>(env::uint("TENFERRO_VK_SPIN_US", r.spin_us, 0, 10'000'000));
    r.early_commands = static_cast<std::uint32_t>(env::uint("TENFERRO_VK_EARLY_COMMANDS", r.early_commands, 1, kU32));
    r.gemm_tile = env::text("TENFERRO_VK_GEMM_TILE").value_or("");
    // (The whole text, not a prefix that parse_gemm_config's sscanf would take.)
    static const std::regex kTile("small|[0-9]+(,[0-9]+){4}(,[-wtfsrgxnpquly]+(,[0-9]+)?)?");
    TENFERRO_CHECK(r.gemm_tile.empty() || (std::regex_match(r.gemm_tile, kTile) && parse_gemm_config(r.gemm_tile)),
                   invalid_argument, "environment",
                   "TENFERRO_VK_GEMM_TILE", "TENFERRO_VK_GEMM_TILE='", r.gemm_tile,
                   "' is not accepted: expected small or bm,bn,bk,tm,tn[,opts[,split]] (docs/configuration.md)");
    r.gemm_stage = env::flag("TENFERRO_VK_GEMM_STAGE", false);
    r.pipeline_stats = env::flag("TENFERRO_VK_PIPELINE_STATS", false);
    r.kernel_cache = env::text("TENFERRO_VK_KERNEL_CACHE").value_or("");
    return r;
  }();
  return o;
}

TestHooks& test_hooks() {
  static TestHooks h;
  return h;
}

}  // namespace tenferro::vk
