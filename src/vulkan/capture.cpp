// Recorded work (Backend::capture): the Vulkan backend records a body's dispatches into a
// command buffer of their own (Recorder::begin_capture) and queues it again per replay.
//
// Memory: while the capture is open, device_local allocations come from the memory the capture
// itself freed (best fit) or are new, and are the capture's own; parameter blocks go into
// arenas of the capture. Intermediates freed inside the body therefore share memory exactly as
// they would in a direct run (the hazard tracker puts the same barriers before reuse), and no
// byte the recorded work touches is handed to anything else until the work is destroyed: then
// its memory, its inputs and outputs and its command buffer are released once the last replay
// has completed (stream-ordered, no wait).
#include <algorithm>
#include <cstring>
#include <unordered_set>

#include "core/check.hpp"
#include "vulkan/backend.hpp"

namespace tenferro::vk {

namespace {

class VkRecordedWork final : public RecordedWork {
 public:
  VkRecordedWork(VulkanBackend& be, VkCommandBuffer cmd, std::vector<Allocation> memory, std::vector<Tensor> inputs,
                 std::vector<Tensor> outputs)
      : be_(be), cmd_(cmd), memory_(std::move(memory)), inputs_(std::move(inputs)), outputs_(std::move(outputs)) {}

  ~VkRecordedWork() override {
    auto guard = be_.lock();
    for (const Allocation& a : memory_) be_.release_after(a, last_);
    be_.release_captured_after(cmd_, last_);
    // Inputs and outputs go with their storages, whose last_use covers the last replay.
    inputs_.clear();
    outputs_.clear();
  }

  void replay() override {
    be_.check_usable("replay");
    be_.guarded("replay", [&] {
      auto guard = be_.lock();
      TENFERRO_CHECK(!be_.recorder().capturing(), runtime_state, "replay", "",
                     "recorded work cannot be replayed inside a capture");
      last_ = be_.recorder().submit_captured(cmd_);
      for (const auto* list : {&inputs_, &outputs_})
        for (const Tensor& t : *list)
          if (t.storage()) VulkanBackend::storage_of(t).last_use = last_;
      be_.after_op();
    });
  }

  std::span<const Tensor> outputs() const override { return outputs_; }

 private:
  VulkanBackend& be_;
  VkCommandBuffer cmd_;
  std::vector<Allocation> memory_;  // intermediates' memory and parameter blocks
  std::vector<Tensor> inputs_, outputs_;
  std::uint64_t last_ = 0;  // the timeline value of the last replay (0: none)
};

}  // namespace

Allocation VulkanBackend::capture_allocate(std::uint64_t bytes, MemoryIntent intent) {
  TENFERRO_CHECK(intent == MemoryIntent::device_local || intent == MemoryIntent::params, runtime_state, "record", "",
                 "transfers between host and device cannot be recorded into reusable work");
  if (intent == MemoryIntent::params) return allocator_->allocate(bytes, intent);
  Capture& c = *capture_;
  auto best = c.freed.end();
  for (auto it = c.freed.begin(); it != c.freed.end(); ++it)
    if (it->size >= bytes && (best == c.freed.end() || it->size < best->size)) best = it;
  if (best != c.freed.end()) {
    const Allocation a = *best;
    c.freed.erase(best);
    return a;
  }
  // No draining retry on out_of_memory: the capture may not wait for the device.
  const Allocation a = allocator_->allocate(bytes, intent);
  c.made.push_back(a.address);
  return a;
}

std::uint64_t VulkanBackend::capture_params(std::span<const std::int64_t> words) {
  const std::uint64_t bytes = params_bytes(words);
  Capture& c = *capture_;
  if (c.arenas.empty() || c.arena_used + bytes > kArenaBytes) {
    c.arenas.push_back(allocator_->allocate(kArenaBytes, MemoryIntent::params));
    c.arena_used = 0;
  }
  const Allocation& arena = c.arenas.back();
  std::memcpy(arena.mapped + c.arena_used, words.data(), words.size_bytes());
  const std::uint64_t addr = arena.address + c.arena_used;
  c.arena_used += bytes;
  return addr;
}

void VulkanBackend::release_captured_after(VkCommandBuffer cmd, std::uint64_t value) {
  if (lost()) return;  // work submitted before the loss may still hold it
  if (value == 0 || value <= recorder_->completed())
    recorder_->free_captured(cmd);
  else
    deferred_cmds_.emplace_back(value, cmd);
}

std::unique_ptr<RecordedWork> VulkanBackend::capture(std::span<const Tensor> inputs,
                                                     const std::function<std::vector<Tensor>()>& body) {
  check_usable("record");
  for (const Tensor& t : inputs) detail::check_resident(*this, t, "record", "inputs");
  // The device lock is held for the whole body: no other thread's work lands in the capture.
  auto guard = lock();
  if (recorder_->profiling()) return nullptr;  // profiled work runs kernel by kernel
  TENFERRO_CHECK(!capture_, runtime_state, "record", "", "a capture is already open on this device");
  guarded("record", [&] { recorder_->begin_capture(); });
  capture_ = std::make_unique<Capture>();
  // Memory of the capture, given back when the body fails (no GPU work ever used it).
  auto drop_capture = [&] {
    recorder_->abort_capture();
    for (const Allocation& a : capture_->freed) allocator_->free(a);
    for (const Allocation& a : capture_->arenas) allocator_->free(a);
    capture_.reset();
  };
  std::vector<Tensor> outputs;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  try {
    outputs = body();
    std::unordered_set<std::uint64_t> held;  // the capture's allocations the outputs hold
    for (const Tensor& t : outputs) {
      detail::check_resident(*this, t, "record", "outputs");
      const Allocation& a = storage_of(t).allocation();
      if (a && std::find(capture_->made.begin(), capture_->made.end(), a.address) != capture_->made.end())
        held.insert(a.address);
    }
    TENFERRO_CHECK(capture_->freed.size() + held.size() == capture_->made.size(), runtime_state, "record", "body",
                   "tensors made by the recorded work outlive it without being returned");
    cmd = guarded("record", [&] { return recorder_->end_capture(); });
  } catch (...) {
    // The outputs, when dropped, free their memory stream-ordered: nothing of theirs ran.
    drop_capture();
    throw;
  }
  std::vector<Allocation> memory = std::move(capture_->freed);
  memory.insert(memory.end(), capture_->arenas.begin(), capture_->arenas.end());
  capture_.reset();
  return std::make_unique<VkRecordedWork>(*this, cmd, std::move(memory),
                                          std::vector<Tensor>(inputs.begin(), inputs.end()), std::move(outputs));
}

}  // namespace tenferro::vk
