// Devices (where tensors live and ops run), placement of storage and the allocation identity
// of tenferro's provider model.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tenferro {

enum class MemoryKind : std::uint8_t { Device, PinnedHost, UnpinnedHost, Managed };
enum class DeviceKind : std::uint8_t { Cpu, Vulkan, WebGpu };
/// "cpu", "vulkan", "webgpu": the provider's name (get_backend, `tenferro devices`).
const char* device_kind_name(DeviceKind k);

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

/// A device: the CPU backend, one Vulkan device or one WebGPU adapter (by ordinal, as
/// `tenferro devices` lists them). A plain value; every tensor knows its device (TensorView::device()) and the ops of
/// tenferro/api.hpp run on their operands' device.
class Device {
 public:
  /// The CPU backend.
  constexpr Device() = default;
  /// No check: a device that does not exist fails when an op or factory opens it (cpu(),
  /// vulkan() and parse() check at once).
  constexpr Device(DeviceKind kind, int ordinal) : kind_(kind), ordinal_(ordinal) {}
  static Device cpu() { return {}; }
  /// Vulkan device `ordinal`; -1: the preferred one (discrete, integrated, other, then CPU
  /// devices such as lavapipe). Error{unsupported} without a Vulkan device (or without the
  /// provider in this build), Error{invalid_argument} for an ordinal that does not exist.
  static Device vulkan(int ordinal = -1);
  /// "cpu", "vulkan" (the preferred Vulkan device), "vulkan:N", "webgpu" (the preferred WebGPU
  /// adapter) or "webgpu:N"; the errors of vulkan() (likewise for WebGPU), and
  /// Error{invalid_argument} (op "Device", arg "name") for any other text.
  static Device parse(std::string_view name);

  DeviceKind kind() const { return kind_; }
  int ordinal() const { return ordinal_; }
  bool is_cpu() const { return kind_ == DeviceKind::Cpu; }
  /// "cpu", "vulkan:N" or "webgpu:N"; parse(name()) == *this.
  std::string name() const;
  /// What the device is (Backend::device_name): "host CPU (N threads)", the Vulkan device's name.
  std::string description() const;
  bool operator==(const Device&) const = default;

 private:
  DeviceKind kind_ = DeviceKind::Cpu;
  int ordinal_ = 0;
};

/// TENFERRO_DEVICE when set (cpu, vulkan, vulkan:N or a Vulkan ordinal N), else the preferred
/// Vulkan device, else the CPU. The errors of Device::parse for a bad TENFERRO_DEVICE.
Device default_device();
/// Every usable device: the CPU, then each Vulkan device. Never throws.
std::vector<Device> devices();

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
