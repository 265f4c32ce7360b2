// Recorder: appends dispatches and copies to the open command buffer, inserts barriers where
// HazardTracker finds RAW/WAR/WAW overlaps, and submits batches signalling one timeline
// semaphore (value n for the n-th batch). Each batch waits for the previous one on the device,
// so ordering across batches needs no tracking (STYLE.md B6.3).
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
#include "vulkan/runtime/vk_check.hpp"

namespace tenferro::vk {

class Recorder {
 public:
  /// Submit when this many commands or bytes are recorded (checked by should_flush()).
  static constexpr std::uint32_t kMaxCommands = 256;
  static constexpr std::uint64_t kMaxBytes = 512ull << 20;

  explicit Recorder(const Device& device);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  /// The open command buffer (begun on demand), after a barrier when the access conflicts
  /// with pending ones. `bytes` feeds the flush heuristic.
  VkCommandBuffer record(std::span<const ByteRange> reads, std::span<const ByteRange> writes,
                         std::uint64_t bytes);
  /// The timeline value the open (or next) batch signals when it completes.
  std::uint64_t open_value() const { return submitted_ + 1; }
  std::uint64_t submitted_value() const { return submitted_; }
  bool has_open() const { return open_ != nullptr; }
  bool should_flush() const { return commands_ >= kMaxCommands || bytes_ >= kMaxBytes; }
  /// Submits the open batch, if any. @post submitted_value() covers all recorded work.
  void submit();
  /// Blocks until the timeline reaches `value`. Throws device_lost on a lost device.
  void wait(std::uint64_t value) const;
  std::uint64_t completed() const;
  std::uint64_t barriers() const { return barriers_; }

 private:
  struct Slot {
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    std::uint64_t value = 0;  // batch value it was last submitted with
  };
  const Device& device_;
  Unique<VkCommandPool> pool_;
  Unique<VkSemaphore> timeline_;
  std::deque<Slot> slots_;  // deque: open_ stays valid on growth
  Slot* open_ = nullptr;
  HazardTracker hazards_;
  std::uint64_t submitted_ = 0;
  std::uint32_t commands_ = 0;
  std::uint64_t bytes_ = 0, barriers_ = 0;
};

}  // namespace tenferro::vk
