// The built-in choices of the Vulkan gemm (policy.cpp): the configuration of a product (tile,
// options, K splits), whether it runs on gemm_small.comp, how a chained C and a staged C change
// the tile. Internal: used by gemm.cpp, gemm3m.cpp, ozaki.cpp, the tests and the bench.
//
// Selection order per gemm call (gemm_choose_config): the test / tuning override
// (set_gemm_config_override), else Options::gemm_tile, else gemm_default_config; an override
// that is not valid for the call's dtype and device is ignored (the default is used). A forced
// tile (override or option) always runs the tiled kernel, also for the products that
// gemm_small.comp would take.
#pragma once
#include <cstdint>
#include <optional>

#include "tenferro/backend/gemm_call.hpp"
#include "tenferro/dtype.hpp"
#include "vulkan/kernels/gemm/config.hpp"

namespace tenferro::vk {

/// A product as the choices see it: C [M, N] in B batches, K summed, its dtype; whether C is a
/// chained view (GemmCall::chained) and the optional scratch it may hold (GemmCall::scratch_limit).
struct GemmProblem {
  DType d = DType::F32;
  std::int64_t M = 0, N = 0, K = 0, B = 0;
  bool chained = false;
  std::uint64_t scratch_limit = kNoScratchLimit;
};

/// The built-in choice (tables in policy.cpp, per dtype and size class; the wave model for f64
/// on devices that report an SM count), shrunk to the device.
GemmConfig gemm_default_config(const GemmProblem& p, const DeviceCaps& caps);
/// Number of K splits a call runs with: c.split when >= 1 (clamped to the number of BK slices),
/// else a heuristic (few tiles, long K). 1 means no split. Every split holds whole BK slices and
/// none is empty; the partial tiles of all splits hold at most kGemmSplitMaxScratch and
/// p.scratch_limit bytes.
int gemm_splits(const GemmConfig& c, const GemmProblem& p);
inline constexpr std::uint64_t kGemmSplitMaxScratch = std::uint64_t{256} << 20;
/// Estimated seconds of the default FMA kernels' product where the wave model chooses its tile
/// (the model's estimate for its choice, before the short-K and interior-loop rules: f64 on
/// devices that report an SM count, at least a wave of tiles, not the kF64Huge tile), else 0:
/// ozaki_faster then assumes the large tiles' rate.
double gemm_fma_seconds(const GemmProblem& p, const DeviceCaps& caps);
/// The wave model's estimate in seconds of configuration c (c.split splits of K; 0 or 1: one)
/// where the model applies and tries c (its tile among the model's candidates, the paired warp
/// map aside), else 0. The model's own choice is its fastest: gemm_fma_seconds is never above it.
double gemm_wave_seconds(const GemmConfig& c, const GemmProblem& p, const DeviceCaps& caps);

/// True for products whose tiles would be mostly empty (few outputs per matrix, short K): they
/// run on gemm_small.comp, one invocation per output.
bool gemm_small_product(std::int64_t M, std::int64_t N, std::int64_t K);
/// True for many short columns with short K: gemm_small.comp with four outputs per invocation.
bool gemm_short_columns(std::int64_t M, std::int64_t N, std::int64_t K, std::int64_t B);
/// True when an unforced call with these extents runs gemm_small.comp (one of the two above).
bool gemm_uses_small_kernel(std::int64_t M, std::int64_t N, std::int64_t K, std::int64_t B);

/// The configuration of one call: the override, Options::gemm_tile, else the default.
/// `forced`: an override or the option was used (the tiled kernel then runs even for small
/// products, so that tests and sweeps measure the configuration they asked for).
GemmConfig gemm_choose_config(const GemmProblem& p, const DeviceCaps& caps, bool& forced);
/// t for a chained C: room for gemm.comp's table of the tile's row and column offsets in shared
/// memory (BK halves until it fits). Throws Error{unsupported} where no BK fits.
GemmConfig gemm_chained_config(GemmConfig t, DType d, const DeviceCaps& caps);
/// Whether gemm.comp stores C's tile through shared memory (TFG_SCHED_STAGE; opt-in,
/// Options::gemm_stage or set_gemm_stage_override): where the register tile's element stores
/// would leave C's 32-byte sectors half written, and the staging buffer fits. `words`: the
/// register tile stores whole 16-byte words along m; c_addr, scm, scn, scb: C's address and
/// strides (of its first chains where p.chained).
bool gemm_stages_c(const GemmConfig& t, const GemmProblem& p, const DeviceCaps& caps, bool words, std::uint64_t c_addr,
                   std::int64_t scm, std::int64_t scn, std::int64_t scb);
/// `c` with the paired warp map where the defaults add it (f64 on devices that report an SM
/// count, except the tiles measured without it).
GemmConfig gemm_paired(GemmConfig c, DType d, const DeviceCaps& caps);
/// K per split when K is cut into `splits` pieces of whole BK slices (the last may be shorter).
std::int64_t gemm_split_k(std::int64_t K, std::int64_t splits, std::int64_t bk);
/// True when stepping `stride` elements of `es` bytes keeps `bytes`-byte alignment (or the axis
/// has one element).
inline bool gemm_aligned_to(std::int64_t bytes, std::int64_t stride, std::int64_t extent, std::size_t es) {
  return extent <= 1 || (stride * static_cast<std::int64_t>(es)) % bytes == 0;
}

/// gemm_default_config on the device of `be`, which must be a Vulkan backend (bench).
GemmConfig gemm_default_config_on(Backend& be, const GemmProblem& p);

/// Test and tuning hook (tests, bench sweeps): while set, every Vulkan gemm call uses `c` where
/// valid for its dtype and device. Not synchronized: set it while no gemm call is running.
void set_gemm_config_override(const std::optional<GemmConfig>& c);
/// Test hook: while set, replaces Options::gemm_stage (gemm_stages_c). Not synchronized.
void set_gemm_stage_override(std::optional<bool> on);
/// Test hook: gemm.comp dispatches recorded with the staged store of C so far (counted by
/// gemm.cpp).
std::uint64_t gemm_staged_dispatches();

}  // namespace tenferro::vk
