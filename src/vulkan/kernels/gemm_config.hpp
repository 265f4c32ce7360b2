// Configuration of the Vulkan gemm kernel (shaders/gemm/gemm.comp, src/vulkan/kernels/gemm.cpp).
// Internal, not part of the public API: used by gemm.cpp, tests/vulkan/gemm_gpu_test.cpp and the
// sweep mode of bench/vk_gemm_bench.cpp.
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
//
// Selection order per gemm call: the override (set_gemm_config_override), else
// Options::gemm_tile, else gemm_default_config; an override that is not valid for the
// call's dtype and device is ignored (the default is used). A forced tile (override or option)
// always runs the tiled kernel, also for the products that gemm_small.comp would take.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tenferro/dtype.hpp"
#include "tenferro/tensor.hpp"

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
/// The built-in choice (table in gemm.cpp, per dtype and size class), shrunk to the device.
GemmConfig gemm_default_config(DType d, std::int64_t M, std::int64_t N, std::int64_t K, std::int64_t B,
                               const DeviceCaps& caps);
/// Number of K splits a call runs with: c.split when >= 1 (clamped to the number of BK slices),
/// else a heuristic (few tiles, long K). 1 means no split.
/// The partial tiles of all splits hold at most `scratch_limit` bytes (GemmCall::scratch_limit).
int gemm_splits(const GemmConfig& c, DType d, std::int64_t M, std::int64_t N, std::int64_t K, std::int64_t B,
                std::uint64_t scratch_limit = kNoScratchLimit);
/// Estimated seconds of the default FMA kernels' product where the wave model chooses its tile
/// (the model's estimate for its choice, before the short-K and interior-loop rules: f64 on
/// devices that report an SM count, at least a wave of tiles, not the kF64Huge tile), else 0:
/// ozaki_faster then assumes the large tiles' rate.
double gemm_fma_seconds(DType d, std::int64_t M, std::int64_t N, std::int64_t K, std::int64_t B,
                        const DeviceCaps& caps);

/// True when an unforced call with these extents runs gemm_small.comp (one invocation per
/// output, or per four outputs along m) instead of the tiled kernel.
bool gemm_uses_small_kernel(std::int64_t M, std::int64_t N, std::int64_t K, std::int64_t B);

/// The two above on the device of `be`, which must be a Vulkan backend (tests, bench).
bool gemm_config_valid_on(Backend& be, DType d, const GemmConfig& c);
GemmConfig gemm_default_config_on(Backend& be, DType d, std::int64_t M, std::int64_t N, std::int64_t K,
                                  std::int64_t B);
/// `c` as the defaults on the device of `be` would run it: with the paired warp map where the
/// defaults add it (f64 on devices that report an SM count; gemm.cpp `paired`).
GemmConfig gemm_paired_on(Backend& be, DType d, const GemmConfig& c);

std::string gemm_config_string(const GemmConfig& c);
/// Parses the text form; nullopt when malformed.
std::optional<GemmConfig> parse_gemm_config(std::string_view s);

/// The opt-in 3-multiply form of complex products (Options::gemm_3m, gemm.cpp gemm_3m): with
/// mode 1 it takes products with M, N, K >= kGemm3MMinExtent, with mode 2 every complex product
/// with K > 0; never a chained C, and never when the real planes (3 (MK + KN + MN) B real elements)
/// would exceed kGemm3MMaxScratch bytes or `scratch_limit` (GemmCall::scratch_limit). (H200, sixteenth
/// session, 3M / 4M TFLOP/s: c32 1024^3 25.0-25.2 / 32.5-33.0, 2048^3 53.5-54.5 / 43.9-44.5, 4096^3
/// 60.3-60.5 / 47.7-47.8; c64 1024^3 20.2-20.9 / 20.2-20.6, 2048^3 27.7-27.8 / 21.3-22.1.)
inline constexpr std::int64_t kGemm3MMinExtent = 2048;
inline constexpr std::uint64_t kGemm3MMaxScratch = std::uint64_t{4} << 30;
bool gemm_takes_3m(DType d, std::int64_t M, std::int64_t N, std::int64_t K, std::int64_t B, bool chained,
                   std::uint64_t scratch_limit = kNoScratchLimit);
/// Test hook: while set, replaces Options::gemm_3m (0, 1, 2). Not synchronized.
void set_gemm_3m_override(std::optional<int> mode);

/// The Ozaki-II f64 product (Options::gemm_ozaki: 1 certified on 14 moduli, the default;
/// n = 8 to 20 the normwise opt-in; gemm_ozaki.cpp), and c64, f32 and c32 (7 moduli) products
/// where certified: products with K <= TFO_MAX_K
/// (shaders/ozaki/ozaki_params.h) and scratch (the byte planes of A and B, the residue bytes of
/// the products; certified: the q planes and their product) <= kOzakiMaxScratch and
/// `scratch_limit` (GemmCall::scratch_limit), never a
/// chained C, on a device with the tensor-core residue kernel (`tensor_cores`:
/// DeviceCaps::nv_coopmat_u8) where ozaki_faster says so (certified: also K >= 512). Returns the
/// number of moduli, 0 when not taken. With `caps`, ozaki_faster compares against the FMA
/// kernels' estimated time on that device (gemm_fma_seconds) where K >= kOzakiCertifiedMinK;
/// else against their 22.9 TFLOP/s.
inline constexpr std::uint64_t kOzakiMaxScratch = std::uint64_t{4} << 30;
/// Certified products' least K (the time model; tau = (K - 8) u leaves most of K u to the
/// scheme at any K).
inline constexpr std::int64_t kOzakiCertifiedMinK = 512;
int gemm_ozaki_moduli(DType d, std::int64_t M, std::int64_t N, std::int64_t K, std::int64_t B, bool chained,
                      bool tensor_cores, const DeviceCaps* caps = nullptr,
                      std::uint64_t scratch_limit = kNoScratchLimit);
/// Time model (H200; residue products eighteenth session, tools/gpu_call18e.sh to 18h.sh; element
/// passes nineteenth session, tools/gpu_call19c.sh): f64 FMA kernels 22.9 TFLOP/s; residue
/// products 576 / (1 + 781 / K) TOPS (484-491, 526 measured at 4096^3, 8192^3); scan, scale and
/// split (11.4 + 0.33 n) ps per operand element; combine (3.7 + 0.96 n + 0.014 n^2) ps per output;
/// 40 us for the eight dispatches: true when n moduli are expected to beat the FMA kernels by
/// 5 %. It takes 4096^3 with up to 16 moduli (14 and 16 measured faster), 8192^3 up to 19,
/// 2048^3 up to 11 (11 measured faster; 12 measured 2 % faster, under the margin; 16 slower),
/// 1024 x 256^3 never.
/// `certified`: one more plane per operand and product (half a plane's product from K = 2048,
/// as for dense operands), and the certify pass (not yet fitted).
/// The products count the extents padded to the residue kernel's 128 (TFO_TILE). The FMA
/// kernels' time is fma_seconds where that is longer than their 22.9 TFLOP/s (tiles that fill
/// the device badly, split K: the wave model's estimate, gemm_fma_seconds).
/// `d` f32 / c32 / c64 (certified; gemm_ozaki.cpp): complex products three plane sets per modulus
/// and two CRTs per output, f32 elements 8 ps a part in the element passes; against the FMA
/// kernels at 46 TFLOP/s (f32; 4096^3 measured 46.2-46.3), 48 (c32, counted as 8 MNK: 4096^3
/// 47.7-48.1) or 22.9 (c64: 2048^3 22.2-22.4).
bool ozaki_faster(int n, std::int64_t M, std::int64_t N, std::int64_t K, std::int64_t B, bool certified = false,
                  double fma_seconds = 0, DType d = DType::F64);
/// Whether a product gemm_ozaki_moduli takes is certified (the option or the override).
bool gemm_ozaki_certified();
/// Bits P per row of A / column of B with n moduli and this K: the largest P with
/// 2P + ceil(log2 K) + 2 <= floor(log2 prod m_l), at most 62.
int ozaki_bits(int n, std::int64_t K);
/// Certified products: A's rows are scaled by their sums of |a| to below 2^pa, B's columns by
/// their largest |b| to below 2^pb, pa + pb = floor(log2 prod m_l) - 2 (sum_k |A'||B'| <= sum |A'|
/// max |B'|), pb = (that - max(0, ceil(log2 K) - 2)) / 2 (a sum near K / 4 times the largest
/// balances the two roundings' errors), pa at most 62. n = 14, K = 4096: pa = 59, pb = 49.
void ozaki_bits_certified(int n, std::int64_t K, int& pa, int& pb);
/// Test hook: while set, replaces Options::gemm_ozaki: `moduli` (0 = off) for every f64 product
/// (and c64, f32 and c32 products where `certified`; f32 and c32 on 7 moduli) (any size and
/// device: the time model is not asked);
/// `portable` runs the residue products on ozaki_mm.comp also where the tensor-core kernel exists.
/// Not synchronized.
struct OzakiOverride {
  int moduli = 0;
  bool portable = false;
  bool certified = false;  // the certified product (with `moduli`)
  bool history = false;    // certified: also skip the scheme after a failure (the default's way)
  // Timing diagnostics only (tenferro_bench_vk_gemm --ozaki-skip; the results are wrong): 1
  // skips the scan and split passes, 2 the residue products, 4 the combine pass, 8 the split
  // pass alone (its scan and scale passes run).
  unsigned skip = 0;
};
void set_gemm_ozaki_override(std::optional<OzakiOverride> o);
/// Test hook: how many products the scheme has run (not the ones that fell back). Not
/// synchronized.
std::uint64_t gemm_ozaki_runs();
/// Test hook: the dispatch arguments (int32 x 4) of the last certified product run while the
/// override was set: (gx, gy, 1, 0) where its certificate failed, else zeros. Moved out.
std::optional<Tensor> gemm_ozaki_take_certificate();

/// Test hook: while set, overrides Options::gemm_stage (C's tile stored through shared
/// memory where its element stores would leave sectors half written; gemm.cpp stages_c).
void set_gemm_stage_override(std::optional<bool> on);
/// Test hook: gemm.comp dispatches recorded with the staged store of C so far.
std::uint64_t gemm_staged_dispatches();

/// Test / tuning hook: while set, every Vulkan gemm call uses `c` when valid for its dtype and
/// device. Not synchronized: set it while no gemm call is running.
void set_gemm_config_override(const std::optional<GemmConfig>& c);

}  // namespace tenferro::vk
