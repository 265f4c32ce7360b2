// Physical-device capabilities (read once) and the logical device with one compute queue.
#pragma once
#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "vulkan/runtime/instance.hpp"

namespace tenferro::vk {

/// What the provider needs to know about a physical device (STYLE.md B6.5). Read once.
struct DeviceCaps {
  std::string name, type, driver, driver_info;
  VkPhysicalDeviceType device_type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  std::uint32_t api_version = 0;
  bool f64 = false, i64 = false, i16 = false, i8 = false;
  // f64 arithmetic at a large fraction of f32's rate (fast_f64_device: NVIDIA's data-center
  // parts, by name); most other GPUs run f64 at 1/16 to 1/64 of f32. The f32 / c32 Ozaki-II
  // products (their passes compute in f64) are left to the FMA kernels where it is false.
  bool f64_fast = false;
  bool storage8 = false, storage16 = false;
  bool buffer_device_address = false, timeline_semaphore = false;
  bool cooperative_matrix = false;  // VK_KHR_cooperative_matrix or VK_NV_cooperative_matrix
  // The NV extension's supported shapes, "MxNxK A,B,C->D" (subgroup scope; listed by `tenferro devices`;
  // empty when the extension or the instance was not given to query_caps).
  std::vector<std::string> cooperative_shapes;
  // VK_NV_cooperative_matrix with its 16x16x32 u8 -> u32 shape and 8-bit arithmetic: the device
  // enables the extension and the Ozaki-II residue products run on it (shaders/ozaki/ozaki_mm_nv.comp).
  bool nv_coopmat_u8 = false;
  bool executable_properties = false;  // VK_KHR_pipeline_executable_properties
  bool denorm_preserve_f32 = false;    // shaderDenormPreserveFloat32: shaders get DenormPreserve 32
  // The driver flushes f32 subnormals (operands and results of arithmetic, f32 -> f64
  // conversions) and cannot be asked not to: NVIDIA's proprietary driver without
  // shaderDenormPreserveFloat32 (H200, driver 580: docs/accuracy.md). Other drivers that report
  // no preserve mode (lavapipe) keep subnormals by default.
  bool flushes_f32 = false;
  std::uint32_t subgroup_size = 0;
  // Streaming multiprocessors (NVIDIA, VK_NV_shader_sm_builtins); 0 when the device does not
  // say (the gemm tile choice then does not model waves of workgroups: kernels/gemm/policy.cpp).
  std::uint32_t sm_count = 0;
  std::uint64_t max_storage_buffer_range = 0;
  std::uint32_t max_push_constants = 0;
  std::uint32_t max_shared_memory = 0;
  std::uint32_t max_group_count_x = 0;
  std::uint32_t max_group_size_x = 0;
  std::int64_t compute_queue_family = -1;
  VkPhysicalDeviceMemoryProperties memory{};

  /// Empty when the provider can run on this device, else what is missing (Vulkan 1.2,
  /// bufferDeviceAddress, timelineSemaphore, shaderInt64, a compute queue).
  std::string missing() const;
  /// Bool tensors need 8-bit storage and int8 arithmetic.
  bool bool_ok() const { return storage8 && i8; }
  /// "key: value" lines for `tenferro devices`.
  std::vector<std::string> describe() const;
};

/// True for the names of NVIDIA GPUs whose f64 rate is half (or more) of their f32 rate: P100,
/// V100 (also TITAN V, Quadro GV100), A100 / A800 / A30, H100 / H200 / H800 / GH200, B100 / B200
/// / GB200, as whole words ("NVIDIA A100-SXM4-80GB", not "RTX A3000"). Not H20 or the L / A10 /
/// A40 / GeForce / RTX parts (1/32 to 1/64, the H20 ~1/40).
bool fast_f64_device(std::string_view name);

/// The capabilities of pd. With its instance, the cooperative-matrix shapes are listed too.
DeviceCaps query_caps(VkPhysicalDevice pd, VkInstance instance = VK_NULL_HANDLE);
/// All physical devices of an instance, in enumeration order (the ordinal is the index).
std::vector<VkPhysicalDevice> physical_devices(VkInstance instance);

/// The logical device: owns its Instance (destroyed last), one compute queue.
class Device {
 public:
  /// @pre `caps.missing()` is empty for this ordinal (else throws Error{unsupported}).
  /// Bad ordinal: Error{invalid_argument}. `pipeline_stats`: enable pipeline executable
  /// statistics when the device has them (Options::pipeline_stats).
  Device(int ordinal, bool validation, bool pipeline_stats = false);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  VkDevice get() const { return device_; }
  VkPhysicalDevice physical() const { return physical_; }
  VkQueue queue() const { return queue_; }
  std::uint32_t queue_family() const { return static_cast<std::uint32_t>(caps_.compute_queue_family); }
  const DeviceCaps& caps() const { return caps_; }
  bool validation_active() const { return instance_->validation_active(); }
  /// Pipelines may be created with VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR.
  bool pipeline_stats() const { return pipeline_stats_; }

 private:
  std::unique_ptr<Instance> instance_;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  DeviceCaps caps_;
  bool pipeline_stats_ = false;
};

}  // namespace tenferro::vk
