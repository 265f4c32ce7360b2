// GPU timestamp profiler (opt-in): a timestamp query before and after every recorded command,
// tagged with the kernel family that recorded it; results are read back once the command
// buffer's batch has completed and accumulated per family (ProfileReport in
// include/tenferro/backend/backend.hpp).
//
// Both timestamps of a command are written at VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, i.e. once
// every earlier command of the queue has completed: begin..end covers exactly this command
// (plus its barrier wait), and the gap from one command's end to the next one's begin is time
// the GPU had nothing to run (host recording, submission, synchronization).
//
// Thread safety: none; the Recorder (under VulkanBackend's device mutex) drives it.
#pragma once
#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <vector>

#include "tenferro/backend/backend.hpp"
#include "vulkan/runtime/device.hpp"
#include "vulkan/runtime/vk_check.hpp"

namespace tenferro::vk {

/// What a recorded command is, for the profiler. Set by VulkanBackend's entry points (a
/// FamilyScope) and refined by record_dispatch (copy vs permute).
enum class KernelFamily : std::uint8_t {
  gemm, copy, permute, elementwise, reduce, cast, indexing, triangular, fill, transfer, other
};
inline constexpr int kKernelFamilies = 11;
const char* family_name(KernelFamily f);

/// The timestamp queries of one command buffer: pairs (begin, end) in pools of kPairsPerPool.
struct CommandQueries {
  std::vector<Unique<VkQueryPool>> pools;
  std::vector<KernelFamily> families;  // one per pair written
  bool open = false;                   // the last pair's end stamp is not written yet
};

class Profiler {
 public:
  static constexpr std::uint32_t kPairsPerPool = 256;

  explicit Profiler(const Device& device);
  /// True when the compute queue has timestamps (timestampValidBits > 0, timestampPeriod > 0).
  bool supported() const { return valid_bits_ > 0 && period_ns_ > 0; }
  bool enabled() const { return enabled_; }
  /// Clears the totals and starts timestamping (no-op without support).
  void start();
  void stop() { enabled_ = false; }

  /// Writes the begin stamp of a new command of family `f` into `cmd` (the caller closes the
  /// previous one first with end()).
  void begin(VkCommandBuffer cmd, CommandQueries& q, KernelFamily f);
  /// Writes the end stamp of the open command, if any.
  void end(VkCommandBuffer cmd, CommandQueries& q);
  /// Reads the results of a command buffer whose batch has completed into the totals and
  /// forgets its pairs. @pre the batch that recorded them has completed.
  void harvest(CommandQueries& q);
  void count_batch() {
    if (enabled_) ++batches_;
  }
  ProfileReport report() const;

 private:
  const Device& device_;
  std::uint64_t mask_ = 0;  // timestampValidBits mask
  std::uint32_t valid_bits_ = 0;
  double period_ns_ = 0;
  bool enabled_ = false;
  std::array<std::uint64_t, kKernelFamilies> count_{};
  std::array<std::uint64_t, kKernelFamilies> ticks_{};
  std::uint64_t first_ = ~std::uint64_t{0}, last_ = 0, batches_ = 0;
  struct Stamp {
    std::uint64_t begin, ticks;
    KernelFamily family;
  };
  std::vector<Stamp> trace_;  // every dispatch (up to ProfileReport::kMaxTrace), sorted in report()
};

}  // namespace tenferro::vk
