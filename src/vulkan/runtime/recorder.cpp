#include "vulkan/runtime/recorder.hpp"

#include <chrono>
#include <limits>
#include <utility>

#include "vulkan/options.hpp"

namespace tenferro::vk {

namespace {
thread_local KernelFamily t_family = KernelFamily::other;

// Compute writes (and transfer writes when `transfer`) made visible to `dst_stage`.
void memory_barrier(VkCommandBuffer cmd, bool transfer, VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
  auto b = vk_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  b.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  if (transfer) b.srcAccessMask |= VK_ACCESS_TRANSFER_WRITE_BIT;
  b.dstAccessMask = dst_access;
  VkPipelineStageFlags src_stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
  if (transfer) src_stage |= VK_PIPELINE_STAGE_TRANSFER_BIT;
  vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &b, 0, nullptr, 0, nullptr);
}
}  // namespace

Recorder::Recorder(const Device& device)
    : device_(device),
      // CPU devices (lavapipe) execute on host threads: spinning would only steal their cores.
      spin_us_(device.caps().device_type == VK_PHYSICAL_DEVICE_TYPE_CPU ? 0 : options().spin_us),
      profiler_(device),
      early_start_(options().early_commands),
      early_(early_start_) {
  const VkDevice dev = device.get();
  auto pi = vk_struct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pi.queueFamilyIndex = device.queue_family();
  VkCommandPool pool = VK_NULL_HANDLE;
  TENFERRO_VK_CHECK(vkCreateCommandPool(dev, &pi, nullptr, &pool));
  pool_ = Unique<VkCommandPool>(dev, pool, vkDestroyCommandPool);
  auto ti = vk_struct<VkSemaphoreTypeCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
  ti.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  ti.initialValue = 0;
  auto si = vk_struct<VkSemaphoreCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
  si.pNext = &ti;
  VkSemaphore sem = VK_NULL_HANDLE;
  TENFERRO_VK_CHECK(vkCreateSemaphore(dev, &si, nullptr, &sem));
  timeline_ = Unique<VkSemaphore>(dev, sem, vkDestroySemaphore);
}

Recorder::~Recorder() {
  // Work must not outlive the pool: wait for everything submitted (an open batch is dropped).
  if (submitted_ > 0) {
    try {
      wait(submitted_);
    } catch (...) {  // device lost: nothing left to wait for
    }
  }
}

VkCommandBuffer Recorder::record(std::span<const ByteRange> reads, std::span<const ByteRange> writes,
                                 std::uint64_t bytes, bool transfer, bool indirect) {
  if (!open_) {
    const std::uint64_t done = completed();
    for (Slot& s : slots_)
      if (s.value <= done) {
        open_ = &s;
        break;
      }
    if (open_ && !open_->queries.families.empty()) profiler_.harvest(open_->queries);
    if (!open_) {
      auto ai = vk_struct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
      ai.commandPool = pool_.get();
      ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      ai.commandBufferCount = 1;
      Slot s;
      TENFERRO_VK_CHECK(vkAllocateCommandBuffers(device_.get(), &ai, &s.cmd));
      slots_.push_back(std::move(s));
      open_ = &slots_.back();
    }
    TENFERRO_VK_CHECK(vkResetCommandBuffer(open_->cmd, 0));
    auto bi = vk_struct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    TENFERRO_VK_CHECK(vkBeginCommandBuffer(open_->cmd, &bi));
    bound_ = VK_NULL_HANDLE;
    transfer_pending_ = false;
    hazards_.clear();
    commands_ = 0;
    bytes_ = 0;
  }
  const bool profiled = profiler_.enabled();
  profiler_.end(open_->cmd, open_->queries);  // closes the previous command's pair, if any
  if (hazards_.access(reads, writes)) {
    // Earlier transfers were ordered before every later stage by the barrier that followed
    // them, so only transfers since the last barrier put the transfer stage in the source.
    VkPipelineStageFlags stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    VkAccessFlags access = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                           VK_ACCESS_TRANSFER_WRITE_BIT;
    if (indirect) {
      stages |= VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT;
      access |= VK_ACCESS_INDIRECT_COMMAND_READ_BIT;
    }
    memory_barrier(open_->cmd, transfer_pending_, stages, access);
    transfer_pending_ = false;
    ++barriers_;
  }
  transfer_pending_ = transfer_pending_ || transfer;
  if (profiled) profiler_.begin(open_->cmd, open_->queries, t_family);
  ++commands_;
  bytes_ += bytes;
  return open_->cmd;
}

KernelFamily Recorder::family() { return t_family; }
void Recorder::set_family(KernelFamily f) { t_family = f; }

bool Recorder::should_flush() const {
  if (capturing_) return false;
  if (commands_ >= kMaxCommands || bytes_ >= kMaxBytes) return true;
  // Early submission once the batch holds early() commands and the GPU has finished what was
  // submitted: checked every kIdleCheck commands from then on (one semaphore query each), so a
  // GPU that finishes while the batch fills up is fed again within kIdleCheck commands instead
  // of idling until kMaxCommands or the session end (H200, str_nw_mera_closed_120: 0.6 ms of
  // its 6.4 idle).
  return commands_ >= early_ && (commands_ - early_) % kIdleCheck == 0 && completed() >= submitted_;
}

bool Recorder::profile_start() {
  profiler_.start();
  return profiler_.enabled();
}

ProfileReport Recorder::profile_stop() {
  TENFERRO_ASSERT(!open_);
  for (Slot& s : slots_)
    if (!s.queries.families.empty()) profiler_.harvest(s.queries);
  profiler_.stop();
  return profiler_.report();
}

void Recorder::submit() {
  TENFERRO_CHECK(!capturing_, runtime_state, "record", "",
                 "work that waits for the GPU or reaches host memory (a synchronization, a transfer, "
                 "a host mapping) cannot be recorded into a reusable program");
  if (open_) submit_batch(VK_NULL_HANDLE);
}

std::uint64_t Recorder::submit_captured(VkCommandBuffer captured) {
  TENFERRO_ASSERT(!capturing_);
  submit_batch(captured);
  return submitted_;
}

void Recorder::begin_capture() {
  TENFERRO_ASSERT(!capturing_ && !profiler_.enabled());
  submit();
  auto ai = vk_struct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  ai.commandPool = pool_.get();
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  capture_ = Slot{};
  TENFERRO_VK_CHECK(vkAllocateCommandBuffers(device_.get(), &ai, &capture_.cmd));
  auto bi = vk_struct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  bi.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT;  // a replay may be queued behind another
  if (const VkResult r = vkBeginCommandBuffer(capture_.cmd, &bi); r != VK_SUCCESS) {
    free_captured(std::exchange(capture_.cmd, VK_NULL_HANDLE));
    check_result(r, "vkBeginCommandBuffer", __FILE__, __LINE__);
  }
  // The open batch's commands precede the captured ones in the same submission
  // (submit_captured): make their writes visible to everything recorded here.
  memory_barrier(capture_.cmd, true, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                     VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_INDIRECT_COMMAND_READ_BIT);
  open_ = &capture_;
  capturing_ = true;
  bound_ = VK_NULL_HANDLE;
  transfer_pending_ = false;
  hazards_.clear();
  commands_ = 0;
  bytes_ = 0;
}

VkCommandBuffer Recorder::end_capture() {
  TENFERRO_ASSERT(capturing_);
  // As at the end of a batch: device writes visible to the host (the error word).
  memory_barrier(capture_.cmd, true, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  const VkCommandBuffer cmd = std::exchange(capture_.cmd, VK_NULL_HANDLE);
  open_ = nullptr;
  capturing_ = false;
  hazards_.clear();
  if (const VkResult r = vkEndCommandBuffer(cmd); r != VK_SUCCESS) {
    free_captured(cmd);
    check_result(r, "vkEndCommandBuffer", __FILE__, __LINE__);
  }
  return cmd;
}

void Recorder::abort_capture() noexcept {
  if (!capturing_) return;
  free_captured(std::exchange(capture_.cmd, VK_NULL_HANDLE));
  open_ = nullptr;
  capturing_ = false;
  hazards_.clear();
}

void Recorder::free_captured(VkCommandBuffer captured) noexcept {
  if (captured) vkFreeCommandBuffers(device_.get(), pool_.get(), 1, &captured);
}

void Recorder::submit_batch(VkCommandBuffer extra) {
  VkCommandBuffer cmds[2];
  std::uint32_t count = 0;
  Slot* batch = open_;
  if (batch) {
    profiler_.end(open_->cmd, open_->queries);
    profiler_.count_batch();
    if (commands_ >= early_ && early_ < kMaxCommands) early_ *= 2;
    // Make device writes visible to the host (readback staging, zero-copy tensors, error word).
    memory_barrier(open_->cmd, true, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    // Closed before the driver calls: a batch whose submission failed (device lost, out of
    // memory) is dropped, never recorded into or ended again.
    open_ = nullptr;
    hazards_.clear();
    TENFERRO_VK_CHECK(vkEndCommandBuffer(batch->cmd));
    cmds[count++] = batch->cmd;
  }
  if (extra) cmds[count++] = extra;
  if (count == 0) return;
  const std::uint64_t value = submitted_ + 1, wait_value = submitted_;
  const VkSemaphore sem = timeline_.get();
  auto ti = vk_struct<VkTimelineSemaphoreSubmitInfo>(VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
  ti.waitSemaphoreValueCount = 1;
  ti.pWaitSemaphoreValues = &wait_value;
  ti.signalSemaphoreValueCount = 1;
  ti.pSignalSemaphoreValues = &value;
  const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
  auto si = vk_struct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  si.pNext = &ti;
  si.waitSemaphoreCount = 1;  // the previous batch: orders every batch after the one before
  si.pWaitSemaphores = &sem;
  si.pWaitDstStageMask = &wait_stage;
  si.commandBufferCount = count;
  si.pCommandBuffers = cmds;
  si.signalSemaphoreCount = 1;
  si.pSignalSemaphores = &sem;
  TENFERRO_VK_CHECK(vkQueueSubmit(device_.queue(), 1, &si, VK_NULL_HANDLE));
  if (batch) batch->value = value;
  submitted_ = value;
}

void Recorder::wait(std::uint64_t value) const {
  if (value == 0) return;
  // Spin on the counter for up to spin_us_ first: a blocking wait on NVIDIA's driver wakes the
  // host tens of microseconds after the GPU finished, which dominated short synchronizations.
  if (spin_us_ > 0) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(spin_us_);
    do {
      if (completed() >= value) return;
    } while (std::chrono::steady_clock::now() < until);
  }
  const VkSemaphore sem = timeline_.get();
  auto wi = vk_struct<VkSemaphoreWaitInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO);
  wi.semaphoreCount = 1;
  wi.pSemaphores = &sem;
  wi.pValues = &value;
  TENFERRO_VK_CHECK(vkWaitSemaphores(device_.get(), &wi, std::numeric_limits<std::uint64_t>::max()));
  // A device lost during the wait may end it with VK_SUCCESS (the spec allows either result):
  // the work ran only if the counter reached the value.
  if (completed() < value)
    check_result(VK_ERROR_DEVICE_LOST, "vkWaitSemaphores (returned before the timeline value)", __FILE__,
                 __LINE__);
}

std::uint64_t Recorder::completed() const {
  std::uint64_t v = 0;
  TENFERRO_VK_CHECK(vkGetSemaphoreCounterValue(device_.get(), timeline_.get(), &v));
  return v;
}

}  // namespace tenferro::vk
