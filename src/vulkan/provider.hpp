// The Vulkan provider as seen by the runtime (src/runtime.cpp) and by tests/vulkan.
//
// Requirements: a Vulkan 1.2 device with bufferDeviceAddress, timelineSemaphore, shaderInt64
// and 128 bytes of push constants. f64/c64 kernels need shaderFloat64; Bool kernels need
// storageBuffer8BitAccess + shaderInt8 (supports() reflects both).
//
// Threads: every Vulkan backend may be used from several threads. All recording, allocation
// and submission is serialized by one mutex per device; waits for the GPU happen outside it.
// Sessions (with_session) batch work into as few submissions as possible; outside a session
// every op is submitted at once (no wait). download/synchronize wait and rethrow errors that
// kernels detected (numerical_failure, invalid_argument), naming the op.
//
// Device loss: when a Vulkan call returns VK_ERROR_DEVICE_LOST (a submission, a wait or
// timeline query, a memory allocation or mapping, ...; also a wait that the driver ends with
// VK_SUCCESS before the timeline reached its value), the call in progress raises
// Error{device_lost} naming its entry point (the op for elementwise ops and reductions; fill,
// copy, dot_general, gather, scatter, tril / triu, allocate, upload, download, synchronize,
// with_session, map for host access to a mapped tensor), with the failed Vulkan call in the
// message, and the backend is marked lost for the rest of the process. Every later call then
// raises Error{device_lost} at once, before any work, naming the op (core's ops ask
// Backend::check_usable when they check their tensors). Nothing waits on a lost device, so
// nothing hangs; tensor destructors raise nothing (a lost device keeps the memory of its
// tensors), and nothing runs at exit (backends are never destroyed). Host tensors, downloads
// made before the loss, the CPU backend and other devices' backends are unaffected. A lost
// backend is not recreated: the process must restart to use that device again. Tests simulate
// a loss at any checked Vulkan call with TestHooks::lose_device_at (options.hpp).
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "tenferro/backend/backend.hpp"
#include "tenferro/backend/provider.hpp"
#include "tenferro/options.hpp"
#include "tenferro/runtime.hpp"

namespace tenferro::vk {

/// Every usable Vulkan device (ordinal = index in vkEnumeratePhysicalDevices order), probed
/// once per process. Never throws: a loader or driver failure yields an empty list.
std::vector<DeviceInfo> list_vulkan_devices();
/// The backend of device `ordinal`, created on first use and kept for the process lifetime.
/// Throws Error{invalid_argument} for an ordinal that is not in list_vulkan_devices().
Backend& vulkan_backend(int ordinal);
/// Discrete GPU first, then integrated, then virtual/other, then CPU (lavapipe).
/// Throws Error{unsupported} when there is no usable device.
int default_vulkan_ordinal();

/// This provider as the runtime sees it (tenferro/backend/provider.hpp).
const Provider& provider();

/// Accuracy choices of `be` when it is a Vulkan backend (tenferro/options.hpp; set_accuracy
/// validates): true when it is one and took `a`, false (nothing done) otherwise.
bool set_accuracy_if_vulkan(Backend& be, const AccuracyOptions& a);
/// `be`'s accuracy choices when it is a Vulkan backend, else nullopt.
std::optional<AccuracyOptions> accuracy_if_vulkan(const Backend& be);

/// Validation-layer warnings and errors counted so far (TENFERRO_VK_VALIDATION=1).
std::uint64_t validation_message_count();
/// True when `be` runs with the Khronos validation layer and the counting messenger.
bool validation_active(Backend& be);

struct AllocatorStats {
  std::uint64_t bytes_in_use = 0, bytes_reserved = 0, bytes_cached = 0, blocks = 0, live_allocations = 0;
  std::uint64_t tensor_bytes_reserved = 0;  // the part of bytes_reserved the cap bounds (tensor blocks)
  std::uint64_t cap = 0, cache_limit = 0;  // current limits
};
/// Allocator statistics of a Vulkan backend (memory of tensors freed but still referenced by
/// in-flight work counts as in use until the next synchronize()).
AllocatorStats allocator_stats(Backend& be);
/// Overrides TENFERRO_VK_MEMORY_CAP (cap bytes of tensor blocks, 0 keeps the current cap) and
/// TENFERRO_VK_CACHE (bytes of empty blocks kept) for a Vulkan backend. Test/tooling hook.
void set_memory_limits(Backend& be, std::uint64_t cap, std::uint64_t cache);
/// Barriers recorded so far by a Vulkan backend (for hazard tests).
std::uint64_t barrier_count(Backend& be);

}  // namespace tenferro::vk
