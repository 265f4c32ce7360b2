// Recorder: appends dispatches and copies to the open command buffer, inserts barriers where
// HazardTracker finds RAW/WAR/WAW overlaps, and submits batches signalling one timeline
// semaphore (value n for the n-th batch). Each batch waits for the previous one on the device,
// so ordering across batches needs no tracking (STYLE.md B6.3).
//
// Batching: a batch is submitted at kMaxCommands commands or kMaxBytes bytes, and earlier when
// the GPU has finished everything submitted and the batch holds early() commands or more
// (asked every kIdleCheck commands), so that a
// long chain of small ops starts the GPU after Options::early_commands ops (default 8)
// instead of kMaxCommands. The early threshold doubles with each batch submitted at it (8, 16,
// 32, ... up to kMaxCommands) and is reset by reset_batching() (the backend calls it at session
// begin/end and synchronize), so a session pays at most a few extra submissions.
//
// Profiling (profiler.hpp): while enabled, every record() call gets a begin/end timestamp pair
// tagged with family() (set by the caller, e.g. through FamilyScope).
//
// Capture: between begin_capture() and end_capture(), record() appends to a command buffer of
// its own that is never submitted as a batch (submit() raises runtime_state); end_capture()
// hands it over, and submit_captured() runs it again and again, each time as one batch (after
// the open batch's commands, in the same submission) with no recording on the host.
//
// Thread safety: none; VulkanBackend serializes every call with its device mutex, except
// wait()/completed(), which only touch the semaphore and may run unlocked.
#pragma once
#include <vulkan/vulkan.h>

#include <cstdint>
#include <deque>
#include <span>

#include "vulkan/runtime/device.hpp"
#include "vulkan/runtime/hazards.hpp"
#include "vulkan/runtime/profiler.hpp"
#include "vulkan/runtime/vk_check.hpp"

namespace tenferro::vk {

class Recorder {
 public:
  /// Submit when this many commands or bytes are recorded (checked by should_flush()).
  static constexpr std::uint32_t kMaxCommands = 256;
  static constexpr std::uint64_t kMaxBytes = 512ull << 20;
  /// From early() commands on, should_flush() asks the GPU every kIdleCheck commands.
  static constexpr std::uint32_t kIdleCheck = 8;

  explicit Recorder(const Device& device);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  /// The open command buffer (begun on demand), after a barrier when the access conflicts
  /// with pending ones. `bytes` feeds the flush heuristic. `transfer`: the caller records a
  /// transfer command (vkCmdCopyBuffer), else a dispatch. A barrier waits for the transfer
  /// stage only when a transfer was recorded since the previous barrier (a chain of dispatches
  /// waits for compute work alone); it always makes the writes visible to both stages.
  /// `indirect`: the dispatch reads its arguments from a buffer in `reads`
  /// (vkCmdDispatchIndirect): a barrier then also makes them visible to the indirect stage.
  VkCommandBuffer record(std::span<const ByteRange> reads, std::span<const ByteRange> writes,
                         std::uint64_t bytes, bool transfer = false, bool indirect = false);
  /// Binds compute pipeline `p` on `cmd` (the buffer record() returned) unless it is the one
  /// bound last in this batch (push constants stay valid across binds: one pipeline layout).
  void bind(VkCommandBuffer cmd, VkPipeline p) {
    if (p == bound_) return;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p);
    bound_ = p;
  }
  /// The timeline value the open (or next) batch signals when it completes.
  std::uint64_t open_value() const { return submitted_ + 1; }
  std::uint64_t submitted_value() const { return submitted_; }
  bool has_open() const { return open_ != nullptr; }
  /// True when the open batch should be submitted now (limits reached, or the GPU is idle and
  /// the batch holds early() commands).
  bool should_flush() const;
  std::uint32_t early() const { return early_; }
  void reset_batching() { early_ = early_start_; }
  /// Submits the open batch, if any. @post submitted_value() covers all recorded work. When
  /// ending or submitting the batch fails, the batch is dropped and the error raised.
  void submit();
  /// Blocks until the timeline reaches `value` (polls the counter for up to
  /// Options::spin_us first, except on CPU devices). Throws device_lost on a lost device, also
  /// when the driver ends the wait with VK_SUCCESS before the counter reached `value`.
  void wait(std::uint64_t value) const;
  std::uint64_t completed() const;
  std::uint64_t barriers() const { return barriers_; }

  /// Starts recording a reusable command buffer. Submits the open batch first. @pre not
  /// capturing, not profiling.
  void begin_capture();
  bool capturing() const { return capturing_; }
  /// Ends the capture and returns its command buffer (the caller frees it with
  /// free_captured() once no submission of it is pending). abort_capture() drops it.
  VkCommandBuffer end_capture();
  void abort_capture() noexcept;
  /// Submits the open batch's commands, if any, then `captured`, as one batch; returns its
  /// timeline value. `captured` may still be pending from an earlier submission.
  std::uint64_t submit_captured(VkCommandBuffer captured);
  void free_captured(VkCommandBuffer captured) noexcept;

  /// Family tag of the calling thread's next record() calls (profiling only; thread-local, so
  /// entry points may set it without the device mutex).
  static KernelFamily family();
  static void set_family(KernelFamily f);
  /// Starts profiling (clears totals); false when the device has no timestamps.
  bool profile_start();
  /// Stops profiling and returns the totals. @pre everything submitted has completed and no
  /// batch is open (the caller submits and waits first).
  ProfileReport profile_stop();
  bool profiling() const { return profiler_.enabled(); }

 private:
  struct Slot {
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    std::uint64_t value = 0;  // batch value it was last submitted with
    CommandQueries queries;   // timestamp pairs written by the batch (profiling)
  };
  const Device& device_;
  std::uint32_t spin_us_ = 0;  // Options::spin_us, 0 on CPU devices (see wait())
  Unique<VkCommandPool> pool_;
  Unique<VkSemaphore> timeline_;
  std::deque<Slot> slots_;  // deque: open_ stays valid on growth
  Slot* open_ = nullptr;
  VkPipeline bound_ = VK_NULL_HANDLE;  // last pipeline bound in the open batch
  bool transfer_pending_ = false;      // a transfer recorded since the last barrier
  HazardTracker hazards_;
  Profiler profiler_;
  /// Ends the open batch and submits it, followed by `extra` when given, as batch
  /// submitted_ + 1.
  void submit_batch(VkCommandBuffer extra);

  Slot capture_;            // the command buffer being captured (open_ points to it meanwhile)
  bool capturing_ = false;
  std::uint64_t submitted_ = 0;
  std::uint32_t commands_ = 0;
  std::uint32_t early_start_ = 0;  // Options::early_commands
  std::uint32_t early_ = 0;
  std::uint64_t bytes_ = 0, barriers_ = 0;
};

/// Sets the calling thread's family tag for a scope and restores the previous one.
class FamilyScope {
 public:
  explicit FamilyScope(KernelFamily f) : prev_(Recorder::family()) { Recorder::set_family(f); }
  ~FamilyScope() { Recorder::set_family(prev_); }
  FamilyScope(const FamilyScope&) = delete;
  FamilyScope& operator=(const FamilyScope&) = delete;

 private:
  KernelFamily prev_;
};

}  // namespace tenferro::vk
