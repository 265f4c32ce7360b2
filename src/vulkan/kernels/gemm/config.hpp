// A configuration of the Vulkan gemm kernel (shaders/gemm/gemm.comp), its text form and its
// validity on a device. Internal, not part of the public API: used by the gemm family
// (src/vulkan/kernels/gemm/), the tests (tests/vulkan/gemm*) and the sweep mode of
// bench/vk_gemm_bench.cpp.
//
// A configuration is the workgroup tile (BM x BN outputs, BK slice of K, TM x TN outputs per
// thread; powers of two), option bits (TFG_OPT_* of shaders/gemm/gemm_params.h, without
// TFG_OPT_REDUCE) and the number of K splits. Text form (TENFERRO_VK_GEMM_TILE, bench output):
// "bm,bn,bk,tm,tn[,opts[,split]]" where opts is "-" or letters: w = TFG_OPT_WARP, t = WARP with
// TFG_OPT_WARP_T, f = TFG_OPT_FAST, s = TFG_OPT_SINGLE, r = TFG_OPT_REGDB (double-buffered
// register fragments), g = TFG_OPT_GROUP (tile order in groups of 8 along m), x = TFG_OPT_NOPAD
// (unpadded shared rows, XOR swizzle for transposing stores), n / p / q = the k loop of a slice
// rolled with 1 / 2 / 4 steps per iteration (`roll`), u = the full slices of interior tiles in
// a branch-free loop (`interior_loop`, TFG_SCHED_INTERIOR; needs f), l = that loop addresses the
// slots from one pointer per operand (`lean`, TFG_SCHED_LEAN; needs u; where the thread count
// is not a multiple of an operand's words per row the shader keeps the per-slot pointers), y = the
// warp map's lanes in pairs sharing A rows (n, n^1) and B columns (n, n^2) (`pair`,
// TFG_SCHED_PAIR; needs w or t); split 0 = automatic, 1 = never,
// n >= 2 = n splits (at most one per BK slice of K). "small" forces gemm_small.comp (four
// outputs per invocation along m when M >= 4) instead of a tile.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tenferro/dtype.hpp"

namespace tenferro {
class Backend;
}

namespace tenferro::vk {

struct DeviceCaps;

struct GemmConfig {
  int bm = 0, bn = 0, bk = 0, tm = 0, tn = 0;
  std::uint32_t opts = 0;  // TFG_OPT_WARP | _WARP_T | _FAST | _SINGLE | _REGDB | _GROUP | _NOPAD
  int split = 0;           // 0 automatic, 1 never, n >= 2: n splits of K
  bool small = false;      // gemm_small.comp instead of a tile (the fields above unused)
  int roll = 0;            // k steps per iteration of a rolled (not unrolled) slice loop: 0 = the
                           // whole slice unrolled; 1, 2, 4 (fewer live registers; not with REGDB)
  bool interior_loop = false;  // interior tiles run their full slices in a loop without
                               // conditions (TFG_SCHED_INTERIOR; needs TFG_OPT_FAST)
  bool lean = false;  // that loop: one address per operand, uniform slot steps (TFG_SCHED_LEAN)
  bool pair = false;  // warp map with paired lanes (TFG_SCHED_PAIR; needs TFG_OPT_WARP)
  int threads() const { return tm > 0 && tn > 0 ? (bm / tm) * (bn / tn) : 0; }
  bool operator==(const GemmConfig&) const = default;
};

/// Elements per 16-byte word of the shared tiles (VW in the shader): 4 f32, 2 f64/c32, 1 c64.
int gemm_words_of(DType d);
/// Shared memory the configuration needs, in bytes.
std::uint64_t gemm_shared_bytes(const GemmConfig& c, DType d);
/// The shader's layout rules and the device's limits (threads, shared memory). Options that
/// the shader would ignore for this tile (a warp mapping that does not divide the thread grid,
/// FAST when a thread's load slots are not all inside the slice) make it invalid, so that a
/// sweep does not run duplicates.
bool gemm_config_valid(DType d, const GemmConfig& c, const DeviceCaps& caps);
/// gemm_config_valid on the device of `be`, which must be a Vulkan backend (tests, bench).
bool gemm_config_valid_on(Backend& be, DType d, const GemmConfig& c);

std::string gemm_config_string(const GemmConfig& c);
/// Parses the text form; nullopt when malformed.
std::optional<GemmConfig> parse_gemm_config(std::string_view s);

}  // namespace tenferro::vk
