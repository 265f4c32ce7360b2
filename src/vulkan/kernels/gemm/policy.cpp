// The built-in choices of the Vulkan gemm (policy.hpp): the tables of configurations per dtype
// and size class, the f64 wave model, split K, the small-kernel rules, the paired warp map, and
// the tile changes of a chained or staged C. The figures next to each rule are the H200's
// (driver 580; a call's median inside a stream of calls unless said), the benchmark case that
// justifies the rule against the next best choice; docs/gemm.md keeps the tables.
#include "vulkan/kernels/gemm/policy.hpp"

#include <algorithm>
#include <optional>

#include "shaders/gemm/gemm_params.h"
#include "vulkan/backend.hpp"
#include "vulkan/options.hpp"

namespace tenferro::vk {

namespace {

using I = std::int64_t;

/// Size classes of an M x N product (first match): small (M, N <= 32), tall (N <= 32,
/// M >= 512), wide (M <= 32, N >= 512), large (M, N >= 512), else medium; gemm_default_config
/// turns medium into large (enough tiles) or few (M, N <= 256, or one of them <= 32: few tiles).
/// A large product whose large-tile grid has fewer than kLargeMinTiles tiles is `mid`.
enum class SizeClass : std::uint8_t { small, tall, wide, large, medium, few, mid };

SizeClass size_class(I M, I N) {
  if (M <= 32 && N <= 32) return SizeClass::small;
  if (N <= 32 && M >= 512) return SizeClass::tall;
  if (M <= 32 && N >= 512) return SizeClass::wide;
  if (M >= 512 && N >= 512) return SizeClass::large;
  return SizeClass::medium;
}

struct DefaultRow {
  DType d;
  SizeClass cls;
  GemmConfig c;  // {bm, bn, bk, tm, tn, opts, split}
};

// The defaults: one line per (dtype, size class). Large: best of the H200 sweep in docs/gemm.md;
// small: one workgroup per small matrix (batches across the grid). tall / wide: the medium tile
// where not measured (candidates: {256, 32, 16, 8, 4} / {32, 256, 16, 4, 8}).
constexpr std::uint32_t kNoOpts = 0;
constexpr std::uint32_t kF = TFG_OPT_FAST, kFS = TFG_OPT_FAST | TFG_OPT_SINGLE, kWF = TFG_OPT_WARP | TFG_OPT_FAST;
constexpr std::uint32_t kWFS = kWF | TFG_OPT_SINGLE;
/// c with the interior-tile loop (u, TFG_SCHED_INTERIOR): interior tiles run their full slices
/// branch-free (4096^3: c32 37.7 -> 44.8 TFLOP/s, f64 128 x 64 4 x 8 12.4 -> 19.8; c64 2048^3
/// 18.3 -> 22.2 on 64 x 64 4 x 8; f32 +2-5 %).
constexpr GemmConfig with_u(GemmConfig c) {
  c.interior_loop = true;
  return c;
}
// f64 tiles used by several rules below: 64 x 128 with 8 x 8 per thread in one shared buffer
// (the large row and the wave model), 64 x 32 with 4 x 4 per thread (the mid ladder, the wave
// model, the medium-few rule).
constexpr GemmConfig kF64Wide = {64, 128, 16, 8, 8, kFS, 0};
constexpr GemmConfig kF64Narrow = {64, 32, 16, 4, 4, kF, 0};
// f64 128 x 64, 4 x 8 per thread with the interior loop (196 registers on the H200: one
// workgroup per SM): 19.8 TFLOP/s at 4096^3; without u 18.5 rolled by 4, 12.4 unrolled.
constexpr GemmConfig kF64Mid = with_u({128, 64, 8, 4, 8, kF, 0});
constexpr DefaultRow kDefaults[] = {
    // Large (and medium with enough tiles to fill the device): the best of the H200 sweep
    // (bench/RESULTS.md).
    // f32: single buffer with u, 4096^3 3.30 ms vs 3.41 double-buffered (8192^3 25.3 vs 26.3).
    {DType::F32, SizeClass::large, with_u({128, 128, 16, 8, 8, kFS, 0})},
    {DType::F64, SizeClass::large, with_u(kF64Wide)},
    {DType::C32, SizeClass::large, with_u({128, 128, 8, 8, 4, kWF, 0})},
    // c64: 64 x 64 4 x 8 with u, 2048^3 3.10 ms vs 3.77 on 64 x 32 4 x 4 ('-').
    {DType::C64, SizeClass::large, with_u({64, 64, 8, 4, 8, kF, 0})},
    // Mid (large, but under two waves of large tiles): f64 on 256-thread 128 x 64 tiles (H200
    // sweep, f64 1024^3: 14.5 TFLOP/s vs 10.8 on the large tile, both unsplit; 9.3 split in 2-4).
    // First rung of the mid ladder (kMidFiner below); c32 keeps its large tile, c64 takes 4 x 4
    // per thread (256 threads).
    {DType::F32, SizeClass::mid, with_u({128, 128, 16, 8, 8, kFS, 0})},
    {DType::F64, SizeClass::mid, kF64Mid},  // 1024^3 0.128 ms vs 0.141 rolled without u
    {DType::C32, SizeClass::mid, with_u({128, 128, 8, 8, 4, kWF, 0})},
    {DType::C64, SizeClass::mid, with_u({64, 64, 8, 4, 4, kF, 0})},  // 1024^3 0.422 ms vs 0.518 ('-')
    {DType::F32, SizeClass::medium, {64, 64, 16, 4, 4, kNoOpts, 0}},
    {DType::F64, SizeClass::medium, {64, 64, 16, 4, 4, kNoOpts, 0}},
    {DType::C32, SizeClass::medium, {64, 64, 16, 4, 4, kNoOpts, 0}},
    {DType::C64, SizeClass::medium, {64, 64, 4, 4, 4, kNoOpts, 0}},
    // Few tiles, both extents <= 256: small tiles spread the work. BK 16, not the sweep's best
    // single 256^3 product (32x32x32): in chains of such products (einsum
    // str_matrix_chain_multiplication_100, H200) BK 32 ran 3x slower than BK 16.
    {DType::F32, SizeClass::few, {32, 32, 16, 4, 4, kNoOpts, 0}},
    {DType::F64, SizeClass::few, {32, 32, 16, 4, 4, kNoOpts, 0}},
    {DType::C32, SizeClass::few, {32, 32, 16, 4, 4, kNoOpts, 0}},
    {DType::C64, SizeClass::few, {32, 32, 8, 4, 4, kNoOpts, 0}},
    {DType::F32, SizeClass::tall, {128, 32, 16, 8, 4, kNoOpts, 0}},  // sweep: f32 16384 x 32 x 4096
    {DType::F64, SizeClass::tall, {128, 32, 16, 8, 4, kNoOpts, 0}},  // (not measured in f64)
    {DType::C32, SizeClass::tall, {64, 64, 16, 4, 4, kNoOpts, 0}},
    {DType::C64, SizeClass::tall, {64, 64, 4, 4, 4, kNoOpts, 0}},
    {DType::F32, SizeClass::wide, {64, 64, 16, 4, 4, kNoOpts, 0}},
    {DType::F64, SizeClass::wide, {64, 64, 16, 4, 4, kNoOpts, 0}},
    {DType::C32, SizeClass::wide, {64, 64, 16, 4, 4, kNoOpts, 0}},
    {DType::C64, SizeClass::wide, {64, 64, 4, 4, 4, kNoOpts, 0}},
    {DType::F32, SizeClass::small, {32, 32, 16, 4, 4, kNoOpts, 0}},
    {DType::F64, SizeClass::small, {16, 16, 16, 2, 2, kNoOpts, 0}},  // kSmallF64Narrow / Wide in class_row
    {DType::C32, SizeClass::small, {32, 32, 16, 4, 4, kNoOpts, 0}},
    {DType::C64, SizeClass::small, {32, 32, 16, 4, 4, kNoOpts, 0}},
};

// Finer rungs of the mid class, in order: gemm_default_config takes the first rung (the mid row
// of kDefaults, then these) whose grid has at least kWaveTiles tiles, else the last rung (single
// call + synchronize: f32 1024^3 0.126 ms on 128 x 128, 64 tiles, vs 0.089 on 64 x 128, 128
// tiles; f32 512^3 0.049 on 128 x 128 in 4 splits vs 0.036 on 64 x 32, 128 tiles).
constexpr DefaultRow kMidFiner[] = {
    {DType::F32, SizeClass::mid, {64, 128, 16, 4, 8, kWF, 0}},
    {DType::F32, SizeClass::mid, {64, 32, 16, 4, 4, kF, 0}},
    // f64 512^3, single call: 0.041 ms with u vs 0.051 without.
    {DType::F64, SizeClass::mid, with_u(kF64Narrow)},
};
constexpr I kWaveTiles = 128;  // about one wave of an H200's 132 SMs

// NVIDIA devices (those that report an SM count), f32 products of the large class and those of
// the mid class that keep its 128 x 128 tile (at least kWaveTiles tiles): 16 x 8 outputs per
// thread, 128 threads, BK 8, single buffer, unpadded swizzled rows (x), u: two workgroups per
// SM, so that one's barrier does not stall the whole SM (8192^3 47.5 TFLOP/s vs 46.1 on a 128 x
// 256 8 x 16 tile of 256 threads, 2048^3 41.0-44.0 vs 36.2-38.4 on the large row; x: 8192^3 48.1
// vs 47.5). The large row stays the size classes' anchor (the same tile, so the same tile
// counts). Not measured on other vendors, whose register files and spilling differ.
constexpr GemmConfig kF32Deep = with_u({128, 128, 8, 16, 8, kFS | TFG_OPT_NOPAD, 0});
// NVIDIA devices, c32 products of the large class: 64 x 128 tiles, 8 x 8 outputs per thread (128
// threads), single buffer, warp map with paired lanes, u and l (4096^3 47.7-48.0 TFLOP/s vs
// 44.9-45.0 on the large row's 128 x 128 8 x 4 tile of 512 threads).
constexpr GemmConfig kC32Deep = [] {
  GemmConfig c = with_u({64, 128, 8, 8, 8, kWFS, 0});
  c.pair = true;
  c.lean = true;
  return c;
}();

// f64 single products with at least kF64HugeMinTiles tiles of 128 x 128, K >= kF64HugeMinK and
// both extents >= kF64HugeMinExtent, on NVIDIA (an SM count): 128 x 128 tiles of BK 8, 8 x 8
// outputs per thread (256 threads, one workgroup per SM), single buffer, u and l (one address
// per operand in the interior loop: the per-slot pointers of the 64 x 128 tile spilled to shared
// and local memory in the H200's machine code). 4096^3 22.3-22.5 TFLOP/s vs 20.8-20.9 on the
// wave model's 64 x 128 `fsu`; from K = 256 (2160 x 3672 x 360, a MERA step: 0.340 ms vs
// 0.380). Batches of 256^3 lost (18.2-19.5 vs 19.1-19.4 TFLOP/s): batched products keep the
// wave model. Narrow products ran 3-4x slower on it than on the narrow rows below (11 x 415800 x
// 300), hence the least extent.
constexpr GemmConfig kF64Huge = [] {
  GemmConfig c = with_u({128, 128, 8, 8, 8, kFS, 0});
  c.lean = true;
  return c;
}();
constexpr I kF64HugeMinTiles = 256, kF64HugeMinK = 256, kF64HugeMinExtent = 128;

// f64 medium products with more than kSplitFewTiles and under kMediumFewTiles tiles of the
// medium row (all batches) and K < kSplitMinK (unsplit either way): kF64Narrow, twice the
// workgroups (144 x 1100 x 121 13.3 us vs 16.7, 250 x 800 x 256 24.0 vs 27.1); with more tiles
// the medium row stays faster (100 x 3000 x 200, 94 tiles: 23.5 vs 26.5).
constexpr I kMediumFewTiles = 64;

// f64 `few` products with both extents >= kFewFinerMin whose 32 x 32 grid has under kWaveTiles
// tiles, or with one extent <= kFewNarrow (a 32-wide tile would be mostly empty): 16 x 16 tiles
// of 2 x 2 (256^3, single call: 0.030 ms vs 0.038 on 32 x 32; lm_batch_likelihood_sentence_3_12d's
// 12 x 144 x 144 x 12 10.1-10.5 us vs 14.9-15.3).
constexpr GemmConfig kFewFinerF64 = {16, 16, 16, 2, 2, kNoOpts, 0};
constexpr I kFewFinerMin = 128, kFewNarrow = 16;

// Narrow f64 products (K > kShortK; those with M or N <= 8 run on gemm_small.comp besides), on
// every device (measured on the H200 only: the tile rows they avoid are empty anywhere), ms:
// - wide (M <= 32, N >= 512) with M <= kNarrowExtent: 16 x 64 tiles of 2 x 4 (paired warp map)
//   instead of the wide row's 64 x 64, most of whose rows would be empty; BK 16 from K >
//   kWideNarrowBk16K. str_nw_mera_open_26's 11 x 415800 x 24 0.071 vs 0.262 on 64 x 64; BK 16:
//   16 x 8192 x 2048 0.149 vs 0.25 on BK 8, 0.204 on 64 x 64.
// - wide with kNarrowExtent < M and K > kNarrowShortK: 32 x 128 tiles of 4 x 8, BK 16: 32 x
//   100000 x 1024 0.46 vs 1.20 on 64 x 64.
// - tall (N <= 32, M >= 512) with N <= kNarrowExtent: 64 x 16 tiles of 4 x 2, from K >
//   kNarrowShortK 128 x 16 of 8 x 2, instead of the tall row's 128 x 32: 415800 x 11 x 24 0.067
//   vs 0.083; 415800 x 11 x 300 0.55 vs 0.62 (0.64 on 64 x 16).
// The 32 x 128 and the tall tiles were measured without the paired map (kNarrowRows' flags).
constexpr GemmConfig kWideNarrowF64 = {16, 64, 8, 2, 4, kNoOpts, 0};
constexpr GemmConfig kWideNarrowLongF64 = {16, 64, 16, 2, 4, kNoOpts, 0};
constexpr GemmConfig kWideMidF64 = {32, 128, 16, 4, 8, kNoOpts, 0};
constexpr GemmConfig kTallNarrowF64 = {64, 16, 8, 4, 2, kNoOpts, 0};
constexpr GemmConfig kTallNarrowLongF64 = {128, 16, 8, 8, 2, kNoOpts, 0};
constexpr I kNarrowExtent = 16, kNarrowShortK = 256, kWideNarrowBk16K = 512;
// The other dtypes' narrow rows (M <= kNarrowExtent wide, N <= kNarrowExtent tall; K > 16), ms
// against the wide / tall rows: f32 16 x 200000 x 512 0.218 vs 0.647, 200000 x 16 x 512 0.195 vs
// 0.333; c32 16 x 100000 x 512 0.428 vs 1.060, 200000 x 11 x 64 0.080 vs 0.258; c64 16 x 100000
// x 512 0.443 vs 2.301.
// One row per dtype: the wide and tall tiles (K > kShortK), their forms for longer K (wide from
// K > kWideNarrowBk16K, tall from K > kNarrowShortK; the same tiles but for f64), and whether the
// defaults may give them the paired warp map (gemm_paired, f64 on NVIDIA: the f64 tall tiles
// were measured without it).
struct NarrowRow {
  DType d;
  GemmConfig wide, tall, wide_long, tall_long;
  bool pair_wide, pair_tall;
};
constexpr GemmConfig kWideNarrowF32 = {16, 128, 8, 4, 8, kNoOpts, 0}, kTallNarrowF32 = {128, 16, 8, 8, 4, kNoOpts, 0};
constexpr GemmConfig kWideNarrowC32 = {16, 64, 8, 2, 4, kNoOpts, 0}, kTallNarrowC32 = {128, 16, 8, 8, 2, kNoOpts, 0};
constexpr GemmConfig kWideNarrowC64 = {16, 64, 16, 2, 4, kNoOpts, 0}, kTallNarrowC64 = {128, 16, 8, 8, 2, kNoOpts, 0};
constexpr NarrowRow kNarrowRows[] = {
    {DType::F32, kWideNarrowF32, kTallNarrowF32, kWideNarrowF32, kTallNarrowF32, true, true},
    {DType::C32, kWideNarrowC32, kTallNarrowC32, kWideNarrowC32, kTallNarrowC32, true, true},
    {DType::C64, kWideNarrowC64, kTallNarrowC64, kWideNarrowC64, kTallNarrowC64, true, true},
    {DType::F64, kWideNarrowF64, kTallNarrowF64, kWideNarrowLongF64, kTallNarrowLongF64, true, false},
};
// kWideMidF64 (f64 only) was measured without the paired map too.
constexpr bool kWideMidF64Paired = false;

// f64 small products (M, N <= 32) with K < kSplitMinK (unsplit) and both extents <= kFewNarrow:
// BK 8 (12 x 12 x 144 x 1100 19.2-20.3 us vs 25.6 on the small row's BK 16); above, the 32 x 32
// tile (32 x 32 x 100 x 500 19.1-19.8 vs 31.5-32.2).
constexpr GemmConfig kSmallF64Narrow = {16, 16, 8, 2, 2, kNoOpts, 0};
constexpr GemmConfig kSmallF64Wide = {32, 32, 16, 4, 4, kNoOpts, 0};

// f64 products with K <= kShortK (outside the small class) and at most kShortKMaxOutputs
// outputs: 32 x 32 tiles, BK 4, 4 x 4 per thread, ahead of the classes and the wave model. The
// work is writing the output; a short slice wastes no loads on zero padding and small tiles give
// the SMs many workgroups (lm_batch_likelihood_sentence_3_12d's 144 x 1100 x 11 x 11 15.3 us vs
// 22.6 on the wave model's 64 x 128; 2048 x 2048 x 8 21.4 vs 22.5-23.3). Larger outputs lose
// (4096 x 4096 x 16 108.6 vs 87.2 on 64 x 128; the bound lies between 8.9M outputs, faster, and
// 16.8M, slower).
constexpr GemmConfig kShortKF64 = {32, 32, 4, 4, 4, kNoOpts, 0};
constexpr I kShortK = 16, kShortKMaxOutputs = 10'000'000;

// A medium product whose large-tile grid (all batches) has at least this many tiles runs on the
// large configuration (f64 1024 x 256^3: 4.1 -> 16.4 TFLOP/s); with fewer tiles
// and both extents <= 256, or one extent <= 32 (narrow products such as 400 x 21), it runs on the
// `few` configuration.
constexpr I kLargeMinTiles = 264;  // two waves of an H200's 132 SMs

// Automatic split K: when the output has at most kSplitMaxTiles tiles (all batches) and
// K >= kSplitMinK (or the short-K rule below); aims at kSplitTargetGroups workgroups, at least
// kSplitMinSliceK of K per split, scratch at most kGemmSplitMaxScratch bytes and the problem's
// scratch_limit (einsum's step budget). At 128 tiles splitting lost (f64 1024^3: 14.5 TFLOP/s
// unsplit, 9.3 in 2-4 splits).
constexpr I kSplitMaxTiles = 64, kSplitMinK = 512, kSplitTargetGroups = 512, kSplitMinSliceK = 128;
// Shorter K (kSplitShortMinK <= K < kSplitMinK) is split too when the output has at most
// kSplitFewTiles tiles, in pieces of at least kSplitShortSliceK: such products run on a handful
// of workgroups that each walk all of K (the 99 products of about 400 x 21 x 300 of
// str_matrix_chain_multiplication_100: 2918 us of GPU time unsplit, 1592 us split, reduction
// passes included).
constexpr I kSplitFewTiles = 32, kSplitShortMinK = 128, kSplitShortSliceK = 32;
constexpr I kSplitMaxSplits = 256;

/// Output tiles of configuration c over an M x N x B product (all batches).
I tiles_of(const GemmConfig& c, I M, I N, I B) { return ((M + c.bm - 1) / c.bm) * ((N + c.bn - 1) / c.bn) * B; }

// Wave model (f64 on NVIDIA devices, whose SM count DeviceCaps reports): for products of at
// least one wave of large tiles, the tile and the number of K splits are chosen by estimated
// time instead of the size class. A dispatch runs its tiles in waves of per_sm * SMs resident
// workgroups (per_sm: what the H200's 64K registers per SM hold of each tile, from NVIDIA's
// register counts); a full wave of R tiles takes R * tile flops / rate, a last partial wave of
// at most one tile per SM kAloneWave of that (those tiles run alone on their SMs), a larger
// partial wave a whole wave, and every wave kWaveUs more (a tile's first loads and its stores:
// without it the model prefers the 64 x 64 tile at short K, e.g. 177147 x 243 x 50, measured 0.53
// ms vs 0.48 on 64 x 128). Split K multiplies the tiles by S and divides K; its partial
// products are written and read back (2S + 1 output sizes of traffic, one dispatch more).
// Calibration (H200): the rates are the tiles' 4096^3 / full wave figures; the model then
// predicts the measured times of the MERA steps (990 x 2187 x 4620: 1.79 ms unsplit, 1.30 in 4
// splits) within about 10-20 %, and keeps the large tile unsplit where it was best (540 x 58320
// x 136, 2160 x 3672 x 360, 4096^3).
struct WaveCandidate {
  DType d;
  GemmConfig c;
  int per_sm;       // resident workgroups per SM (H200)
  double tflops;    // full-wave rate, TFLOP/s (H200)
  int max_split;    // K splits tried: 1..max_split
  I min_kc = 0;     // only for at least this much K per split ...
  bool interior_waives_min_kc = false;  // ... unless no tile lies on the boundary (M, N multiples of the tile)
};
// The candidates, ms. kF64Mid is the fastest f64 tile at long K (4096^3 6.93 vs 7.42 rolled
// without u) but slower at K <= 729 (243 x 6561 x 729 x 9: 1.46 vs 1.34), hence its least K per
// split. u: 64 x 32 faster on all eight MERA shapes measured (9720 x 136 x 441 0.131 vs 0.140);
// 64 x 64 slower at long K (990 x 2187 x 4620 1.70 vs 1.62; wave_choice adds u up to
// kWaveSquareInteriorMaxK); 64 x 128 faster at long K (4096^3 6.59 vs 7.71) and where every
// tile is interior (1024 x 256^3 1.81 vs 1.98), slower at short K with boundary tiles (399 x 4320
// x 594 0.201 vs 0.187; not understood: the kernel then runs both of its slice loops, whose
// unrolled code may not share the instruction cache well), hence both 64 x 128 rows, the one
// with u only from K = 1024 per split unless every tile is interior. 128 x 64 with 8 x 8 per
// thread (two workgroups per SM) and u, in up to 5 splits of at least 768: as fast as 64 x 128
// at 4096^3 (21.4-21.8 TFLOP/s), 990 x 2187 x 4620 in 5 splits 1.13-1.17 vs 1.16-1.17 on 64 x
// 128 in 4; not at short K (9720 x 136 x 441 0.127 vs 0.096 on 64 x 32).
constexpr WaveCandidate kWaveCandidates[] = {
    {DType::F64, kF64Wide, 2, 18.0, 4},
    {DType::F64, with_u(kF64Wide), 2, 20.8, 4, 1024, true},
    {DType::F64, {64, 64, 8, 4, 4, kWF, 0}, 2, 15.9, 1},
    {DType::F64, with_u(kF64Narrow), 2, 13.0, 1},
    {DType::F64, kF64Mid, 1, 19.8, 4, 1024},
    {DType::F64, with_u({128, 64, 16, 8, 8, kFS, 0}), 2, 20.8, 5, 768},
};
constexpr double kAloneWave = 0.61;     // a last wave of <= one tile per SM, relative to a full wave
constexpr double kOutBytesPerUs = 2.5e6;  // output / partial-product traffic (bytes per us)
constexpr double kDispatchUs = 5;         // the reduction pass of a split product
constexpr double kWaveUs = 2;             // per wave: a tile's first loads and its stores
constexpr I kSplitMinKPerSplit = 256;     // the model splits K only into pieces at least this long

/// Estimated microseconds of candidate w with S splits of K (wave model above).
double wave_time_us(const WaveCandidate& w, const GemmProblem& p, I S, I sms) {
  const I M = p.M, N = p.N, K = p.K, B = p.B;
  const GemmConfig& c = w.c;
  const I kc = gemm_split_k(K, S, c.bk);
  const I tiles = tiles_of(c, M, N, B) * S, R = w.per_sm * sms;
  const double wave_us = static_cast<double>(R) * c.bm * c.bn * static_cast<double>(kc) * 2 / (w.tflops * 1e6);
  const I full = tiles / R, rem = tiles % R;
  const bool alone = rem <= sms && w.per_sm > 1;  // the last wave's tiles have their SMs to themselves
  double t = static_cast<double>(full) * (wave_us + kWaveUs) +
             (rem == 0 ? 0.0 : (alone ? kAloneWave * wave_us : wave_us) + kWaveUs);
  const double out = static_cast<double>(M) * static_cast<double>(N) * static_cast<double>(B) * dtype_size(w.d);
  t += (S > 1 ? static_cast<double>(2 * S + 1) : 1.0) * out / kOutBytesPerUs + (S > 1 ? kDispatchUs : 0.0);
  return t;
}

// Short K with a moderate output: where the wave model takes the 64 x 128 8 x 8 tile without u
// unsplit and 16 < K <= kWaveShortMaxK with at most kWaveShortMaxOutputs outputs, the 64 x 64
// 4 x 4 tile of BK 8 with the interior loop instead (ms: str_nw_mera_open_26's 12474 x 810 x 154
// 0.222-0.223 vs 0.254-0.258, 540 x 58320 x 136, 31M outputs, 0.585-0.594 vs 0.618-0.622; not at
// 177147 x 243 x 50, 43M outputs: 0.491-0.494 vs 0.475-0.481, or 399 x 4320 x 594: 0.197-0.202
// vs 0.186-0.187; hence the bounds).
constexpr GemmConfig kF64WaveShort = with_u({64, 64, 8, 4, 4, kWF, 1});
constexpr I kWaveShortMaxK = 256, kWaveShortMaxOutputs = I{32} << 20;
// The wave model's 64 x 64 tile takes the interior loop up to this K (str_nw_mera_closed_120's
// 540 x 270 x 136 x 216 0.669-0.682 ms vs 0.774-0.786); slower at long K (990 x 2187 x 4620:
// 1.70 vs 1.62).
constexpr I kWaveSquareInteriorMaxK = 512;

/// Whether the wave model applies: f64 on a device that reports its SM count, K > 0, at least
/// a wave of the first valid candidate's tiles.
bool wave_applies(const GemmProblem& p, const DeviceCaps& caps) {
  if (caps.sm_count == 0 || p.K <= 0) return false;
  for (const WaveCandidate& w : kWaveCandidates)
    if (w.d == p.d && gemm_config_valid(p.d, w.c, caps)) return tiles_of(w.c, p.M, p.N, p.B) >= caps.sm_count;
  return false;
}

/// Whether the model tries candidate w in S splits of K: at most w.max_split, pieces of at
/// least kSplitMinKPerSplit, and w.min_kc unless waived.
bool wave_tries(const WaveCandidate& w, const GemmProblem& p, I S) {
  const bool waived = w.interior_waives_min_kc && p.M % w.c.bm == 0 && p.N % w.c.bn == 0;
  return S <= w.max_split && (S == 1 || p.K / S >= kSplitMinKPerSplit) && (p.K / S >= w.min_kc || waived);
}

/// The wave model's fastest candidate and its estimated microseconds (best_us), or nullopt
/// where the model does not apply.
std::optional<GemmConfig> wave_best(const GemmProblem& p, const DeviceCaps& caps, double& best_us) {
  if (!wave_applies(p, caps)) return std::nullopt;
  std::optional<GemmConfig> best;
  for (const WaveCandidate& w : kWaveCandidates) {
    if (w.d != p.d || !gemm_config_valid(p.d, w.c, caps)) continue;
    for (I S = 1; wave_tries(w, p, S); ++S) {
      const double us = wave_time_us(w, p, S, caps.sm_count);
      if (!best || us < best_us) {
        best = w.c;
        best->split = static_cast<int>(S);
        best_us = us;
      }
    }
  }
  return best;
}

/// The wave model's choice (wave_best with the short-K and interior-loop rules below), or
/// nullopt where it does not apply.
std::optional<GemmConfig> wave_choice(const GemmProblem& p, const DeviceCaps& caps) {
  const DType d = p.d;
  const I M = p.M, N = p.N, K = p.K, B = p.B;
  double best_us = 0;
  const std::optional<GemmConfig> best = wave_best(p, caps, best_us);
  if (best && best->bm == kF64Wide.bm && best->bn == kF64Wide.bn && !best->interior_loop && best->split == 1 &&
      K > kShortK && K <= kWaveShortMaxK && M * N * B <= kWaveShortMaxOutputs && gemm_config_valid(d, kF64WaveShort, caps))
    return kF64WaveShort;
  if (best && best->bm == 64 && best->bn == 64 && K <= kWaveSquareInteriorMaxK) {
    GemmConfig u = *best;
    u.interior_loop = true;
    if (gemm_config_valid(d, u, caps)) return u;
  }
  return best;
}

std::optional<GemmConfig>& override_slot() {
  static std::optional<GemmConfig> o;
  return o;
}

std::optional<bool>& stage_override() {
  static std::optional<bool> o;
  return o;
}

/// Bytes of gemm.comp's chain table (chain_offs: the tile's BM + BN element offsets, 64-bit, in
/// shared memory besides the operand tiles).
std::uint64_t chain_table_bytes(const GemmConfig& t) { return 8u * static_cast<std::uint64_t>(t.bm + t.bn); }

GemmConfig default_row(DType d, SizeClass cls) {
  for (const DefaultRow& r : kDefaults)
    if (r.d == d && r.cls == cls) return r.c;
  TENFERRO_ASSERT(false);
  return {};
}

/// The size classes' configuration for an M x N x K x B product of class cls (kDefaults, with
/// the medium and large reclassifications, the f32 huge tile and the f64 medium-few rule, then
/// the finer rungs of the few, small and mid classes).
GemmConfig class_row(SizeClass cls, const GemmProblem& p, const DeviceCaps& caps) {
  const DType d = p.d;
  const I M = p.M, N = p.N, K = p.K, B = p.B;
  const I large_tiles = tiles_of(default_row(d, SizeClass::large), M, N, B);
  if (cls == SizeClass::medium) {
    if (large_tiles >= kLargeMinTiles) cls = SizeClass::large;
    else if ((M <= 256 && N <= 256) || std::min(M, N) <= 32) cls = SizeClass::few;
  } else if (cls == SizeClass::large && large_tiles < kLargeMinTiles) {
    cls = SizeClass::mid;
  }
  GemmConfig row = default_row(d, cls);
  if (caps.sm_count > 0 && d == DType::F32 &&
      (cls == SizeClass::large || (cls == SizeClass::mid && tiles_of(row, M, N, B) >= kWaveTiles)))
    return kF32Deep;
  if (caps.sm_count > 0 && d == DType::C32 && cls == SizeClass::large) return kC32Deep;
  if (cls == SizeClass::medium && d == DType::F64 && K < kSplitMinK) {
    const I tiles = tiles_of(row, M, N, B);
    if (tiles > kSplitFewTiles && tiles < kMediumFewTiles) return kF64Narrow;
  }
  if (cls == SizeClass::few && d == DType::F64 && (std::min(M, N) >= kFewFinerMin || std::min(M, N) <= kFewNarrow) &&
      tiles_of(row, M, N, B) < kWaveTiles)
    row = kFewFinerF64;
  for (const NarrowRow& r : kNarrowRows)
    if (r.d == d && K > kShortK) {
      if (cls == SizeClass::wide && M <= kNarrowExtent) row = K > kWideNarrowBk16K ? r.wide_long : r.wide;
      if (cls == SizeClass::tall && N <= kNarrowExtent) row = K > kNarrowShortK ? r.tall_long : r.tall;
    }
  if (d == DType::F64 && K > kShortK && cls == SizeClass::wide && M > kNarrowExtent && K > kNarrowShortK)
    row = kWideMidF64;
  if (cls == SizeClass::small && d == DType::F64 && K < kSplitMinK)
    row = std::max(M, N) <= kFewNarrow ? kSmallF64Narrow : kSmallF64Wide;
  if (cls == SizeClass::mid && tiles_of(row, M, N, B) < kWaveTiles) {
    for (const DefaultRow& r : kMidFiner) {
      if (r.d != d) continue;
      row = r.c;
      if (tiles_of(row, M, N, B) >= kWaveTiles) break;
    }
  }
  return row;
}

/// Whether the defaults may give c the paired warp map: false for the narrow rows' tiles
/// measured without it (kNarrowRows' flags, kWideMidF64Paired).
bool narrow_pairable(DType d, const GemmConfig& c) {
  if (d == DType::F64 && c == kWideMidF64) return kWideMidF64Paired;
  for (const NarrowRow& r : kNarrowRows) {
    if (r.d != d) continue;
    if (c == r.wide || c == r.wide_long) return r.pair_wide;
    if (c == r.tall || c == r.tall_long) return r.pair_tall;
  }
  return true;
}

}  // namespace

// Not on 8 x 8 tiles without u, nor on the narrow rows measured without it (narrow_pairable).
// Shared memory returns an LDS.128 whose lane pairs read the same words at twice the rate, which
// matters most where each thread's few outputs need many shared reads (4 x 4): 64 x 32 4 x 4
// `fu` 9720 x 136 x 441 0.116 -> 0.100 ms; 128 x 64 4 x 8 `fu` in 4 splits 990 x 2187 x 4620
// 1.23-1.26 -> 1.20; 64 x 128 8 x 8 `fsu` 4096^3 20.5-20.7 -> 20.8-21.5 TFLOP/s; 64 x 128 `fs`
// (8 x 8 without u) unchanged or slower (399 x 4320 x 594 0.185 -> 0.190 ms).
GemmConfig gemm_paired(GemmConfig c, DType d, const DeviceCaps& caps) {
  if (caps.sm_count == 0 || d != DType::F64 || c.small || c.pair || !narrow_pairable(d, c))
    return c;
  if (c.tm * c.tn >= 64 && !c.interior_loop) return c;
  GemmConfig p = c;
  p.opts |= TFG_OPT_WARP;
  p.pair = true;
  return gemm_config_valid(d, p, caps) ? p : c;
}

namespace {

/// Whether the default is kF64Huge (ahead of the wave model).
bool takes_huge(const GemmProblem& p, const DeviceCaps& caps) {
  return p.d == DType::F64 && caps.sm_count > 0 && p.B == 1 && p.K >= kF64HugeMinK &&
         std::min(p.M, p.N) >= kF64HugeMinExtent && tiles_of(kF64Huge, p.M, p.N, 1) >= kF64HugeMinTiles &&
         gemm_config_valid(p.d, kF64Huge, caps);
}

/// gemm_default_config's choice before gemm_paired.
GemmConfig unpaired_default_config(const GemmProblem& p, const DeviceCaps& caps) {
  const DType d = p.d;
  const I M = p.M, N = p.N, K = p.K, B = p.B;
  const SizeClass cls = size_class(M, N);
  const bool short_k = d == DType::F64 && K <= kShortK && cls != SizeClass::small && M * N * B <= kShortKMaxOutputs;
  if (takes_huge(p, caps)) return kF64Huge;
  if (!short_k && (cls == SizeClass::large || cls == SizeClass::medium))
    if (const auto w = wave_choice(p, caps)) return *w;
  const GemmConfig row = short_k ? kShortKF64 : class_row(cls, p, caps);
  // Shrink BK, then the tile, until the device's shared memory and workgroup limits hold; when
  // the row's options (warp mapping, fast path) fit no shrunk tile, retry without them.
  const int vw = gemm_words_of(d);
  GemmConfig t = row;
  for (int attempt = 0; attempt < 2; ++attempt) {
    t = row;
    if (attempt == 1) t.opts = kNoOpts, t.roll = 0, t.interior_loop = false, t.lean = false, t.pair = false;
    while (!gemm_config_valid(d, t, caps) && t.bk > vw) {
      t.bk /= 2;
      t.roll = std::min(t.roll, t.bk);
    }
    while (!gemm_config_valid(d, t, caps) && t.bm > t.tm && t.bn > t.tn) {
      t.bm /= 2;
      t.bn /= 2;
    }
    if (gemm_config_valid(d, t, caps)) break;
  }
  TENFERRO_CHECK(gemm_config_valid(d, t, caps), unsupported, "dot_general", "",
                 "[vulkan] no gemm tile fits this device");
  return t;
}

}  // namespace

GemmConfig gemm_default_config(const GemmProblem& p, const DeviceCaps& caps) {
  return gemm_paired(unpaired_default_config(p, caps), p.d, caps);
}

double gemm_fma_seconds(const GemmProblem& p, const DeviceCaps& caps) {
  double us = 0;
  if (takes_huge(p, caps) || !wave_best(p, caps, us)) return 0;
  return us * 1e-6;
}

double gemm_wave_seconds(const GemmConfig& c, const GemmProblem& p, const DeviceCaps& caps) {
  if (!wave_applies(p, caps)) return 0;
  const I S = std::max(c.split, 1);
  for (const WaveCandidate& w : kWaveCandidates) {
    GemmConfig tile = c;  // c's tile and options, less the paired map that gemm_paired adds
    tile.split = w.c.split;
    if (tile.pair && !w.c.pair) {
      tile.pair = false;
      tile.opts = (tile.opts & ~TFG_OPT_WARP) | (w.c.opts & TFG_OPT_WARP);
    }
    if (w.d == p.d && tile == w.c && gemm_config_valid(p.d, w.c, caps) && wave_tries(w, p, S))
      return wave_time_us(w, p, S, caps.sm_count) * 1e-6;
  }
  return 0;
}

I gemm_split_k(I K, I splits, I bk) { return ((K + splits - 1) / splits + bk - 1) / bk * bk; }

int gemm_splits(const GemmConfig& c, const GemmProblem& p) {
  const I M = p.M, N = p.N, K = p.K, B = p.B;
  if (K <= 0 || c.split == 1) return 1;
  const I slices = (K + c.bk - 1) / c.bk;
  I s = c.split;
  if (s == 0) {
    const I tiles = tiles_of(c, M, N, B);
    if (tiles <= kSplitFewTiles && K >= kSplitShortMinK && K < kSplitMinK)
      s = std::min(kSplitTargetGroups / tiles, K / kSplitShortSliceK);
    else if (tiles > kSplitMaxTiles || K < kSplitMinK)
      return 1;
    else
      s = std::min(kSplitTargetGroups / tiles, K / kSplitMinSliceK);
  }
  const std::uint64_t out_bytes = static_cast<std::uint64_t>(M * N * B) * dtype_size(p.d);
  const std::uint64_t limit = std::min(kGemmSplitMaxScratch, p.scratch_limit);
  s = std::min({s, slices, kSplitMaxSplits, static_cast<I>(limit / std::max<std::uint64_t>(out_bytes, 1))});
  if (s < 2) return 1;
  // Whole BK slices per split; the last split may be shorter, none is empty.
  const I kc = gemm_split_k(K, s, c.bk);
  return static_cast<int>((K + kc - 1) / kc);
}

// Long K stays on the tiled kernel, whose shared-memory staging pays off there. Batches of tiny
// matrices with longer K run faster tiled (H200, f64 12 x 12 x 144 x 1100: 54 us here, 33 us on
// 16 x 16 tiles; 12 x 12 x 12 x 1100: 14 us here, 16 us tiled).
bool gemm_small_product(I M, I N, I K) { return (M * N <= 256 && K <= 64) || (std::min(M, N) <= 8 && K <= 256); }

// Memory-bound: the tile's rows are mostly empty (H200, f64 27 x 729 x 3 x 2187, an einsum step
// of gm_queen5_5_3: 0.963 ms on 64 x 64 tiles, 0.395 on gemm_small with four rows; the
// transposed 729 x 27 stays tiled, 0.406 vs 0.431).
bool gemm_short_columns(I M, I N, I K, I B) { return M <= 32 && K <= 16 && M * N * B >= (I{1} << 20); }

bool gemm_uses_small_kernel(I M, I N, I K, I B) {
  return gemm_small_product(M, N, K) || gemm_short_columns(M, N, K, B);
}

GemmConfig gemm_choose_config(const GemmProblem& p, const DeviceCaps& caps, bool& forced) {
  const DType d = p.d;
  forced = true;
  if (const auto& o = override_slot(); o && gemm_config_valid(d, *o, caps)) return *o;
  static const std::optional<GemmConfig> env = options().gemm_tile.empty()
                                                   ? std::nullopt
                                                   : parse_gemm_config(options().gemm_tile);
  if (env && gemm_config_valid(d, *env, caps)) return *env;
  forced = false;
  return gemm_default_config(p, caps);
}

// The slice loop is not rolled for a chained C: its stores run in the plain C's loops
// (gemm.comp), which compile in 0.2-0.6 s on the H200 unrolled; rolled, chained f32 4096^3 ran
// 33.4 vs 41.6 TFLOP/s (docs/gemm.md).
GemmConfig gemm_chained_config(GemmConfig t, DType d, const DeviceCaps& caps) {
  auto fits = [&](const GemmConfig& c) {
    return gemm_config_valid(d, c, caps) && gemm_shared_bytes(c, d) + chain_table_bytes(c) <= caps.max_shared_memory;
  };
  while (!fits(t) && t.bk > gemm_words_of(d)) {
    t.bk /= 2;
    t.roll = std::min(t.roll, t.bk);
  }
  TENFERRO_CHECK(fits(t), unsupported, "dot_general", "out",
                 "[vulkan] no gemm tile with a chained out fits this device's shared memory");
  return t;
}

// Unless C's columns are 32-byte aligned with m at unit stride and the register tile's stores
// are whole words along m (`words`: 16-byte stores, or one element per word), its element stores
// leave every sector of C half written per store, which the H200 writes at a quarter of the
// rate of whole sectors (f64 177147 x 243 x 50, C's stores alone: 0.43 ms, 0.12 for 177152 x
// 256, 0.16 staged). Staged, consecutive invocations store consecutive elements; the barriers
// per block of columns lengthen every tile, so products bound by their FMAs (the f64 einsum
// steps measured) run slower: opt-in. Only where the staging buffer fits the shared memory
// besides the tile's (and a chained C's table).
bool gemm_stages_c(const GemmConfig& t, const GemmProblem& p, const DeviceCaps& caps, bool words, std::uint64_t c_addr,
                   I scm, I scn, I scb) {
  const DType d = p.d;
  const bool chained = p.chained;
  const I N = p.N, B = p.B;
  if (!stage_override().value_or(options().gemm_stage)) return false;
  const std::size_t es = dtype_size(d);
  if (!chained && words && scm == 1 && c_addr % 32 == 0 && gemm_aligned_to(32, scn, N, es) &&
      gemm_aligned_to(32, scb, B, es))
    return false;
  const std::uint64_t table = chained ? chain_table_bytes(t) : 0u;
  // gemm.comp's `stage`: SW = RN * VW columns of SROW = BM + 1 elements.
  const std::uint64_t stage =
      es * static_cast<std::uint64_t>(t.bn / t.tn * gemm_words_of(d)) * static_cast<std::uint64_t>(t.bm + 1);
  return gemm_shared_bytes(t, d) + table + stage <= caps.max_shared_memory;
}

GemmConfig gemm_default_config_on(Backend& be, const GemmProblem& p) {
  return gemm_default_config(p, static_cast<VulkanBackend&>(be).device().caps());
}

void set_gemm_config_override(const std::optional<GemmConfig>& c) { override_slot() = c; }
void set_gemm_stage_override(std::optional<bool> on) { stage_override() = on; }

}  // namespace tenferro::vk
