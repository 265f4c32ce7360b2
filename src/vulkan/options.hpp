// The Vulkan provider's settings, read from the environment (src/core/env.hpp) by the first
// options() call that succeeds: every variable is parsed there, and a value outside its
// accepted forms raises Error{invalid_argument} naming it (docs/configuration.md lists the
// forms); the first call is a Vulkan backend's creation, so an invalid value fails it before
// any device work, and every later creation raises the same error. README lists the user
// settings; docs/configuration.md all of them.
#pragma once
#include <cstdint>
#include <string>

namespace tenferro::vk {

struct Options {
  // ---- user settings ---------------------------------------------------------------------
  bool validation = false;        // TENFERRO_VK_VALIDATION (boolean): the Khronos validation layer
  std::uint64_t memory_cap = 0;   // TENFERRO_VK_MEMORY_CAP: a byte size (0 = the device's budget)
  bool profile = false;           // TENFERRO_VK_PROFILE (boolean): every Vulkan backend profiles from
                                  // its creation and prints what is left unreported at exit
  // The accuracy choices (TENFERRO_VK_GEMM_OZAKI, _GEMM_3M, _F32_VIA_F64) are the process
  // defaults of tenferro::AccuracyOptions (tenferro/options.hpp, read by default_accuracy()),
  // held per backend (VulkanBackend::accuracy()).

  // ---- tuning (docs/configuration.md) ------------------------------------------------------
  // TENFERRO_VK_CACHE: bytes of empty device blocks kept for reuse after frees; kCacheAuto:
  // 1/8 of the memory cap, at most 8 GiB.
  static constexpr std::uint64_t kCacheAuto = ~std::uint64_t{0};
  std::uint64_t cache_bytes = kCacheAuto;
  std::uint32_t spin_us = 2000;          // TENFERRO_VK_SPIN_US: polling before a blocking wait
  std::uint32_t early_commands = 8;      // TENFERRO_VK_EARLY_COMMANDS: first early submission
  std::string gemm_tile;                 // TENFERRO_VK_GEMM_TILE: a forced gemm configuration
  bool gemm_stage = false;               // TENFERRO_VK_GEMM_STAGE (boolean): C stored through shared memory
  bool pipeline_stats = false;           // TENFERRO_VK_PIPELINE_STATS (boolean): print pipeline statistics
  std::string kernel_cache;              // TENFERRO_VK_KERNEL_CACHE: the generated kernels' disk cache
                                         // folder, "off", or "" (the user's cache folder)
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
  /// The run-time compiler keeps no results in memory (runtime/compiler.hpp): a backend
  /// created later finds its generated kernels in the disk cache, as another process would.
  bool compiler_memory_off = false;
};
TestHooks& test_hooks();

}  // namespace tenferro::vk
