// The Vulkan provider's settings, read once from the environment (src/core/env.hpp). README
// lists the user settings; docs/configuration.md the tuning ones.
#pragma once
#include <cstdint>
#include <string>

namespace tenferro::vk {

struct Options {
  // ---- user settings ---------------------------------------------------------------------
  bool validation = false;        // TENFERRO_VK_VALIDATION=1: the Khronos validation layer
  std::uint64_t memory_cap = 0;   // TENFERRO_VK_MEMORY_CAP: bytes (0 = the device's budget)
  bool profile = false;           // TENFERRO_VK_PROFILE=1: every Vulkan backend profiles from
                                  // its creation and prints what is left unreported at exit
  // TENFERRO_VK_GEMM_OZAKI: f64 (and certified c64 / f32 / c32) products by the Ozaki-II scheme
  // on exact 8-bit residue products where its time model expects a gain (docs/gemm.md).
  // 1 (default): certified, within the FMA kernels' componentwise bound; 0: off; 8 to 20: f64
  // uncertified on that many moduli (normwise error bound).
  std::uint32_t gemm_ozaki = 1;
  // TENFERRO_VK_GEMM_3M: complex products in the 3-multiply form, less accurate in the imaginary
  // part (docs/gemm.md). 0 (default) never; 1 for products with M, N, K >= kGemm3MMinExtent;
  // 2 for every complex product with K > 0.
  std::uint32_t gemm_3m = 0;
  // TENFERRO_VK_F32_VIA_F64: f32 / c32 elementwise ops, reductions and scatter combiners
  // computed in f64 / c64 from exactly widened operands, so that subnormals are kept where the
  // driver flushes them (docs/accuracy.md). 2 (default): f32 where the device flushes f32
  // subnormals and has f64; 1: f32 and c32 on every device with f64; 0: never.
  std::uint32_t f32_via_f64 = 2;

  // ---- tuning (docs/configuration.md) ------------------------------------------------------
  // TENFERRO_VK_CACHE: bytes of empty device blocks kept for reuse after frees; kCacheAuto:
  // 1/8 of the memory cap, at most 8 GiB.
  static constexpr std::uint64_t kCacheAuto = ~std::uint64_t{0};
  std::uint64_t cache_bytes = kCacheAuto;
  std::uint32_t spin_us = 2000;          // TENFERRO_VK_SPIN_US: polling before a blocking wait
  std::uint32_t early_commands = 8;      // TENFERRO_VK_EARLY_COMMANDS: first early submission
  std::string gemm_tile;                 // TENFERRO_VK_GEMM_TILE: a forced gemm configuration
  bool gemm_stage = false;               // TENFERRO_VK_GEMM_STAGE=1: C stored through shared memory
  bool pipeline_stats = false;           // TENFERRO_VK_PIPELINE_STATS=1: print pipeline statistics
};

const Options& options();

/// Settings that only tests change (never read from the environment). Not synchronized: set
/// them before the work they affect, from one thread.
struct TestHooks {
  /// Every chained GEMM output with the 64-bit index arithmetic otherwise taken only by groups
  /// of 2^31 elements or more.
  bool gemm_chains_wide = false;
  /// Every kernel with an `_idx64` variant (elementwise, fill, copy, cast, reduce, gather,
  /// scatter, tril / triu) takes it, as for operands that reach 2^31 elements; elementwise-style
  /// dispatches then also skip their contiguous 32-bit variants and the tiled permutation.
  bool force_idx64 = false;
  /// Simulated device loss: the next checked Vulkan call (TENFERRO_VK_CHECK) whose call text
  /// contains this string ("vkQueueSubmit", "vkWaitSemaphores", "vkAllocateMemory", ...) is not
  /// made and fails with VK_ERROR_DEVICE_LOST; the hook then resets itself to nullptr.
  const char* lose_device_at = nullptr;
  /// Tensors allocated from now on are treated as device memory the host cannot map (as on a
  /// discrete GPU without a BAR), also where the memory is host-visible (lavapipe, integrated
  /// GPUs): their placement says MemoryKind::Device, host_data() is nullptr, and uploads and
  /// downloads go through staging buffers.
  bool unmapped_tensors = false;
};
TestHooks& test_hooks();

}  // namespace tenferro::vk
