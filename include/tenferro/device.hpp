// Placement of storage and the allocation identity of tenferro's provider model.
#pragma once
#include <cstdint>
#include <string>

namespace tenferro {

enum class MemoryKind : std::uint8_t { Device, PinnedHost, UnpinnedHost, Managed };
enum class DeviceKind : std::uint8_t { Cpu, Vulkan };

/// Where a tensor's storage lives: memory kind, device kind and device ordinal.
struct Placement {
  MemoryKind memory = MemoryKind::UnpinnedHost;
  DeviceKind device = DeviceKind::Cpu;
  int ordinal = 0;
  bool operator==(const Placement&) const = default;
  /// True when the host can read the bytes directly (host kinds and Managed).
  bool host_visible() const { return memory != MemoryKind::Device; }
};

std::string to_string(const Placement& p);

/// An allocation domain: every backend instance (runtime) owns one; storage allocated by it
/// carries its id. Ids are unique in the process and never reused.
using DomainId = std::uint64_t;
/// Identity of one allocation (unique in the process, never reused).
using AllocationId = std::uint64_t;

/// The domain of host memory: the CPU backend's tensors, which every provider uploads from and
/// downloads to.
inline constexpr DomainId kHostDomain = 1;
/// A new domain id (never kHostDomain).
DomainId new_domain_id();
AllocationId new_allocation_id();

}  // namespace tenferro
