// Device memory sub-allocator (STYLE.md B6.2). Large VkDeviceMemory blocks, each bound to one
// VkBuffer with a buffer device address; allocations are (block, offset, size) ranges with
// first-fit free lists that coalesce on free. Empty blocks are kept up to a cache limit.
//
// The memory cap (TENFERRO_VK_MEMORY_CAP) bounds the blocks of MemoryIntent::device_local: the
// memory of tensors and kernel scratch, which is what MemoryUsage reports, plus the free space
// inside those blocks. A tensor block is shrunk to fit under the cap, so tensors can use all of
// it (less the free-list fragmentation of first fit). The host-written intents are outside the
// cap, in blocks of their own: the error word and parameter blocks (one 64 KiB arena per batch
// in flight) share kSmallBlockSize blocks, and staging is sized to the transfers in flight and
// freed when each completes. Empty blocks of either kind are kept within the cache limit.
// Splits and merges reuse the free list's map nodes (one spare per block), so the steady
// allocate/free of an op chain makes no heap allocation here.
//
// Thread safety: none. The owner (VulkanBackend) serializes every call with its device mutex.
#pragma once
#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "vulkan/runtime/device.hpp"
#include "vulkan/runtime/vk_check.hpp"

namespace tenferro::vk {

/// What the memory is for. device_local: tensors; upload: host-written staging; readback:
/// host-read staging and the error word; params: small host-written blocks that kernels read
/// (layout words, gemm extents): device-local host-visible memory when the device has it (the
/// BAR of a discrete GPU), so that every workgroup's reads of them stay in device memory
/// instead of crossing PCIe; else as upload.
enum class MemoryIntent : std::uint8_t { device_local, upload, readback, params };

struct MemoryStats {
  std::uint64_t bytes_in_use = 0;    // sum of live allocation sizes (after alignment)
  std::uint64_t bytes_reserved = 0;  // sum of block sizes (VkDeviceMemory held)
  std::uint64_t tensor_bytes_reserved = 0;  // the device_local blocks' part: what the cap bounds
  std::uint64_t bytes_cached = 0;    // bytes of empty blocks kept for reuse
  std::uint64_t blocks = 0;
  std::uint64_t live_allocations = 0;
  std::uint64_t tensor_bytes_in_use = 0;  // the device_local part of bytes_in_use (tensors, scratch)
  std::uint64_t tensor_bytes_peak = 0;    // max of tensor_bytes_in_use since reset_peak()
};

struct Block;

/// One sub-allocation. Trivially copyable token; freed with Allocator::free exactly once.
struct Allocation {
  Block* block = nullptr;
  VkBuffer buffer = VK_NULL_HANDLE;  // the block's buffer; this allocation is [offset, +size)
  VkDeviceSize offset = 0, size = 0;
  std::uint64_t address = 0;         // device address of byte 0 of this allocation
  std::byte* mapped = nullptr;       // host address of byte 0, or nullptr (not host-visible)
  MemoryIntent intent = MemoryIntent::device_local;
  /// Stream-ordered reuse: queued GPU work (up to this timeline value) may still use these bytes
  /// for what was freed there; GPU work recorded now is ordered after it, the host must wait for
  /// it before touching `mapped`. 0: nothing pending.
  std::uint64_t reuse_after = 0;
  explicit operator bool() const { return block != nullptr; }
};

class Allocator {
 public:
  static constexpr VkDeviceSize kBlockSize = 64ull << 20;
  /// Host-written requests up to kSmallRequest share blocks of this size (the error word and
  /// parameter arenas would otherwise each hold a kBlockSize block).
  static constexpr VkDeviceSize kSmallBlockSize = 1ull << 20;
  static constexpr VkDeviceSize kSmallRequest = 256ull << 10;
  static constexpr VkDeviceSize kAlignment = 256;

  /// `cap`: max bytes of device_local blocks (0 = the largest device-local heap); `cache`: max
  /// bytes of empty blocks kept after frees.
  /// kCacheAuto: 1/8 of the cap, at most 8 GiB.
  static constexpr std::uint64_t kCacheAuto = ~std::uint64_t{0};
  Allocator(const Device& device, std::uint64_t cap, std::uint64_t cache);
  ~Allocator();
  Allocator(const Allocator&) = delete;
  Allocator& operator=(const Allocator&) = delete;

  /// @pre size > 0. Throws Error{out_of_memory} when the cap (device_local only) or the
  /// driver refuses; the allocator is unchanged then, except for cached empty blocks given back
  /// to make room. @post result.address is kAlignment-aligned.
  Allocation allocate(VkDeviceSize size, MemoryIntent intent);
  /// Returns the range to its block's free list; an emptied block is cached or released.
  /// `busy_until`: the timeline value until which queued GPU work may still use the range
  /// (stream-ordered reuse: later work on the one queue is ordered after it, and the hazard
  /// tracker puts a barrier before any reuse of the bytes); the block's memory is not given
  /// back to the driver before that value completes.
  void free(const Allocation& a, std::uint64_t busy_until = 0);
  /// The timeline value known complete; idle empty blocks beyond the cache or the cap go back.
  void set_completed(std::uint64_t value);
  /// Releases every empty block whose work has completed.
  void trim();
  void set_limits(std::uint64_t cap, std::uint64_t cache);
  std::uint64_t cap() const { return cap_; }
  std::uint64_t cache_limit() const { return cache_; }
  MemoryStats stats() const;
  /// Starts a new peak window: tensor_bytes_peak = tensor_bytes_in_use.
  void reset_peak() { tensor_peak_ = tensor_in_use_; }
  /// True when `intent` memory is host-mapped (device-local + host-visible: zero-copy tensors).
  bool host_visible(MemoryIntent intent) const;

 private:
  std::uint32_t type_for(MemoryIntent intent) const;
  Block* new_block(VkDeviceSize size, std::uint32_t type, bool tensors);
  void release_block(Block* b);
  /// Releases idle empty blocks: tensor blocks while their total exceeds the cap, then the
  /// largest while the empty ones exceed the cache limit.
  void enforce_limits();

  const Device& device_;
  std::uint64_t cap_, cache_;
  std::uint32_t types_[4];
  std::vector<std::unique_ptr<Block>> blocks_;
  std::uint64_t in_use_ = 0, reserved_ = 0, live_ = 0;
  std::uint64_t tensor_reserved_ = 0;  // bytes of blocks with Block::tensors: what the cap bounds
  std::uint64_t tensor_in_use_ = 0, tensor_peak_ = 0;  // MemoryIntent::device_local only
  std::uint64_t completed_ = 0;
  bool releasable(const Block& b) const;
};

/// A memory block: one VkDeviceMemory, one buffer over all of it, a free list of ranges.
struct Block {
  Unique<VkDeviceMemory> memory;
  Unique<VkBuffer> buffer;
  VkDeviceSize size = 0;
  std::uint32_t type = 0;
  std::uint64_t address = 0;
  std::byte* mapped = nullptr;
  using Ranges = std::map<VkDeviceSize, VkDeviceSize>;
  Ranges free_ranges;  // offset -> size, non-adjacent
  Ranges::node_type spare;  // a map node kept from an erase for the next new range (no allocation)
  VkDeviceSize used = 0;
  std::uint64_t busy_until = 0;  // queued GPU work may use freed ranges until this value
  // Serves device_local allocations (tensors, freed stream-ordered) or the host-written intents
  // (staging, parameter blocks), never both: the host writes the latter at once, which must not
  // land on bytes that queued GPU work still uses (one memory type may serve all intents, as on
  // lavapipe).
  bool tensors = true;
};

}  // namespace tenferro::vk
