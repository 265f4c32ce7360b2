// The gemm family: batched C = alpha * op(A) op(B) + beta * C on one tiled shader per dtype
// (shaders/gemm/gemm.comp, variants gemm_f32 gemm_f64 gemm_c32 gemm_c64).
//
// Products whose tiles would be mostly empty (small M x N, short K: Hadamard and outer products,
// batches of tiny matrices) run on shaders/gemm/gemm_small.comp instead, one invocation per
// output element (`small_product`), and so do many short columns with short K, four outputs per
// invocation (`short_columns`), unless a configuration is forced (gemm_config.hpp).
//
// A call is one dispatch over all batches, reading every operand in place through its strides
// (any sign, 0 included); with split K (few output tiles, long K) it is two: the K ranges write
// partial tiles into a scratch tensor, then a reduction pass applies alpha and beta. The
// configuration (tile, options, splits: gemm_config.hpp) comes from the table kDefaults (per
// dtype and size class) shrunk to DeviceCaps, or from the tuning override; the operands' load
// modes (load axis, 16-byte loads) follow from strides and alignment. Both are packed into
// specialization constant 1 (TFG_* in shaders/gemm/gemm_params.h): at most 16 pipelines per
// dtype and configuration. Conjugation, whether C is read (beta != 0) and 16-byte stores of C
// are runtime flags in the push constants.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "vulkan/options.hpp"
#include "shaders/common/params.h"
#include "shaders/gemm/gemm_params.h"
#include "vulkan/backend.hpp"
#include "vulkan/kernels/dispatch.hpp"
#include "vulkan/kernels/gemm_config.hpp"
#include "vulkan/kernels/gemm_util.hpp"

namespace tenferro::vk {

static_assert(sizeof(GemmParams) <= sizeof(KernelParams),
              "the shared pipeline layout pushes sizeof(KernelParams) bytes");

// ---- shared with gemm_ozaki.cpp (gemm_util.hpp) ----------------------------------------------

void scalar_bits(const Scalar& s, DType d, std::uint64_t out[2]) {
  const c64 v = s.as<c64>();
  if (d == DType::F32 || d == DType::C32) {
    out[0] = std::bit_cast<std::uint32_t>(static_cast<float>(v.real()));
    out[1] = std::bit_cast<std::uint32_t>(static_cast<float>(v.imag()));
  } else {
    out[0] = std::bit_cast<std::uint64_t>(v.real());
    out[1] = std::bit_cast<std::uint64_t>(v.imag());
  }
}

bool is_zero_in(const Scalar& s, DType d) {
  const c64 v = s.as<c64>();
  if (d == DType::F32 || d == DType::C32)
    return static_cast<float>(v.real()) == 0.0f && (d == DType::F32 || static_cast<float>(v.imag()) == 0.0f);
  return v.real() == 0.0 && (d == DType::F64 || v.imag() == 0.0);
}

std::uint64_t address_of(const TensorView& v) {
  const Allocation& a = VulkanBackend::storage_of(v).allocation();
  return a.address + static_cast<std::uint64_t>(v.offset()) * dtype_size(v.dtype());
}

void add_range(const TensorView& v, std::vector<ByteRange>& out, std::uint64_t& bytes) {
  if (v.numel() == 0) return;
  const ByteRange r = range_of(v);
  out.push_back(r);
  bytes += r.end - r.begin;
}

void dispatch(VulkanBackend& be, const std::string& variant, std::uint32_t cfg, std::uint32_t threads,
              GemmParams& p, std::span<const std::int64_t> dims, const std::vector<ByteRange>& reads,
              const std::vector<ByteRange>& writes, std::uint64_t bytes, std::uint32_t gx, std::uint32_t gy,
              std::uint32_t gz, std::uint32_t sched, const TensorView* indirect) {
  VkPipeline pipeline = be.pipelines().get(variant, static_cast<int>(cfg), threads, sched);
  p.dims = be.upload_params(dims);
  VkCommandBuffer cmd = be.recorder().record(reads, writes, bytes, false, indirect != nullptr);
  be.recorder().bind(cmd, pipeline);
  vkCmdPushConstants(cmd, be.pipelines().layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(p), &p);
  if (indirect) {
    const Allocation& a = VulkanBackend::storage_of(*indirect).allocation();
    vkCmdDispatchIndirect(cmd, a.buffer, a.offset + static_cast<VkDeviceSize>(indirect->offset()) * 4);
  } else {
    vkCmdDispatch(cmd, gx, gy, gz);
  }
}

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

/// K per split when K is cut into `splits` pieces of whole BK slices (the last may be shorter).
I split_k(I K, I splits, I bk) { return ((K + splits - 1) / splits + bk - 1) / bk * bk; }

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
double wave_time_us(const WaveCandidate& w, I M, I N, I K, I B, I S, I sms) {
  const GemmConfig& c = w.c;
  const I kc = split_k(K, S, c.bk);
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
std::optional<GemmConfig> wave_best(DType d, I M, I N, I K, I B, const DeviceCaps& caps, double& best_us) {
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
      const double us = wave_time_us(w, M, N, K, B, S, sms);
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
std::optional<GemmConfig> wave_choice(DType d, I M, I N, I K, I B, const DeviceCaps& caps) {
  double best_us = 0;
  const std::optional<GemmConfig> best = wave_best(d, M, N, K, B, caps, best_us);
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

bool pow2(int x) { return x > 0 && (x & (x - 1)) == 0; }

std::uint32_t log2u(int x) { return static_cast<std::uint32_t>(std::countr_zero(static_cast<unsigned>(x))); }

std::uint32_t tile_bits(const GemmConfig& c) {
  return log2u(c.bm) << TFG_SHIFT_BM | log2u(c.bn) << TFG_SHIFT_BN | log2u(c.bk) << TFG_SHIFT_BK |
         log2u(c.tm) << TFG_SHIFT_TM | log2u(c.tn) << TFG_SHIFT_TN;
}

std::optional<GemmConfig>& override_slot() {
  static std::optional<GemmConfig> o;
  return o;
}

/// The configuration of one call: override, Options::gemm_tile, else the default.
/// `forced`: an override or the option was used (the tiled kernel then runs even for small
/// products, so that tests and sweeps measure the configuration they asked for).
GemmConfig choose_config(DType d, I M, I N, I K, I B, const DeviceCaps& caps, bool& forced) {
  forced = true;
  if (const auto& o = override_slot(); o && gemm_config_valid(d, *o, caps)) return *o;
  static const std::optional<GemmConfig> env = options().gemm_tile.empty()
                                                   ? std::nullopt
                                                   : parse_gemm_config(options().gemm_tile);
  if (env && gemm_config_valid(d, *env, caps)) return *env;
  forced = false;
  return gemm_default_config(d, M, N, K, B, caps);
}

/// t for a chained C: room for the chain table (gemm.comp's chain_offs: the tile's BM + BN
/// element offsets, 64-bit, in shared memory besides the operand tiles; BK halves until it
/// fits). (The twelfth session also rolled the slice loop here, against compile times of over
/// 30 s that its chained epilogue caused; with the epilogue in the plain C's loops the tiles
/// compile as chosen, in 0.2-0.6 s on the H200, and run faster unrolled: f32 4096^3 41.6-42.0
/// vs 33.4-33.5 TFLOP/s, f64 21.5 vs 18.7; thirteenth session.)
std::uint64_t chain_table_bytes(const GemmConfig& t) { return 8u * static_cast<std::uint64_t>(t.bm + t.bn); }

GemmConfig chained_config(GemmConfig t, DType d, const DeviceCaps& caps) {
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

/// True when stepping `stride` elements of `es` bytes keeps `bytes`-byte alignment (or the axis
/// has one element).
bool aligned_to(I bytes, I stride, I extent, std::size_t es) {
  return extent <= 1 || (stride * static_cast<I>(es)) % bytes == 0;
}
bool aligned16(I stride, I extent, std::size_t es) { return aligned_to(16, stride, extent, es); }

std::optional<bool>& stage_override() {
  static std::optional<bool> o;
  return o;
}
std::uint64_t staged_dispatches = 0;  // gemm_staged_dispatches

/// Whether gemm.comp stores C's tile through shared memory (TFG_SCHED_STAGE; opt-in,
/// Options::gemm_stage): unless C's columns are 32-byte aligned with m at unit stride and the
/// register tile's stores are whole words along m (`words`: 16-byte stores, or one element per
/// word), its element stores leave every sector of C half written per store, which the H200
/// writes at a quarter of the rate of whole sectors (twenty-seventh session: f64 177147 x 243 x
/// 50, stores alone, 0.43 ms against 0.12 for 177152 x 256; staged 0.16). Staged, consecutive
/// invocations store consecutive elements; the barriers per block of columns lengthen every
/// tile, so products bound by their FMAs (the f64 einsum steps measured) run slower. Only where
/// the staging buffer fits the shared memory besides the tile's (and a chained C's table).
bool stages_c(const GemmConfig& t, DType d, const DeviceCaps& caps, bool chained, bool words, std::uint64_t c_addr,
              I scm, I scn, I scb, I N, I B) {
  if (!stage_override().value_or(options().gemm_stage)) return false;
  const std::size_t es = dtype_size(d);
  if (!chained && words && scm == 1 && c_addr % 32 == 0 && aligned_to(32, scn, N, es) && aligned_to(32, scb, B, es))
    return false;
  const std::uint64_t table = chained ? chain_table_bytes(t) : 0u;
  // gemm.comp's `stage`: SW = RN * VW columns of SROW = BM + 1 elements.
  const std::uint64_t stage =
      es * static_cast<std::uint64_t>(t.bn / t.tn * gemm_words_of(d)) * static_cast<std::uint64_t>(t.bm + 1);
  return gemm_shared_bytes(t, d) + table + stage <= caps.max_shared_memory;
}

/// True for products whose tiles would be mostly empty (few outputs per matrix, short K): they
/// run on gemm_small.comp, one invocation per output element. Long K stays on the tiled kernel,
/// whose shared-memory staging pays off there.
/// Batches of tiny matrices with longer K run faster tiled (H200, f64 12 x 12 x 144 x 1100: 54 us
/// here, 33 us on 16 x 16 tiles; 12 x 12 x 12 x 1100: 14 us here, 16 us tiled).
bool small_product(I M, I N, I K) { return (M * N <= 256 && K <= 64) || (std::min(M, N) <= 8 && K <= 256); }

/// Many short columns with short K (memory-bound: the tile's rows are mostly empty): gemm_small
/// with four outputs per invocation (H200, f64 27 x 729 x 3 x 2187, an einsum step of
/// gm_queen5_5_3: 0.963 ms on 64 x 64 tiles, 0.395 on gemm_small with four rows; the transposed
/// 729 x 27 stays tiled, 0.406 vs 0.431).
bool short_columns(I M, I N, I K, I B) { return M <= 32 && K <= 16 && M * N * B >= (I{1} << 20); }

constexpr I kSmallIdx32Limit = (I{1} << 31) - (I{1} << 26);  // headroom for the grid stride
constexpr I kSmallRows = 4;  // gemm_small.comp's outputs per invocation along m (RM), short_columns

}  // namespace

bool gemm_uses_small_kernel(I M, I N, I K, I B) { return small_product(M, N, K) || short_columns(M, N, K, B); }

int gemm_words_of(DType d) {
  switch (d) {
    case DType::F32: return 4;
    case DType::F64: case DType::C32: return 2;
    default: return 1;  // C64
  }
}

std::uint64_t gemm_shared_bytes(const GemmConfig& c, DType d) {
  const int vw = gemm_words_of(d);
  const std::uint64_t bufs = (c.opts & TFG_OPT_SINGLE) ? 1 : 2;
  const int pad = (c.opts & TFG_OPT_NOPAD) ? 0 : 1;
  return bufs * 16ull * static_cast<std::uint64_t>(c.bk * (c.bm / vw + pad) + c.bk * (c.bn / vw + pad));
}

bool gemm_config_valid(DType d, const GemmConfig& c, const DeviceCaps& caps) {
  if (c.small) return c == GemmConfig{.small = true};
  const int vw = gemm_words_of(d);
  if (!pow2(c.bm) || !pow2(c.bn) || !pow2(c.bk) || !pow2(c.tm) || !pow2(c.tn)) return false;
  if (c.bm > 1 << 15 || c.bn > 1 << 15 || c.bk > 1 << 15) return false;
  if (c.tm % vw || c.tn % vw || c.bk % vw || c.bm % c.tm || c.bn % c.tn) return false;
  constexpr std::uint32_t kKnown = TFG_OPT_WARP | TFG_OPT_WARP_T | TFG_OPT_FAST | TFG_OPT_SINGLE | TFG_OPT_REGDB |
                                   TFG_OPT_GROUP | TFG_OPT_NOPAD;
  if ((c.opts & ~kKnown) != 0 || c.split < 0) return false;
  if ((c.roll != 0 && c.roll != 1 && c.roll != 2 && c.roll != 4) || c.roll > c.bk) return false;
  if (c.roll != 0 && (c.opts & TFG_OPT_REGDB)) return false;
  if (c.interior_loop && !(c.opts & TFG_OPT_FAST)) return false;
  if (c.lean && !c.interior_loop) return false;
  if (c.pair && !(c.opts & TFG_OPT_WARP)) return false;
  const int rm = c.bm / c.tm, rn = c.bn / c.tn, nt = rm * rn;
  if (c.opts & TFG_OPT_WARP_T && !(c.opts & TFG_OPT_WARP)) return false;
  if (c.opts & TFG_OPT_WARP) {
    const int wr = (c.opts & TFG_OPT_WARP_T) ? 4 : 8, wc = 32 / wr;
    if (rm % wr || rn % wc || nt % 32) return false;
  }
  if (c.opts & TFG_OPT_FAST && ((c.bm * c.bk / vw) % nt || (c.bn * c.bk / vw) % nt)) return false;
  const auto nt32 = static_cast<std::uint32_t>(nt);
  return nt32 <= 1024 && nt32 <= caps.max_group_size_x && gemm_shared_bytes(c, d) <= caps.max_shared_memory;
}

GemmConfig default_row(DType d, SizeClass cls) {
  for (const DefaultRow& r : kDefaults)
    if (r.d == d && r.cls == cls) return r.c;
  TENFERRO_ASSERT(false);
  return {};
}

/// The size classes' configuration for an M x N x K x B product of class cls (kDefaults, with
/// the medium and large reclassifications, the f32 huge tile and the f64 medium-few rule, then
/// the finer rungs of the few, small and mid classes).
GemmConfig class_row(DType d, SizeClass cls, I M, I N, I K, I B, const DeviceCaps& caps) {
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
static bool narrow_pairable(DType d, const GemmConfig& c) {
  if (d == DType::F64 && c == kWideMidF64) return kWideMidF64Paired;
  for (const NarrowRow& r : kNarrowRows) {
    if (r.d != d) continue;
    if (c == r.wide || c == r.wide_long) return r.pair_wide;
    if (c == r.tall || c == r.tall_long) return r.pair_tall;
  }
  return true;
}

/// c with the paired warp map (w + y) where valid: f64 on devices with an SM count (NVIDIA), except
/// 8 x 8 tiles without u and the narrow rows measured without it (narrow_pairable). H200, ninth
/// session, in-stream, two orders: 64 x 32 4 x 4 `fu` 9720 x 136 x 441 0.116 -> 0.100 ms, 399 x
/// 4320 x 594 0.222 -> 0.196; 64 x 64 4 x 4 `wf` 0.138 -> 0.121 and 0.199 -> 0.177; 128 x 64 4 x 8
/// `fu` in 4 splits 7290 x 399 x 4320 1.63-1.67 -> 1.61, 990 x 2187 x 4620 1.23-1.26 -> 1.20; 64 x
/// 128 8 x 8 `fsu` 4096^3 20.5-20.7 -> 20.8-21.5 TFLOP/s; 64 x 128 `fs` unchanged or slower (0.185
/// -> 0.190 ms on 399 x 4320 x 594). Shared memory returns an LDS.128 whose lane pairs read the
/// same words at twice the rate, which matters most where each thread's few outputs need many
/// shared reads (4 x 4).
static GemmConfig paired(GemmConfig c, DType d, const DeviceCaps& caps) {
  if (caps.sm_count == 0 || d != DType::F64 || c.small || c.pair || !narrow_pairable(d, c))
    return c;
  if (c.tm * c.tn >= 64 && !c.interior_loop) return c;
  GemmConfig p = c;
  p.opts |= TFG_OPT_WARP;
  p.pair = true;
  return gemm_config_valid(d, p, caps) ? p : c;
}

/// Whether the default is kF64Huge (ahead of the wave model).
static bool takes_huge(DType d, I M, I N, I K, I B, const DeviceCaps& caps) {
  return d == DType::F64 && caps.sm_count > 0 && B == 1 && K >= kF64HugeMinK && std::min(M, N) >= kF64HugeMinExtent &&
         tiles_of(kF64Huge, M, N, 1) >= kF64HugeMinTiles && gemm_config_valid(d, kF64Huge, caps);
}

/// The choice below before `paired`.
static GemmConfig unpaired_default_config(DType d, I M, I N, I K, I B, const DeviceCaps& caps) {
  const SizeClass cls = size_class(M, N);
  const bool short_k = d == DType::F64 && K <= kShortK && cls != SizeClass::small && M * N * B <= kShortKMaxOutputs;
  if (takes_huge(d, M, N, K, B, caps)) return kF64Huge;
  if (!short_k && (cls == SizeClass::large || cls == SizeClass::medium))
    if (const auto w = wave_choice(d, M, N, K, B, caps)) return *w;
  const GemmConfig row = short_k ? kShortKF64 : class_row(d, cls, M, N, K, B, caps);
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

GemmConfig gemm_default_config(DType d, I M, I N, I K, I B, const DeviceCaps& caps) {
  return paired(unpaired_default_config(d, M, N, K, B, caps), d, caps);
}

double gemm_fma_seconds(DType d, I M, I N, I K, I B, const DeviceCaps& caps) {
  double us = 0;
  if (takes_huge(d, M, N, K, B, caps) || !wave_best(d, M, N, K, B, caps, us)) return 0;
  return us * 1e-6;
}

int gemm_splits(const GemmConfig& c, DType d, I M, I N, I K, I B, std::uint64_t scratch_limit) {
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
  const std::uint64_t out_bytes = static_cast<std::uint64_t>(M * N * B) * dtype_size(d);
  const std::uint64_t limit = std::min(kSplitMaxScratch, scratch_limit);
  s = std::min({s, slices, kSplitMaxSplits, static_cast<I>(limit / std::max<std::uint64_t>(out_bytes, 1))});
  if (s < 2) return 1;
  // Whole BK slices per split; the last split may be shorter, none is empty.
  const I kc = split_k(K, s, c.bk);
  return static_cast<int>((K + kc - 1) / kc);
}

std::string gemm_config_string(const GemmConfig& c) {
  if (c.small) return "small";
  char o[16] = {0};
  int n = 0;
  if (c.opts & TFG_OPT_WARP) o[n++] = (c.opts & TFG_OPT_WARP_T) ? 't' : 'w';
  if (c.opts & TFG_OPT_FAST) o[n++] = 'f';
  if (c.opts & TFG_OPT_SINGLE) o[n++] = 's';
  if (c.opts & TFG_OPT_REGDB) o[n++] = 'r';
  if (c.opts & TFG_OPT_GROUP) o[n++] = 'g';
  if (c.opts & TFG_OPT_NOPAD) o[n++] = 'x';
  if (c.roll != 0) o[n++] = c.roll == 1 ? 'n' : c.roll == 2 ? 'p' : 'q';
  if (c.interior_loop) o[n++] = 'u';
  if (c.lean) o[n++] = 'l';
  if (c.pair) o[n++] = 'y';
  if (n == 0) o[n++] = '-';
  char buf[96];
  std::snprintf(buf, sizeof buf, "%d,%d,%d,%d,%d,%s,%d", c.bm, c.bn, c.bk, c.tm, c.tn, o, c.split);
  return buf;
}

std::optional<GemmConfig> parse_gemm_config(std::string_view s) {
  if (s == "small") return GemmConfig{.small = true};
  GemmConfig c;
  char opts[16] = {0};
  int split = 0;
  const std::string str(s);
  const int n = std::sscanf(str.c_str(), "%d,%d,%d,%d,%d,%15[-wtfsrgxnpquly],%d", &c.bm, &c.bn, &c.bk, &c.tm, &c.tn, opts, &split);
  if (n < 5) return std::nullopt;
  for (const char* q = opts; *q; ++q) {
    switch (*q) {
      case 'w': c.opts |= TFG_OPT_WARP; break;
      case 't': c.opts |= TFG_OPT_WARP | TFG_OPT_WARP_T; break;
      case 'f': c.opts |= TFG_OPT_FAST; break;
      case 's': c.opts |= TFG_OPT_SINGLE; break;
      case 'r': c.opts |= TFG_OPT_REGDB; break;
      case 'g': c.opts |= TFG_OPT_GROUP; break;
      case 'x': c.opts |= TFG_OPT_NOPAD; break;
      case 'n': c.roll = 1; break;
      case 'p': c.roll = 2; break;
      case 'q': c.roll = 4; break;
      case 'u': c.interior_loop = true; break;
      case 'l': c.lean = true; break;
      case 'y': c.pair = true; break;
      default: break;  // '-'
    }
  }
  c.split = n >= 7 ? split : 0;
  return c;
}

bool gemm_config_valid_on(Backend& be, DType d, const GemmConfig& c) {
  return gemm_config_valid(d, c, static_cast<VulkanBackend&>(be).device().caps());
}

GemmConfig gemm_default_config_on(Backend& be, DType d, I M, I N, I K, I B) {
  return gemm_default_config(d, M, N, K, B, static_cast<VulkanBackend&>(be).device().caps());
}

GemmConfig gemm_paired_on(Backend& be, DType d, const GemmConfig& c) {
  return paired(c, d, static_cast<VulkanBackend&>(be).device().caps());
}

void set_gemm_config_override(const std::optional<GemmConfig>& c) { override_slot() = c; }

bool supports_gemm(const DeviceCaps& caps, DType d) {
  switch (d) {
    case DType::F32: case DType::C32: return true;
    case DType::F64: case DType::C64: return caps.f64;
    default: return false;
  }
}

namespace {

std::optional<int>& three_m_override() {
  static std::optional<int> o;
  return o;
}

// ---- the 3-multiply form (Options::gemm_3m, opt-in) -----------------------------------------
// P1 = Ar Br, P2 = Ai Bi, P3 = (Ar + Ai)(Br + Bi) as three real products of the call's shape,
// then Re C = P1 - P2, Im C = P3 - P1 - P2: 3/4 of the 4-multiply form's flops, plus a split pass
// per operand (three real planes: re, im, re + im) and a combine pass (shaders/gemm/gemm3m.comp).
// Error (Higham, "Stability of a method for multiplying complex matrices with three real matrix
// multiplications", 1992): the real part's bound is the 4-multiply form's; the imaginary part's
// is c K eps sum (|Re a| + |Im a|)(|Re b| + |Im b|) (up to twice sum |a||b|), and an imaginary
// part that is zero in exact arithmetic need not come out zero.

/// Plane order of a [X0, X1, B] view: axis 0 fastest, unless axis 1 has the unit stride and
/// axis 0 has not (the planes then follow the view's own order, so the pass reads or writes it
/// along its unit stride).
bool planes_swapped(const TensorView& v) { return std::abs(v.strides()[1]) == 1 && std::abs(v.strides()[0]) != 1; }

/// Plane `k` (0, 1, 2) of `planes` as a real [X0, X1, B] view in the plane order of `like`.
TensorView plane_view(const Tensor& planes, const TensorView& like, int k) {
  const I x0 = like.dim(0), x1 = like.dim(1), nb = like.dim(2);
  const bool sw = planes_swapped(like);
  const Layout l{{x0, x1, nb}, {sw ? x1 : 1, sw ? 1 : x0, x0 * x1}, k * x0 * x1 * nb};
  return TensorView(planes.storage(), planes.dtype(), l);
}

/// One pass of gemm3m.comp over the complex [X0, X1, B] view x: mode 0 splits x into `planes`
/// (conj: Im x negated), mode 1 writes x = alpha * combine(planes) + beta * x.
void plane_pass(VulkanBackend& be, std::uint32_t mode, const TensorView& x, const Tensor& planes, bool conj,
                const Scalar& alpha, const Scalar& beta) {
  const DType d = x.dtype();
  const bool sw = planes_swapped(x);
  const I x0 = x.dim(0), x1 = x.dim(1), nb = x.dim(2), total = x0 * x1 * nb;
  GemmParams p{};
  const std::uint64_t xa = address_of(x), pa = address_of(planes);
  p.a = mode == 0 ? xa : pa;
  p.c = mode == 0 ? pa : xa;
  if (conj) p.flags |= TFG_CONJ_A;
  const bool read_c = mode == 1 && !is_zero_in(beta, d);
  if (read_c) p.flags |= TFG_READ_C;
  scalar_bits(alpha, d, p.alpha);
  scalar_bits(beta, d, p.beta);
  std::int64_t dims[TFG_DIMS_WORDS] = {sw ? x1 : x0, sw ? x0 : x1, nb, x.strides()[sw ? 1 : 0],
                                       x.strides()[sw ? 0 : 1], x.strides()[2], total};
  std::vector<ByteRange> reads, writes;
  std::uint64_t bytes = 0;
  add_range(mode == 0 ? x : planes, reads, bytes);
  if (read_c) add_range(x, reads, bytes);
  add_range(mode == 0 ? static_cast<const TensorView&>(planes) : x, writes, bytes);
  constexpr std::uint32_t kThreads = 256;
  dispatch(be, "gemm3m_" + std::string(dtype_name(d)), mode, kThreads, p, dims, reads, writes, bytes,
           grid_stride_groups(be, total, kThreads), 1, 1);
  const std::uint64_t value = be.recorder().open_value();
  VulkanBackend::storage_of(x).last_use = value;
  VulkanBackend::storage_of(planes).last_use = value;
}

/// Runs `call` in the 3-multiply form; false (nothing recorded) when its planes do not fit the
/// device memory, so that the caller runs the 4-multiply form instead of failing.
bool gemm_3m(VulkanBackend& be, const GemmCall& call) {
  const DType d = call.c.dtype(), r = d == DType::C32 ? DType::F32 : DType::F64;
  const I M = call.c.dim(0), N = call.c.dim(1), K = call.a.dim(1), B = call.c.dim(2);
  const Scalar one = Scalar::of(d, 1.0), zero = Scalar::of(d, 0.0);
  Tensor ap, bp, pp;
  try {
    ap = be.allocate(r, {3 * M * K * B});
    bp = be.allocate(r, {3 * K * N * B});
    pp = be.allocate(r, {3 * M * N * B});
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::out_of_memory) throw;
    return false;
  }
  auto guard = be.lock();
  plane_pass(be, 0, call.a, ap, call.conj_a, one, zero);
  plane_pass(be, 0, call.b, bp, call.conj_b, one, zero);
  for (int k = 0; k < 3; ++k) {
    GemmCall part;
    part.a = plane_view(ap, call.a, k);
    part.b = plane_view(bp, call.b, k);
    part.c = plane_view(pp, call.c, k);
    part.alpha = Scalar::of(r, 1.0);
    part.beta = Scalar::of(r, 0.0);
    part.scratch_limit = call.scratch_limit;
    gemm_kernel(be, part);
  }
  plane_pass(be, 1, call.c, pp, false, call.alpha, call.beta);
  be.after_op();
  return true;
}

}  // namespace

void set_gemm_3m_override(std::optional<int> mode) { three_m_override() = mode; }
void set_gemm_stage_override(std::optional<bool> on) { stage_override() = on; }
std::uint64_t gemm_staged_dispatches() { return staged_dispatches; }

bool gemm_takes_3m(DType d, I M, I N, I K, I B, bool chained, std::uint64_t scratch_limit) {
  const int mode = three_m_override().value_or(static_cast<int>(options().gemm_3m));
  if (mode == 0 || !is_complex(d) || chained || std::min({M, N, K, B}) <= 0) return false;
  if (mode == 1 && std::min({M, N, K}) < kGemm3MMinExtent) return false;
  const double planes = 3.0 * (double(M) * double(K) + double(K) * double(N) + double(M) * double(N)) * double(B);
  const std::uint64_t limit = std::min(kGemm3MMaxScratch, scratch_limit);
  return planes * double(dtype_size(d) / 2) <= double(limit);  // (in double: no overflow)
}

void gemm_kernel(VulkanBackend& be, const GemmCall& call) {
  const TensorView &a = call.a, &b = call.b, &c = call.c;
  const DType d = c.dtype();
  // C: [M, N, B], or chained (GemmCall::c): [M0..M3, N0..N3, B0, B1].
  const bool chained = call.chained();
  TENFERRO_ASSERT(a.rank() == 3 && b.rank() == 3 && (c.rank() == 3 || chained));
  auto group = [&](int first, int n) {
    I e = 1;
    for (int j = first; j < first + n; ++j) e *= c.dim(j);
    return e;
  };
  const I M = chained ? group(0, kGemmFreeChains) : c.dim(0);
  const I N = chained ? group(kGemmFreeChains, kGemmFreeChains) : c.dim(1);
  const I B = chained ? group(2 * kGemmFreeChains, kGemmBatchChains) : c.dim(2), K = a.dim(1);
  if (M == 0 || N == 0 || B == 0) return;
  if (gemm_takes_3m(d, M, N, K, B, chained, call.scratch_limit) && gemm_3m(be, call)) return;
  const DeviceCaps& caps = be.device().caps();
  // Ozaki-II: the normwise opt-in returns here; a certified product is recorded below, before
  // the FMA kernel's dispatch that recomputes C where its certificate fails.
  // A shape whose certificate failed lately runs on the FMA kernels alone for a while.
  const int ozaki = gemm_ozaki_moduli(d, M, N, K, B, chained, caps.nv_coopmat_u8, &caps, call.scratch_limit);
  const bool certified_mode = ozaki > 0 && gemm_ozaki_certified();
  if (ozaki > 0 && !certified_mode && gemm_ozaki(be, call, ozaki)) return;
  const bool certified = certified_mode && !gemm_ozaki_recently_failed(be, d, M, N, K, B);
  const std::size_t es = dtype_size(d);
  bool forced = false;
  GemmConfig t = choose_config(d, M, N, K, B, caps, forced);
  const int vw = gemm_words_of(d);
  const bool wide_rows = forced ? t.small : short_columns(M, N, K, B);  // gemm_small with four rows
  const bool small = wide_rows || (!forced && small_product(M, N, K));
  // (A certified Ozaki product's FMA recomputation runs unsplit: one indirect dispatch.)
  const I splits = small || certified ? 1 : gemm_splits(t, d, M, N, K, B, call.scratch_limit);
  // The chained epilogue runs in the unsplit tile (split K: only in the reduction pass).
  if (chained && !small && splits <= 1) t = chained_config(t, d, caps);

  const I sam = a.strides()[0], sak = a.strides()[1], sab = a.strides()[2];
  const I sbk = b.strides()[0], sbn = b.strides()[1], sbb = b.strides()[2];
  const I scm = c.strides()[0], scn = c.strides()[chained ? kGemmFreeChains : 1];
  const I scb = c.strides()[chained ? 2 * kGemmFreeChains : 2];
  // Words 16-29 of the dims block: a chained C's extents and strides (gemm_params.h).
  std::int64_t cw[14] = {};
  if (chained) {
    const Shape& e = c.shape();
    const Strides& st = c.strides();
    for (int g = 0; g < 2; ++g)
      for (int j = 0; j < 3; ++j) {
        cw[6 * g + j] = e[static_cast<std::size_t>(4 * g + j)];
        cw[6 * g + 3 + j] = st[static_cast<std::size_t>(4 * g + j + 1)];
      }
    cw[12] = e[8];
    cw[13] = st[9];
  }
  // A chained C's index arithmetic is 32-bit unless a group reaches 2^31 elements (the shaders'
  // CHAINS_WIDE; TestHooks::gemm_chains_wide forces it).
  const bool wide_chains = chained && (std::max({M, N, B}) > I{0x7fffffff} || test_hooks().gemm_chains_wide);
  const std::uint32_t chain_sched = chained ? TFG_SCHED_CHAINS | (wide_chains ? TFG_SCHED_CHAINS_WIDE : 0u) : 0u;
  const bool read_c = !is_zero_in(call.beta, d);
  const bool have_ab = K > 0;

  std::uint32_t cfg = tile_bits(t) | t.opts;
  // Specialization constant 2 (SCHED in gemm.comp): the roll code (0 = unrolled slice, else
  // log2(roll) + 1), TFG_SCHED_INTERIOR, TFG_SCHED_LEAN and TFG_SCHED_PAIR; TFG_SCHED_STAGE(_N)
  // below, with C's address.
  std::uint32_t sched = (t.roll == 0 ? 0u : log2u(t.roll) + 1u) | (t.interior_loop ? TFG_SCHED_INTERIOR : 0u) |
                        (t.lean ? TFG_SCHED_LEAN : 0u) | (t.pair ? TFG_SCHED_PAIR : 0u);
  GemmParams p{};
  if (have_ab) {
    p.a = address_of(a);
    p.b = address_of(b);
    // A: along k when k is the unit-stride axis and m is not; 16-byte words along the load axis
    // need a 16-byte aligned start and strides of the other axes that keep it.
    const bool a_k = (sak == 1 || K == 1) && sam != 1;
    if (a_k) cfg |= TFG_A_ALONG_K;
    const bool a_vec = vw > 1 && (a_k ? sak == 1 : sam == 1) && p.a % 16 == 0 &&
                       aligned16(a_k ? sam : sak, a_k ? M : K, es) && aligned16(sab, B, es);
    if (a_vec) cfg |= TFG_A_VEC;
    // B: along n when n is the unit-stride axis and k is not.
    const bool b_n = (sbn == 1 || N == 1) && sbk != 1;
    if (b_n) cfg |= TFG_B_ALONG_N;
    const bool b_vec = vw > 1 && (b_n ? sbn == 1 : sbk == 1) && p.b % 16 == 0 &&
                       aligned16(b_n ? sbk : sbn, b_n ? K : N, es) && aligned16(sbb, B, es);
    if (b_vec) cfg |= TFG_B_VEC;
  }
  if (call.conj_a && is_complex(d)) p.flags |= TFG_CONJ_A;
  if (call.conj_b && is_complex(d)) p.flags |= TFG_CONJ_B;

  std::vector<ByteRange> reads, writes;
  std::uint64_t bytes = 0;
  if (have_ab) {
    add_range(a, reads, bytes);
    add_range(b, reads, bytes);
  }
  const I tiles = small ? 1 : ((M + t.bm - 1) / t.bm) * ((N + t.bn - 1) / t.bn);
  const auto gx = static_cast<std::uint32_t>(std::min<I>(tiles, caps.max_group_count_x));
  const auto gy = static_cast<std::uint32_t>(std::min<I>(B, 65535));
  const std::string variant = "gemm_" + std::string(dtype_name(d));
  const auto threads = static_cast<std::uint32_t>(t.threads());

  // A certified Ozaki product where the FMA kernel is one dispatch of tiles (else the FMA kernels
  // alone): that dispatch then reads its workgroup counts from the certificate. The combine pass
  // is recorded as writing C, so the hazard tracker always puts a barrier before this dispatch,
  // and with `indirect` that barrier makes the certify pass's writes visible to the indirect
  // read too.
  std::optional<OzakiCertificate> cert;
  if (certified && !small && splits <= 1) {
    cert.emplace();
    cert->gx = gx;
    cert->gy = gy;
    if (!gemm_ozaki(be, call, ozaki, &*cert)) cert.reset();
    else add_range(cert->args, reads, bytes);
  }

  if (splits <= 1) {
    p.c = address_of(c);
    const bool c_vec = !chained && vw > 1 && scm == 1 && p.c % 16 == 0 && aligned16(scn, N, es) && aligned16(scb, B, es);
    if (c_vec) p.flags |= TFG_C_VEC;
    if (!small && stages_c(t, d, caps, chained, c_vec || vw == 1, p.c, scm, scn, scb, N, B)) {
      sched |= TFG_SCHED_STAGE | (std::abs(scn) < std::abs(scm) ? TFG_SCHED_STAGE_N : 0u);
      ++staged_dispatches;
    }
    if (read_c) p.flags |= TFG_READ_C;
    scalar_bits(call.alpha, d, p.alpha);
    scalar_bits(call.beta, d, p.beta);
    const std::int64_t dims[TFG_DIMS_WORDS] = {M,      N,      K,      B,      sam,    sak,    sab,    sbk,
                                               sbn,    sbb,    scm,    scn,    scb,    K,      0,      1,
                                               cw[0],  cw[1],  cw[2],  cw[3],  cw[4],  cw[5],  cw[6],  cw[7],
                                               cw[8],  cw[9],  cw[10], cw[11], cw[12], cw[13]};
    if (read_c) add_range(c, reads, bytes);
    add_range(c, writes, bytes);
    auto guard = be.lock();
    if (small) {
      // gemm_small.comp: one invocation per output, or per kSmallRows consecutive outputs along
      // m (short_columns, forced); 64-bit index arithmetic only when the invocation count needs it.
      const I rows = wide_rows && M >= kSmallRows ? kSmallRows : 1;
      const I total = (M + rows - 1) / rows * N * B;
      constexpr std::uint32_t local = Pipelines::kDefaultWorkgroupSize;
      const std::uint32_t gxs = grid_stride_groups(be, total, local);
      const std::uint32_t spec =
          (total >= kSmallIdx32Limit ? 1u : 0u) | (rows > 1 ? 2u : 0u) | (chained ? TFG_SMALL_CHAINS : 0u) |
          (wide_chains ? TFG_SMALL_CHAINS_WIDE : 0u);
      dispatch(be, "gemm_small_" + std::string(dtype_name(d)), spec, local, p, dims, reads, writes, bytes, gxs, 1, 1);
    } else {
      dispatch(be, variant, cfg, threads, p, dims, reads, writes, bytes, gx, gy, 1,
               sched | chain_sched, cert ? &cert->args : nullptr);
    }
    const std::uint64_t value = be.recorder().open_value();
    if (cert) VulkanBackend::storage_of(cert->args).last_use = value;
    if (have_ab) {
      VulkanBackend::storage_of(a).last_use = value;
      VulkanBackend::storage_of(b).last_use = value;
    }
    VulkanBackend::storage_of(c).last_use = value;
    be.after_op();
    return;
  }

  // Split K: pass 1 writes `splits` partial products (alpha 1, beta 0) into compact [M, N, B]
  // blocks of a scratch tensor; pass 2 (TFG_OPT_REDUCE) sums them into C with alpha and beta.
  const I kc = split_k(K, splits, t.bk);
  const I zstride = M * N * B;
  const Tensor scratch = be.allocate(d, {zstride * splits});
  p.c = address_of(scratch);
  if (vw > 1 && p.c % 16 == 0 && aligned16(M, N, es) && aligned16(M * N, B, es)) p.flags |= TFG_C_VEC;
  scalar_bits(Scalar::of(DType::F64, 1.0), d, p.alpha);
  const std::int64_t dims1[TFG_DIMS_WORDS] = {M, N, K, B, sam, sak, sab, sbk, sbn, sbb, 1, M, M * N, kc, zstride, splits};
  // (The partials are compact: words 16-29 unused.)
  std::vector<ByteRange> scratch_range;
  std::uint64_t scratch_bytes = 0;
  add_range(scratch, scratch_range, scratch_bytes);

  GemmParams q{};
  q.a = p.c;
  q.c = address_of(c);
  if (read_c) q.flags |= TFG_READ_C;
  scalar_bits(call.alpha, d, q.alpha);
  scalar_bits(call.beta, d, q.beta);
  const std::int64_t dims2[TFG_DIMS_WORDS] = {M,     N,      K,      B,      0,      0,      0,      0,
                                               0,     0,      scm,    scn,    scb,    kc,     zstride, splits,
                                               cw[0], cw[1],  cw[2],  cw[3],  cw[4],  cw[5],  cw[6],  cw[7],
                                               cw[8], cw[9],  cw[10], cw[11], cw[12], cw[13]};
  std::vector<ByteRange> reads2 = scratch_range, writes2;
  std::uint64_t bytes2 = scratch_bytes;
  if (read_c) add_range(c, reads2, bytes2);
  add_range(c, writes2, bytes2);
  const GemmConfig rt{vw, vw, vw, vw, vw, 0, 0};  // keeps the reduce pipeline's shared arrays tiny
  constexpr std::uint32_t kReduceThreads = 256;
  const std::uint32_t gx2 = grid_stride_groups(be, zstride, kReduceThreads);

  auto guard = be.lock();
  dispatch(be, variant, cfg, threads, p, dims1, reads, scratch_range, bytes + scratch_bytes, gx, gy,
           static_cast<std::uint32_t>(splits), sched);
  dispatch(be, variant, tile_bits(rt) | TFG_OPT_REDUCE, kReduceThreads, q, dims2, reads2, writes2, bytes2, gx2, 1, 1,
           chain_sched);
  const std::uint64_t value = be.recorder().open_value();
  VulkanBackend::storage_of(a).last_use = value;
  VulkanBackend::storage_of(b).last_use = value;
  VulkanBackend::storage_of(c).last_use = value;
  VulkanBackend::storage_of(scratch).last_use = value;
  be.after_op();
}

}  // namespace tenferro::vk
