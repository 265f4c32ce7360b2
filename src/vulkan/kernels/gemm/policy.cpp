// The built-in choices of the Vulkan gemm (policy.hpp): the tables of configurations per dtype
// and size class, the f64 wave model, split K, the small-kernel rules, the paired warp map, and
// the tile changes of a chained or staged C.
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
// small: one workgroup per small matrix (batches across the grid). tall / wide keep the medium
// tile until measured (candidates: {256, 32, 16, 8, 4} / {32, 256, 16, 4, 8}).
constexpr std::uint32_t kNoOpts = 0;
constexpr std::uint32_t kF = TFG_OPT_FAST, kFS = TFG_OPT_FAST | TFG_OPT_SINGLE, kWF = TFG_OPT_WARP | TFG_OPT_FAST;
constexpr std::uint32_t kWFS = kWF | TFG_OPT_SINGLE;
/// c with the interior-tile loop (u, TFG_SCHED_INTERIOR): interior tiles run their full slices
/// branch-free. Seventh session, H200, 4096^3: c32 37.7 -> 44.8 TFLOP/s, c64 (2048^3) 18.3 ->
/// 22.2 on 64 x 64 4 x 8, f64 128 x 64 4 x 8 12.4 unrolled / 18.5 rolled -> 19.8, f32 +2-5 %.
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
// workgroup per SM): 19.8 TFLOP/s at 4096^3; the same tile rolled by 4 without it 18.5 (the
// sixth session's choice), unrolled without it 12.4.
constexpr GemmConfig kF64Mid = with_u({128, 64, 8, 4, 8, kF, 0});
constexpr DefaultRow kDefaults[] = {
    // Large (and medium with enough tiles to fill the device): best of the H200 sweep of
    // 2026-11-29 (bench/RESULTS.md, issue 5).
    // f32: single buffer with u, 4096^3 3.30 ms vs 3.41 double-buffered (8192^3 25.3 vs 26.3).
    {DType::F32, SizeClass::large, with_u({128, 128, 16, 8, 8, kFS, 0})},
    {DType::F64, SizeClass::large, with_u(kF64Wide)},
    {DType::C32, SizeClass::large, with_u({128, 128, 8, 8, 4, kWF, 0})},
    // c64: 64 x 64 4 x 8 with u, 2048^3 3.10 ms vs 3.77 on the earlier 64 x 32 4 x 4 ('-').
    {DType::C64, SizeClass::large, with_u({64, 64, 8, 4, 8, kF, 0})},
    // Mid (large, but under two waves of large tiles): f64 on 256-thread 128 x 64 tiles (H200
    // sweep, f64 1024^3: 14.5 TFLOP/s vs 10.8 on the large tile, both unsplit; 9.3 split in 2-4).
    // First rung of the mid ladder (kMidFiner below); c32 keeps its large tile, c64 takes 4 x 4
    // per thread (256 threads).
    {DType::F32, SizeClass::mid, with_u({128, 128, 16, 8, 8, kFS, 0})},
    {DType::F64, SizeClass::mid, kF64Mid},  // seventh session: 1024^3 0.128 ms vs 0.141 rolled
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
// of kDefaults, then these) whose grid has at least kWaveTiles tiles, else the last rung. H200
// sweep of 2026-12-01 (bench/RESULTS.md, fourth session; single call + synchronize): f32 1024^3
// 0.126 ms on 128 x 128 (64 tiles) vs 0.089 on 64 x 128 (128 tiles); f32 512^3 0.049 (16 tiles,
// split 4) vs 0.036 on 64 x 32 (128 tiles); f32 2048^3 stays on 128 x 128 (256 tiles); f64
// 512^3 0.051 on 128 x 64 (32 tiles) vs 0.051 on 64 x 32.
constexpr DefaultRow kMidFiner[] = {
    {DType::F32, SizeClass::mid, {64, 128, 16, 4, 8, kWF, 0}},
    {DType::F32, SizeClass::mid, {64, 32, 16, 4, 4, kF, 0}},
    // f64 512^3 single call: 0.041 ms with u vs 0.051 without (seventh session, alternating runs).
    {DType::F64, SizeClass::mid, with_u(kF64Narrow)},
};
constexpr I kWaveTiles = 128;  // about one wave of an H200's 132 SMs

// NVIDIA devices (those that report an SM count), f32 products of the large class and those of
// the mid class that keep its 128 x 128 tile (at least kWaveTiles tiles): 16 x 8 outputs per
// thread, 128 threads, BK 8, single buffer with u: two workgroups per SM, so that one's barrier
// no longer stalls the whole SM (H200, fourteenth session, in-stream sweeps in two orders after
// a compile pass: 8192^3 47.5 TFLOP/s vs 46.1 on the eighth session's 128 x 256 8 x 16 tile of
// 256 threads, 4096^3 45.7-46.0 vs 41.9-44.9, 2048^3 41.0-44.0 vs 36.2-38.4 on the 128 x 128 8 x 8
// row). The large row stays the size classes' anchor (the same tile, so the same tile counts).
// Not measured elsewhere, where register files and spilling differ.
// Unpadded swizzled rows (x): 8192^3 48.1 vs 47.5-47.6 TFLOP/s, 4096^3 45.7 vs 45.2-45.6 (fourth
// call, two orders).
constexpr GemmConfig kF32Deep = with_u({128, 128, 8, 16, 8, kFS | TFG_OPT_NOPAD, 0});
// NVIDIA devices, c32 products of the large class: 64 x 128 tiles, 8 x 8 outputs per thread (128
// threads), single buffer, warp map with paired lanes, u and l (same sweeps: 4096^3 47.2-47.3
// TFLOP/s vs 44.9-45.0 on the large row's 128 x 128 8 x 4 tile of 512 threads; with l 47.7-48.0).
constexpr GemmConfig kC32Deep = [] {
  GemmConfig c = with_u({64, 128, 8, 8, 8, kWFS, 0});
  c.pair = true;
  c.lean = true;
  return c;
}();

// f64 single products with at least kF64HugeMinTiles tiles of 128 x 128 and K >= kF64HugeMinK,
// on NVIDIA (an SM count): 128 x 128 tiles of BK 8, 8 x 8 outputs per thread (256 threads, one
// workgroup per SM), single buffer, u and l (one address per operand in the interior loop:
// the per-slot pointers of the 64 x 128 tile spilled to shared and local memory, ninth
// session's disassembly). H200, ninth session, in-stream, two orders: 4096^3 22.3-22.5 TFLOP/s
// vs 20.8-20.9 on the wave model's 64 x 128 `fsu`, 2048^3 21.1-21.7 vs 19.3-19.9; batches of
// 256^3 lost (18.2-19.5 vs 19.1-19.4), so batched products keep the wave model. K from 256
// (tenth session, two orders, ms against the wave model's choice): 2160 x 3672 x 360 (a MERA
// step) 0.340 vs 0.380, 2048 x 2048 x 512 0.216-0.219 vs 0.233-0.237, 4096 x 4096 x 256
// 0.438-0.448 vs 0.451-0.453, 3000 x 3000 x 300 0.353-0.355 vs 0.364, 1500 x 6000 x 600
// 0.653-0.657 vs 0.672-0.676, 4096 x 2048 x 768 0.617-0.658 vs 0.630-0.632. Both extents at
// least kF64HugeMinExtent (twenty-first session: narrow products such as 11 x 415800 x 300 ran
// 3-4x slower on it than on the narrow rows below).
constexpr GemmConfig kF64Huge = [] {
  GemmConfig c = with_u({128, 128, 8, 8, 8, kFS, 0});
  c.lean = true;
  return c;
}();
constexpr I kF64HugeMinTiles = 256, kF64HugeMinK = 256, kF64HugeMinExtent = 128;

// f64 medium products with more than kSplitFewTiles and under kMediumFewTiles tiles of the
// medium row (all batches) and K < kSplitMinK (unsplit either way): kF64Narrow, twice the
// workgroups (H200, eighth session, in-stream, two orders agreeing; us): 144 x 1100 x 121 13.3
// vs 16.7, 121 x 1100 x 144 15.3 vs 21.6, 250 x 800 x 256 24.0 vs 27.1; with more tiles the
// medium row stays faster (100 x 3000 x 200, 94 tiles: 23.5 vs 26.5; 1000 x 400 x 100, 112:
// 14.7 vs 15.3; 300 x 1500 x 64, 120: 10.9 vs 11.9).
constexpr I kMediumFewTiles = 64;

// f64 `few` products with both extents >= kFewFinerMin whose 32 x 32 grid has under kWaveTiles
// tiles: 16 x 16 tiles of 2 x 2 (H200, fifth session, single call + synchronize: f64 256^3
// 0.030 ms vs 0.038 on 32 x 32; split K 4 on 32 x 32 also 0.030, with a reduction pass more).
// Also those with one extent <= kFewNarrow (a 32-wide tile would be mostly empty): eighth
// session, in-stream, two orders: 12 x 144 x 144 x 12 10.1-10.5 us vs 14.9-15.3, 144 x 12 x 144
// x 12 10.3-10.6 vs 13.8-14.3 (lm_batch_likelihood_sentence_3_12d).
constexpr GemmConfig kFewFinerF64 = {16, 16, 16, 2, 2, kNoOpts, 0};
constexpr I kFewFinerMin = 128, kFewNarrow = 16;

// Narrow f64 products (twenty-first session, H200 sweeps, in-stream, ms; `tools/gpu_call21b.sh`,
// `21c.sh`, `21f.sh`): K > kShortK, products with M or N <= 8 on gemm_small.comp besides. On
// every device (measured on the H200 only: the empty tile rows they avoid are empty anywhere).
// - Wide (M <= 32, N >= 512) with M <= kNarrowExtent: 16 x 64 tiles of 2 x 4 (paired warp map,
//   `paired`) instead of the wide row's 64 x 64, most of whose rows would be empty; BK 16 from
//   K > kWideNarrowBk16K. 11 x 415800 x 24 (str_nw_mera_open_26) 0.071 vs 0.262 on 64 x 64 (16 x
//   128 0.085, 32 x 64 0.098, gemm_small 0.082), 9 x 13860 x 85 0.010 vs 0.023, 16 x 7600 x 64
//   0.0086 vs 0.0099, 16 x 4096 x 256 0.020 vs 0.024, 11 x 415800 x 300 0.63 (BK 16 0.69),
//   16 x 200000 x 512 0.51; BK 16: 16 x 8192 x 2048 0.149 vs 0.204 on 64 x 64 (BK 8 0.25),
//   12 x 50000 x 4096 1.03 (BK 8 1.25).
// - Wide with kNarrowExtent < M and K > kNarrowShortK: 32 x 128 tiles of 4 x 8, BK 16 (without
//   the paired map: not measured): 32 x 100000 x 1024 0.46 vs 1.20 on 64 x 64.
// - Tall (N <= 32, M >= 512) with N <= kNarrowExtent: 64 x 16 tiles of 4 x 2, and from K >
//   kNarrowShortK 128 x 16 of 8 x 2 (both without the paired map: not measured), instead of the
//   tall row's 128 x 32: 415800 x 11 x 24 0.067 vs 0.083 (128 x 16 0.069), 13860 x 9 x 85 0.0118
//   vs 0.0126, 7600 x 16 x 64 0.0083 vs 0.0107; 415800 x 11 x 300 0.55 vs 0.62 (64 x 16 0.64),
//   200000 x 16 x 512 0.43 vs 0.48 (64 x 16 0.51).
// (kF64Huge, ahead of the classes, had taken the longer-K ones where N or M alone gave 256 of
// its tiles: 2.45, 1.90, 1.89, 3.78, 2.21 and 1.69 ms respectively; it now needs both extents >=
// kF64HugeMinExtent.)
constexpr GemmConfig kWideNarrowF64 = {16, 64, 8, 2, 4, kNoOpts, 0};
constexpr GemmConfig kWideNarrowLongF64 = {16, 64, 16, 2, 4, kNoOpts, 0};
constexpr GemmConfig kWideMidF64 = {32, 128, 16, 4, 8, kNoOpts, 0};
constexpr GemmConfig kTallNarrowF64 = {64, 16, 8, 4, 2, kNoOpts, 0};
constexpr GemmConfig kTallNarrowLongF64 = {128, 16, 8, 8, 2, kNoOpts, 0};
constexpr I kNarrowExtent = 16, kNarrowShortK = 256, kWideNarrowBk16K = 512;
// The other dtypes' narrow rows (M <= kNarrowExtent wide, N <= kNarrowExtent tall; K > 16):
// H200 (`tools/gpu_call21h.sh`, sweep, in-stream, ms; was: the wide / tall rows), f32 11 x
// 415800 x 64 0.099 vs 0.205 (16 x 64 0.094), 16 x 200000 x 512 0.218 vs 0.647, 415800 x 11 x
// 64 0.070 vs 0.110, 200000 x 16 x 512 0.195 vs 0.333; c32 11 x 200000 x 64 0.119 vs 0.336 (16
// x 32 0.096, but 0.835 at 16 x 100000 x 512), 16 x 100000 x 512 0.428 vs 1.060, 200000 x 11 x 64
// 0.080 vs 0.258; c64 11 x 200000 x 64 0.137 vs 0.600, 16 x 100000 x 512 0.443 vs 2.301, 200000
// x 11 x 64 0.125 vs 0.557.
// One row per dtype: the wide and tall tiles (K > kShortK), their forms for longer K (wide from
// K > kWideNarrowBk16K, tall from K > kNarrowShortK; the same tiles but for f64), and whether the
// defaults may give them the paired warp map (`paired`, f64 on NVIDIA: the f64 tall tiles were
// measured without it).
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
// BK 8 (eighth session, in-stream, two orders: 12 x 12 x 144 x 1100 19.2-20.3 us vs 25.6 on the
// small row's BK 16, 12 x 12 x 80 x 1100 13.6-14.0 vs 18.0-18.3); above, the 32 x 32 tile (32 x
// 32 x 100 x 500 19.1-19.8 vs 31.5-32.2, 20 x 20 x 300 x 300 29.5-30.0 vs 44.7-45.4).
constexpr GemmConfig kSmallF64Narrow = {16, 16, 8, 2, 2, kNoOpts, 0};
constexpr GemmConfig kSmallF64Wide = {32, 32, 16, 4, 4, kNoOpts, 0};

// f64 products with K <= kShortK (outside the small class): 32 x 32 tiles, BK 4, 4 x 4 per
// thread, ahead of the classes and the wave model. The work is writing the output; a short
// slice wastes no loads on zero padding and small tiles give the SMs many workgroups. H200,
// seventh session (`shortk/`, in-stream us, two sweep orders): 144 x 1100 x 11 x 11 15.3 / 14.8
// vs 22.6 / 22.2 on the wave model's 64 x 128, 13200 x 12 x 12 x 12 26.6 / 26.7 vs 28.5-43.7 on
// the tall 128 x 32, 13200 x 144 x 12 15.7 vs 18.1-19.5 on 64 x 64, 12 x 1100 x 11 x 12 7.9-11.7
// vs 11.2-12.8 (the products of lm_batch_likelihood_sentence_3_12d); `shortk2/`: 2048 x 2048 x 8
// 21.4 vs 22.5-23.3, 196830 x 45 x 11 80.5 vs 86-116, but 4096 x 4096 x 16 108.6 vs 87.2 on
// 64 x 128: only up to kShortKMaxOutputs outputs (between 8.9M, faster, and 16.8M, slower).
constexpr GemmConfig kShortKF64 = {32, 32, 4, 4, 4, kNoOpts, 0};
constexpr I kShortK = 16, kShortKMaxOutputs = 10'000'000;

// A medium product whose large-tile grid (all batches) has at least this many tiles runs on the
// large configuration (sweep: f64 1024 x 256^3 went from 4.1 to 16.4 TFLOP/s); with fewer tiles
// and both extents <= 256, or one extent <= 32 (narrow products such as 400 x 21), it runs on the
// `few` configuration.
constexpr I kLargeMinTiles = 264;  // two waves of an H200's 132 SMs

// Automatic split K: when the output has at most kSplitMaxTiles tiles (all batches) and
// K >= kSplitMinK (or the short-K rule below); aims at kSplitTargetGroups workgroups, at least
// kSplitMinSliceK of K per split, scratch at most kSplitMaxScratch bytes and the call's
// scratch_limit (einsum's step budget). At 128 tiles splitting
// lost on the H200 (f64 1024^3: 14.5 TFLOP/s unsplit, 9.3 in 2-4 splits).
constexpr I kSplitMaxTiles = 64, kSplitMinK = 512, kSplitTargetGroups = 512, kSplitMinSliceK = 128;
// Shorter K (kSplitShortMinK <= K < kSplitMinK) is split too when the output has at most
// kSplitFewTiles tiles, in pieces of at least kSplitShortSliceK: such products run on a handful
// of workgroups that each walk all of K (H200, the 99 products of about 400 x 21 x 300 of the
// einsum matrix chain: 2918 us of GPU time unsplit, 1592 us split, reduction passes included).
constexpr I kSplitFewTiles = 32, kSplitShortMinK = 128, kSplitShortSliceK = 32;
constexpr I kSplitMaxSplits = 256;
constexpr std::uint64_t kSplitMaxScratch = 256ull << 20;

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
// Calibration (H200, sixth session, bench/RESULTS.md): the rates are the tiles' 4096^3 / full
// wave figures; the model then predicts the measured times of the MERA steps 990 x 2187 x
// 4620 (1.79 ms unsplit, 1.30 in 4 splits), 7290 x 399 x 4320 (2.14, 1.86), 9720 x 136 x 441
// (0.198 on 64 x 128, 0.137 on 64 x 32) and 399 x 4320 x 594 (0.290 on the medium tile, 0.181)
// within about 10-20 %, and keeps the large tile unsplit where it was best (540 x 58320 x
// 136, 2160 x 3672 x 360, 4096^3).
struct WaveCandidate {
  DType d;
  GemmConfig c;
  int per_sm;       // resident workgroups per SM (H200)
  double tflops;    // full-wave rate, TFLOP/s (H200)
  int max_split;    // K splits tried: 1..max_split
  I min_kc = 0;     // only for at least this much K per split ...
  bool interior_waives_min_kc = false;  // ... unless no tile lies on the boundary (M, N multiples of the tile)
};
// kF64Mid is the fastest f64 tile at long K (seventh session: 4096^3 6.93 ms vs 7.42 rolled
// without the interior loop; the rolled tile, sixth session: 7290 x 399 x 4320 in 4 splits 1.68
// vs 1.88 on 64 x 128) but slower at K <= 729 (243 x 6561 x 729 x 9: 1.46 vs 1.34). The interior
// loop (u) on the other rows (seventh session, both sweep orders agreeing): 64 x 32 better on
// all eight MERA shapes (7290 x 399 x 4320 1.98 ms vs 2.44, 9720 x 136 x 441 0.131 vs 0.140);
// not on 64 x 64 (990 x 2187 x 4620: 1.70 vs 1.62). 64 x 128 with u: better at long K (4096^3
// 6.59 vs 7.71, 7290 x 399 x 4320 1.93 vs 2.15) and where every tile is interior (1024 x 256^3
// 1.81 vs 1.98, 1024^3 0.141 vs 0.175), worse at short K with boundary tiles (540 x 58320 x 136
// 0.742 vs 0.627, 399 x 4320 x 594 0.201 vs 0.187; not understood: the kernel then runs both of
// its slice loops, whose unrolled code may not share the instruction cache well): without u there.
// The 128 x 64 tile with 8 x 8 per thread (128 threads, two workgroups per SM) and u, in up to 5
// splits of at least 768 (tenth session, H200, two orders): 4096^3 21.4-21.8 TFLOP/s, as the
// 64 x 128 tile (21.7-21.8; so the same rate here); 7290 x 399 x 4320 in 5 splits 1.48-1.53 ms
// vs 1.64 on kF64Mid in 4, 990 x 2187 x 4620 in 5 splits 1.13-1.17 vs 1.16-1.17 on 64 x 128 in
// 4. Not at short K: 9720 x 136 x 441 0.127 vs 0.096 on 64 x 32, 540 x 58320 x 136 0.85 vs
// 0.61, 399 x 4320 x 594 0.243 vs 0.181 (without the K bound the model takes it for the first).
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
// 4 x 4 tile of BK 8 with the interior loop instead. Tenth session (H200, two orders, ms; the
// tile then without u): 13200 x 252 x 56 0.0386 vs 0.049, 4000 x 1000 x 32 0.0314 vs 0.033,
// 2000 x 1000 x 64 0.0275 vs 0.0284, 6000 x 1000 x 100 0.1005 vs 0.105, 2500 x 2500 x 160
// 0.165-0.169 vs 0.170, 1728 x 1100 x 144 alike. Nineteenth session (tools/gpu_call19c.sh, two
// orders, the einsum products of the MERA networks): with u the tile also wins at larger outputs
// and longer K, 12474 x 810 x 154 0.222-0.223 vs 0.254-0.258, 252 x 39600 x 56 0.096 vs 0.111,
// 540 x 58320 x 136 (31M outputs) 0.585-0.594 vs 0.618-0.622, 594 x 4320 x 207 0.086-0.087 vs
// 0.098-0.100, and the transposed 810 x 12474 x 154 0.224-0.228 vs 0.238-0.244 (without u it
// had lost there: 0.252 vs 0.238-0.247) and 39600 x 252 x 56 0.094-0.097 vs 0.112-0.113
// (tools/gpu_call19g.sh), but not at 177147 x 243 x 50 (43M outputs: 0.491-0.494 vs
// 0.475-0.481) or 399 x 4320 x 594 (0.197-0.202 vs 0.186-0.187); hence the bounds.
constexpr GemmConfig kF64WaveShort = with_u({64, 64, 8, 4, 4, kWF, 1});
constexpr I kWaveShortMaxK = 256, kWaveShortMaxOutputs = I{32} << 20;
// The wave model's 64 x 64 tile takes the interior loop up to this K (nineteenth session,
// tools/gpu_call19c.sh, two orders, ms: 540 x 270 x 136 x 216 0.669-0.682 vs 0.774-0.786, 924 x
// 1215 x 360 0.079-0.080 vs 0.084, 1728 x 1100 x 144 0.044-0.045 vs 0.048, 13200 x 252 x 56
// 0.037 vs 0.038-0.039, 4536 x 945 x 54 and 480 x 4620 x 243 alike; the seventh session measured
// it slower at long K: 990 x 2187 x 4620 1.70 vs 1.62).
constexpr I kWaveSquareInteriorMaxK = 512;

/// The wave model's fastest candidate and its estimated microseconds (best_us), or nullopt
/// where the model does not apply (other dtypes, no SM count, less than a wave of large tiles).
std::optional<GemmConfig> wave_best(const GemmProblem& p, const DeviceCaps& caps, double& best_us) {
  const DType d = p.d;
  const I M = p.M, N = p.N, K = p.K, B = p.B;
  const I sms = caps.sm_count;
  if (sms == 0 || K <= 0) return std::nullopt;
  std::optional<GemmConfig> best;
  bool any = false;
  for (const WaveCandidate& w : kWaveCandidates) {
    if (w.d != d || !gemm_config_valid(d, w.c, caps)) continue;
    if (!any && tiles_of(w.c, M, N, B) < sms) return std::nullopt;  // the first row: under a wave
    any = true;
    const bool waived = w.interior_waives_min_kc && M % w.c.bm == 0 && N % w.c.bn == 0;
    for (I S = 1; S <= w.max_split && (S == 1 || K / S >= kSplitMinKPerSplit); ++S) {
      if (K / S < w.min_kc && !waived) break;
      const double us = wave_time_us(w, p, S, sms);
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
/// shared memory besides the operand tiles). (The twelfth session also rolled the slice loop here, against compile times of over
/// 30 s that its chained epilogue caused; with the epilogue in the plain C's loops the tiles
/// compile as chosen, in 0.2-0.6 s on the H200, and run faster unrolled: f32 4096^3 41.6-42.0
/// vs 33.4-33.5 TFLOP/s, f64 21.5 vs 18.7; thirteenth session.)
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

/// c with the paired warp map (w + y) where valid: f64 on devices with an SM count (NVIDIA), except
/// 8 x 8 tiles without u and the narrow rows measured without it (narrow_pairable). H200, ninth
/// session, in-stream, two orders: 64 x 32 4 x 4 `fu` 9720 x 136 x 441 0.116 -> 0.100 ms, 399 x
/// 4320 x 594 0.222 -> 0.196; 64 x 64 4 x 4 `wf` 0.138 -> 0.121 and 0.199 -> 0.177; 128 x 64 4 x 8
/// `fu` in 4 splits 7290 x 399 x 4320 1.63-1.67 -> 1.61, 990 x 2187 x 4620 1.23-1.26 -> 1.20; 64 x
/// 128 8 x 8 `fsu` 4096^3 20.5-20.7 -> 20.8-21.5 TFLOP/s; 64 x 128 `fs` unchanged or slower (0.185
/// -> 0.190 ms on 399 x 4320 x 594). Shared memory returns an LDS.128 whose lane pairs read the
/// same words at twice the rate, which matters most where each thread's few outputs need many
/// shared reads (4 x 4).
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
  const std::uint64_t limit = std::min(kSplitMaxScratch, p.scratch_limit);
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
// rate of whole sectors (twenty-seventh session: f64 177147 x 243 x 50, stores alone, 0.43 ms
// against 0.12 for 177152 x 256; staged 0.16). Staged, consecutive invocations store
// consecutive elements; the barriers per block of columns lengthen every tile, so products
// bound by their FMAs (the f64 einsum steps measured) run slower. Only where the staging buffer
// fits the shared memory besides the tile's (and a chained C's table).
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

GemmConfig gemm_paired_on(Backend& be, DType d, const GemmConfig& c) {
  return gemm_paired(c, d, static_cast<VulkanBackend&>(be).device().caps());
}

void set_gemm_config_override(const std::optional<GemmConfig>& c) { override_slot() = c; }
void set_gemm_stage_override(std::optional<bool> on) { stage_override() = on; }

}  // namespace tenferro::vk
