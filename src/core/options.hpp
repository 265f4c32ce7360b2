// Environment options, read once here and nowhere else.
#pragma once
#include <cstdint>
#include <string>

namespace tenferro {

struct Options {
  std::string device;                  // TENFERRO_DEVICE: "" (auto), "cpu" or a Vulkan ordinal
  bool vk_validation = false;          // TENFERRO_VK_VALIDATION=1: enable the Khronos layer
  std::uint64_t vk_memory_cap = 0;     // TENFERRO_VK_MEMORY_CAP: bytes (0 = device budget)
  // TENFERRO_VK_PROFILE=1: every Vulkan backend starts GPU timestamp profiling when created
  // (Backend::profile_begin) and prints format_profile() of what is left unreported to stderr
  // at process exit.
  bool vk_profile = false;
  // TENFERRO_VK_CACHE: bytes of empty device blocks kept after frees for reuse; unset =
  // kVkCacheAuto: 1/8 of the device-local heap, at most 8 GiB (fresh device allocations of
  // gigabytes cost tens of milliseconds, so memory-bound ops must reuse their blocks).
  static constexpr std::uint64_t kVkCacheAuto = ~std::uint64_t{0};
  std::uint64_t vk_cache_bytes = kVkCacheAuto;
  // TENFERRO_VK_GEMM_TILE: "bm,bn,bk,tm,tn[,opts[,split]]" forces the Vulkan gemm configuration
  // (src/vulkan/kernels/gemm_config.hpp; tuning only, ignored when invalid). "" = automatic.
  std::string vk_gemm_tile;
  // TENFERRO_VK_GEMM_WAVES=0: the gemm tile choice ignores the device's SM count (no wave model,
  // src/vulkan/kernels/gemm.cpp: the size classes decide). Comparison runs only; default on.
  bool vk_gemm_waves = true;
  // TENFERRO_VK_GEMM_PAIR=0: the f64 tiles chosen on NVIDIA devices keep their own thread map
  // instead of the paired warp map (gemm option y, src/vulkan/kernels/gemm.cpp). Comparison
  // runs only; default on.
  bool vk_gemm_pair = true;
  // TENFERRO_VK_GEMM_STAGE=1: the Vulkan GEMM stores C through shared memory where its register
  // tile's stores would leave sectors half written (gemm.cpp stages_c). Opt-in: on the H200 it
  // cut C's stores alone by 2.7x and an f32 short-K product by 20 %, but slowed the f64 einsum
  // products whose tiles are bound by their FMAs (bench/RESULTS.md, twenty-seventh session); in
  // f32 / c32 it gains 10-25 % on tall products with full tiles and loses 10-26 % elsewhere
  // (twenty-eighth session).
  bool vk_gemm_stage = false;
  // Outputs whose groups are several stride chains are written by the Vulkan GEMM in place (a
  // chained GemmCall::c, Backend::gemm_writes_chains) instead of through a compact temp and a
  // copy (H200, thirteenth session: str_nw_mera_open_26 3.52-3.60 -> 3.08-3.14 ms;
  // bench/RESULTS.md). TENFERRO_VK_GEMM_CHAINS=0: the temp and the copy (comparison runs and
  // the tests of that path). =2: with the 64-bit index arithmetic of groups of 2^31 elements or
  // more for every chained C (vk_gemm_chains_wide; the tests' way to reach that path).
  bool vk_gemm_chains = true;
  bool vk_gemm_chains_wide = false;
  // TENFERRO_VK_GEMM_3M: complex products in the 3-multiply form (three real products of the
  // real and imaginary parts, src/vulkan/kernels/gemm.cpp gemm_3m), opt-in because it is less
  // accurate than the default 4-multiply form: the imaginary part's error is bounded by
  // eps * sum (|Re a| + |Im a|)(|Re b| + |Im b|) instead of eps * sum |a||b|, and results that
  // are real in exact arithmetic (e.g. a vector's product with its conjugate) get a rounding-
  // sized imaginary part instead of an exact zero. 0 (default) never; 1 for large products
  // (kGemm3MMinExtent; H200: c32 4096^3 60.4 TFLOP/s vs 47.8, c64 2048^3 27.8 vs 21.3-22.1);
  // 2 for every complex product with K > 0 (the tests' way to reach it).
  std::uint32_t vk_gemm_3m = 0;
  // TENFERRO_VK_GEMM_OZAKI: f64 products by the Ozaki-II scheme on exact 8-bit residue products
  // (src/vulkan/kernels/gemm_ozaki.cpp), on devices with the tensor-core residue kernel (NVIDIA,
  // VK_NV_cooperative_matrix) and where its time model expects it to be faster (gemm_config.hpp
  // ozaki_faster: large products). docs/gemm.md.
  // 1 (the default): certified, on 14 moduli. One more 8-bit product gives a lower bound of
  // sum_k |a_mk||b_kn| per output, and where the scheme's error bound is not within K u of it
  // (u = 2^-53, the worst-case bound of an f64 dot product) for every output, the FMA kernels
  // recompute the product on the GPU (an indirect dispatch: no host round trip). The result
  // always keeps the componentwise bound |err| <= K u sum_k |a_mk||b_kn| (+ alpha / beta
  // roundings); a product that falls back costs both, and its shape then skips the scheme for
  // 16 calls (H200, twentieth session: 4096^3
  // 26.3-26.4 TFLOP/s against 22.6-22.7 on the FMA kernels, 8192^3 31.3 against 23.3; a failed
  // certificate 1.8x the FMA time). c64 products too, and f32 / c32 on 7 moduli within f32's
  // bound (twenty-fourth session; complex ones on three exact residue products per modulus).
  // 0: off (the FMA kernels).
  // n = 8 to 20: the uncertified f64 product on n moduli, whose error is normwise per row of A and
  // column of B: |err| <= 2^-P (max_k |a_mk| sum_k |b_kn| + max_k |b_kn| sum_k |a_mk|) +
  // rounding, P = floor((log2(prod of the n moduli) - 2 - ceil(log2 K)) / 2) bits (n = 14, K =
  // 4096: P = 48): entries much smaller than their row's or column's largest lose relative
  // accuracy (H200 f64 4096^3 28.6-29.0 TFLOP/s with 14 moduli, 32.7-32.8 with 12, against
  // 22.3-22.8; nineteenth session, tools/gpu_call19e.sh).
  std::uint32_t vk_gemm_ozaki = 1;
  // TENFERRO_VK_F32_VIA_F64: f32 / c32 elementwise ops and reductions computed in f64 / c64 from
  // exactly widened operands and rounded once (the "w" shader variants, docs/accuracy.md), so
  // that subnormal operands and results are kept where the driver flushes f32 subnormals and a
  // shader cannot ask it not to (NVIDIA's). 2 (default): f32 where the device is such a one
  // (DeviceCaps::flushes_f32) and has shaderFloat64, c32 not (its wide mul measured 3.6x slower
  // on the H200; the fix, complex.glsl's [[dont_flatten]], is not yet measured); 1: f32 and c32
  // on every device with shaderFloat64 (the tests' way to run them on lavapipe); 0: never.
  std::uint32_t vk_f32_via_f64 = 2;
  // TENFERRO_VK_PERMUTE_TILES=0: strided copies of rank >= 2 take the generic strided kernel
  // instead of the tiled permute kernel (comparison runs only; default on).
  bool vk_permute_tiles = true;
  // TENFERRO_VK_STRIDED_ELEMS: the most elements one invocation of the generic strided path
  // (rank <= 2 or no inner-block table) visits, keeping at least kStridedGroups workgroups
  // (src/vulkan/kernels/dispatch.cpp); 0 = the earlier rule (4 from 2^22 elements, else 1).
  // Comparison runs only.
  std::uint32_t vk_strided_elems = 16;
  // TENFERRO_VK_SPIN_US: microseconds a synchronization polls the GPU's progress before it
  // blocks in the driver (not on CPU devices such as lavapipe). Default 2000; 0 = block at once.
  std::uint32_t vk_spin_us = 2000;
  // TENFERRO_VK_PIPELINE_STATS=1: pipelines are created with the driver's statistics captured
  // (VK_KHR_pipeline_executable_properties, where the device has it) and each new pipeline's
  // statistics (e.g. register count) are printed to stderr. Tuning only.
  bool vk_pipeline_stats = false;
  // TENFERRO_EINSUM_INTERLEAVE=0: einsum runs its instructions in the planned order instead of
  // taking independent steps back to back (core/einsum/execute.cpp, interleave). Comparison
  // runs only; default on.
  bool einsum_interleave = true;
  // TENFERRO_EINSUM_UNIT_STRIDE=0: a product whose result is written through stride chains keeps
  // its free groups' orders even where the result's unit-stride label sits behind others of its
  // group (core/einsum/execute.cpp, unit_stride_first). Comparison runs only; default on.
  bool einsum_unit_stride = true;
  // TENFERRO_EINSUM_CONSUMER_ORDER: bytes from which an intermediate that its consumer could not
  // read in place is stored in the order the consumer reads in place, on a backend whose GEMM
  // writes stride chains (core/einsum/execute.cpp, consumer_order; elsewhere the packing piece
  // size, 64 MiB). Comparison runs only.
  std::uint64_t einsum_consumer_order_bytes = 1ull << 20;
  // TENFERRO_EINSUM_CONSUMER_SWAP=0: a product whose stored order comes from its consumer keeps
  // the lhs / rhs roles of its block arrangement instead of taking as lhs the operand whose free
  // block leads the stored order. Comparison runs only; default on.
  bool einsum_consumer_swap = true;
  // TENFERRO_DOT_BATCH_REPACK=0: dot_general reads an operand whose unit stride is a batch axis
  // in place even in large products with a long partner extent (core/ops/dot_general.cpp,
  // lower_dot_general). Comparison runs only; default on.
  bool dot_batch_repack = true;
  // TENFERRO_VK_EARLY_COMMANDS: commands of the first early submission after a session begins
  // or a synchronize (vk::Recorder's early threshold, doubling after each early submission).
  // Default 8 (H200, eighth session, einsum f64 in alternating calls: lm_batch_likelihood_
  // sentence_3_12d 0.586 ms vs 0.692 at 32, brackets_4_4d 0.623 vs 0.771; 4: 0.603 / 0.713).
  std::uint32_t vk_early_commands = 8;
};

const Options& options();

}  // namespace tenferro
