// DeviceCaps queries and logical device creation.
#include "vulkan/runtime/device.hpp"

#include <cctype>
#include <cstring>

#include "vulkan/runtime/vk_check.hpp"

namespace tenferro::vk {

namespace {
const char* type_name(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
  }
}
std::string yes(bool b) { return b ? "yes" : "no"; }

const char* component_name(VkComponentTypeNV t) {
  switch (t) {
    case VK_COMPONENT_TYPE_FLOAT16_NV: return "f16";
    case VK_COMPONENT_TYPE_FLOAT32_NV: return "f32";
    case VK_COMPONENT_TYPE_FLOAT64_NV: return "f64";
    case VK_COMPONENT_TYPE_SINT8_NV: return "s8";
    case VK_COMPONENT_TYPE_SINT16_NV: return "s16";
    case VK_COMPONENT_TYPE_SINT32_NV: return "s32";
    case VK_COMPONENT_TYPE_SINT64_NV: return "s64";
    case VK_COMPONENT_TYPE_UINT8_NV: return "u8";
    case VK_COMPONENT_TYPE_UINT16_NV: return "u16";
    case VK_COMPONENT_TYPE_UINT32_NV: return "u32";
    case VK_COMPONENT_TYPE_UINT64_NV: return "u64";
    default: return "other";
  }
}

/// VK_NV_cooperative_matrix's shapes as "MxNxK A,B,C->D" (the scope is always a subgroup).
std::vector<std::string> cooperative_shapes(VkInstance instance, VkPhysicalDevice pd) {
  auto get = reinterpret_cast<PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV>(
      vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV"));
  if (!get) return {};
  std::uint32_t n = 0;
  if (get(pd, &n, nullptr) != VK_SUCCESS) return {};
  std::vector<VkCooperativeMatrixPropertiesNV> props(
      n, vk_struct<VkCooperativeMatrixPropertiesNV>(VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_NV));
  if (get(pd, &n, props.data()) != VK_SUCCESS) return {};
  std::vector<std::string> out;
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto& q = props[i];
    out.push_back(std::to_string(q.MSize) + "x" + std::to_string(q.NSize) + "x" + std::to_string(q.KSize) + " " +
                  component_name(q.AType) + "," + component_name(q.BType) + "," + component_name(q.CType) + "->" +
                  component_name(q.DType));
  }
  return out;
}
std::string mib(std::uint64_t b) { return std::to_string(b >> 20) + " MiB"; }
}  // namespace

std::vector<VkPhysicalDevice> physical_devices(VkInstance instance) {
  std::uint32_t n = 0;
  TENFERRO_VK_CHECK(vkEnumeratePhysicalDevices(instance, &n, nullptr));
  std::vector<VkPhysicalDevice> out(n);
  TENFERRO_VK_CHECK(vkEnumeratePhysicalDevices(instance, &n, out.data()));
  out.resize(n);
  return out;
}

DeviceCaps query_caps(VkPhysicalDevice pd, VkInstance instance) {
  DeviceCaps c;
  auto f12 = vk_struct<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  auto f11 = vk_struct<VkPhysicalDeviceVulkan11Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  f11.pNext = &f12;
  auto f = vk_struct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  f.pNext = &f11;
  VkPhysicalDeviceProperties base{};
  vkGetPhysicalDeviceProperties(pd, &base);
  c.api_version = base.apiVersion;
  if (base.apiVersion >= VK_API_VERSION_1_2) vkGetPhysicalDeviceFeatures2(pd, &f);
  auto drv = vk_struct<VkPhysicalDeviceDriverProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES);
  auto p12 = vk_struct<VkPhysicalDeviceVulkan12Properties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES);
  drv.pNext = &p12;
  auto sub = vk_struct<VkPhysicalDeviceSubgroupProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
  sub.pNext = &drv;
  auto p = vk_struct<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  p.pNext = &sub;
  if (base.apiVersion >= VK_API_VERSION_1_2) vkGetPhysicalDeviceProperties2(pd, &p);
  c.name = base.deviceName;
  c.device_type = base.deviceType;
  c.type = type_name(base.deviceType);
  c.driver = drv.driverName[0] ? drv.driverName : "unknown";
  c.driver_info = drv.driverInfo;
  c.denorm_preserve_f32 = p12.shaderDenormPreserveFloat32;
  c.flushes_f32 = !c.denorm_preserve_f32 && drv.driverID == VK_DRIVER_ID_NVIDIA_PROPRIETARY;
  c.f64 = f.features.shaderFloat64;
  c.f64_fast = c.f64 && fast_f64_device(c.name);
  c.i64 = f.features.shaderInt64;
  c.i16 = f.features.shaderInt16;
  c.i8 = f12.shaderInt8;
  c.storage8 = f12.storageBuffer8BitAccess;
  c.storage16 = f11.storageBuffer16BitAccess;
  c.buffer_device_address = f12.bufferDeviceAddress;
  c.timeline_semaphore = f12.timelineSemaphore;
  c.subgroup_size = sub.subgroupSize;
  c.max_storage_buffer_range = base.limits.maxStorageBufferRange;
  c.max_push_constants = base.limits.maxPushConstantsSize;
  c.max_shared_memory = base.limits.maxComputeSharedMemorySize;
  c.max_group_count_x = base.limits.maxComputeWorkGroupCount[0];
  c.max_group_size_x = base.limits.maxComputeWorkGroupSize[0];
  vkGetPhysicalDeviceMemoryProperties(pd, &c.memory);

  std::uint32_t n = 0;
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> exts(n);
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, exts.data());
  bool sm_builtins = false;
  for (const auto& e : exts)
    if (std::strcmp(e.extensionName, "VK_KHR_cooperative_matrix") == 0) {
      c.cooperative_matrix = true;
    } else if (std::strcmp(e.extensionName, VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME) == 0) {
      c.cooperative_matrix = true;
      if (instance != VK_NULL_HANDLE) c.cooperative_shapes = cooperative_shapes(instance, pd);
    } else if (std::strcmp(e.extensionName, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME) == 0) {
      c.executable_properties = true;
    } else if (std::strcmp(e.extensionName, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME) == 0) {
      sm_builtins = true;
    }

  bool u8_shape = false;
  for (const std::string& sh : c.cooperative_shapes) u8_shape = u8_shape || sh == "16x16x32 u8,u8,u32->u32";
  if (u8_shape && c.i8 && base.apiVersion >= VK_API_VERSION_1_2) {  // the shape listed and the feature present
    auto fc = vk_struct<VkPhysicalDeviceCooperativeMatrixFeaturesNV>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV);
    auto q = vk_struct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
    q.pNext = &fc;
    vkGetPhysicalDeviceFeatures2(pd, &q);
    c.nv_coopmat_u8 = fc.cooperativeMatrix == VK_TRUE;
  }

  // Streaming multiprocessors: a property of VK_NV_shader_sm_builtins (queried, never enabled).
  if (base.apiVersion >= VK_API_VERSION_1_2 && sm_builtins) {
    auto sm = vk_struct<VkPhysicalDeviceShaderSMBuiltinsPropertiesNV>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV);
    auto q = vk_struct<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
    q.pNext = &sm;
    vkGetPhysicalDeviceProperties2(pd, &q);
    c.sm_count = sm.shaderSMCount;
  }

  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
  std::vector<VkQueueFamilyProperties> qs(n);
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, qs.data());
  // Prefer a compute queue without graphics (async compute), else any compute queue.
  for (std::uint32_t i = 0; i < n; ++i)
    if ((qs[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && !(qs[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)) {
      c.compute_queue_family = i;
      break;
    }
  for (std::uint32_t i = 0; i < n && c.compute_queue_family < 0; ++i)
    if (qs[i].queueFlags & VK_QUEUE_COMPUTE_BIT) c.compute_queue_family = i;
  return c;
}

std::string DeviceCaps::missing() const {
  std::string m;
  auto need = [&](bool ok, const char* what) {
    if (!ok) m += (m.empty() ? "" : ", ") + std::string(what);
  };
  need(api_version >= VK_API_VERSION_1_2, "Vulkan 1.2");
  need(buffer_device_address, "bufferDeviceAddress");
  need(timeline_semaphore, "timelineSemaphore");
  need(i64, "shaderInt64");
  need(compute_queue_family >= 0, "a compute queue");
  need(max_push_constants >= 128, "128 bytes of push constants");
  return m;
}

bool fast_f64_device(std::string_view name) {
  static constexpr std::string_view kParts[] = {"P100",  "V100",  "GV100", "TITAN V", "A100",  "A800", "A30",
                                                "H100",  "H200",  "H800",  "GH200",   "B100",  "B200", "GB200"};
  auto word = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) != 0; };
  for (std::string_view part : kParts) {
    for (std::size_t at = name.find(part); at != std::string_view::npos; at = name.find(part, at + 1)) {
      const std::size_t end = at + part.size();
      if ((at == 0 || !word(name[at - 1])) && (end == name.size() || !word(name[end]))) return true;
    }
  }
  return false;
}

std::vector<std::string> DeviceCaps::describe() const {
  std::vector<std::string> d;
  d.push_back("api: " + std::to_string(VK_API_VERSION_MAJOR(api_version)) + "." +
              std::to_string(VK_API_VERSION_MINOR(api_version)) + "." +
              std::to_string(VK_API_VERSION_PATCH(api_version)));
  if (!driver_info.empty()) d.push_back("driver info: " + driver_info);
  for (std::uint32_t h = 0; h < memory.memoryHeapCount; ++h) {
    const auto& heap = memory.memoryHeaps[h];
    std::string flags;
    for (std::uint32_t t = 0; t < memory.memoryTypeCount; ++t) {
      if (memory.memoryTypes[t].heapIndex != h) continue;
      const auto pf = memory.memoryTypes[t].propertyFlags;
      flags += " [type " + std::to_string(t) + ":" + (pf & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT ? " device-local" : "") +
               (pf & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT ? " host-visible" : "") +
               (pf & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT ? " coherent" : "") +
               (pf & VK_MEMORY_PROPERTY_HOST_CACHED_BIT ? " cached" : "") + "]";
    }
    d.push_back("memory heap " + std::to_string(h) + ": " + mib(heap.size) +
                (heap.flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT ? " device-local" : " host") + flags);
  }
  d.push_back("shaderFloat64: " + yes(f64) + (f64 ? std::string(f64_fast ? " (fast: a data-center part)" : " (taken as slow)") : ""));
  d.push_back("shaderInt64: " + yes(i64));
  d.push_back("16-bit: storage " + yes(storage16) + ", shaderInt16 " + yes(i16));
  d.push_back("8-bit: storage " + yes(storage8) + ", shaderInt8 " + yes(i8));
  d.push_back("bufferDeviceAddress: " + yes(buffer_device_address));
  d.push_back("timelineSemaphore: " + yes(timeline_semaphore));
  d.push_back("subgroup size: " + std::to_string(subgroup_size));
  d.push_back("streaming multiprocessors: " + (sm_count ? std::to_string(sm_count) : std::string("not reported")));
  d.push_back("maxStorageBufferRange: " + std::to_string(max_storage_buffer_range) + " (" +
              mib(max_storage_buffer_range) + ")");
  d.push_back("maxPushConstantsSize: " + std::to_string(max_push_constants));
  d.push_back("shared memory: " + std::to_string(max_shared_memory / 1024) + " KiB");
  d.push_back("maxComputeWorkGroupCount[0]: " + std::to_string(max_group_count_x));
  d.push_back("cooperative matrix: " + yes(cooperative_matrix));
  d.push_back("8-bit tensor-core products (Ozaki-II f64): " + yes(nv_coopmat_u8));
  if (!cooperative_shapes.empty()) {
    std::string list;
    for (const std::string& c : cooperative_shapes) list += (list.empty() ? "" : "; ") + c;
    d.push_back("cooperative matrix shapes (NV, subgroup): " + list);
  }
  d.push_back("pipeline executable properties: " + yes(executable_properties));
  d.push_back("f32 denormals: " + std::string(denorm_preserve_f32 ? "preserved (shaders ask for it)"
                                               : flushes_f32 ? "flushed by the driver"
                                                             : "device default"));
  const std::string miss = missing();
  d.push_back("usable: " + (miss.empty() ? std::string("yes") : "no (needs " + miss + ")"));
  return d;
}

Device::Device(int ordinal, bool validation, bool pipeline_stats) : instance_(std::make_unique<Instance>(validation)) {
  const auto pds = physical_devices(instance_->get());
  TENFERRO_CHECK(ordinal >= 0 && static_cast<std::size_t>(ordinal) < pds.size(), invalid_argument, "vulkan",
                 "ordinal", "Vulkan device ordinal ", ordinal, " does not exist (", pds.size(), " devices)");
  physical_ = pds[static_cast<std::size_t>(ordinal)];
  caps_ = query_caps(physical_, instance_->get());
  const std::string miss = caps_.missing();
  TENFERRO_CHECK(miss.empty(), unsupported, "vulkan", "ordinal", "device ", ordinal, " (", caps_.name,
                 ") cannot run tenferro: needs ", miss);

  const float priority = 1.0f;
  auto q = vk_struct<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  q.queueFamilyIndex = queue_family();
  q.queueCount = 1;
  q.pQueuePriorities = &priority;
  // Enable exactly what the shaders may use and the device has.
  auto f12 = vk_struct<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  f12.bufferDeviceAddress = VK_TRUE;
  f12.timelineSemaphore = VK_TRUE;
  f12.shaderInt8 = caps_.i8;
  f12.storageBuffer8BitAccess = caps_.storage8;
  auto f11 = vk_struct<VkPhysicalDeviceVulkan11Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  f11.storageBuffer16BitAccess = caps_.storage16;
  f11.pNext = &f12;
  auto f = vk_struct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  f.features.shaderFloat64 = caps_.f64;
  f.features.shaderInt64 = VK_TRUE;
  f.features.shaderInt16 = caps_.i16;
  f.pNext = &f11;
  auto fx = vk_struct<VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR);
  auto fc = vk_struct<VkPhysicalDeviceCooperativeMatrixFeaturesNV>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV);
  std::vector<const char*> exts;
  pipeline_stats_ = pipeline_stats && caps_.executable_properties;
  if (pipeline_stats_) {
    fx.pipelineExecutableInfo = VK_TRUE;
    fx.pNext = f12.pNext;
    f12.pNext = &fx;
    exts.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
  }
  if (caps_.nv_coopmat_u8) {
    fc.cooperativeMatrix = VK_TRUE;
    fc.pNext = f12.pNext;
    f12.pNext = &fc;
    exts.push_back(VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME);
  }
  auto info = vk_struct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  info.pNext = &f;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &q;
  info.enabledExtensionCount = static_cast<std::uint32_t>(exts.size());
  info.ppEnabledExtensionNames = exts.empty() ? nullptr : exts.data();
  TENFERRO_VK_CHECK(vkCreateDevice(physical_, &info, nullptr, &device_));
  vkGetDeviceQueue(device_, queue_family(), 0, &queue_);
}

Device::~Device() {
  if (device_ != VK_NULL_HANDLE) {
    vkDeviceWaitIdle(device_);
    vkDestroyDevice(device_, nullptr);
  }
}

}  // namespace tenferro::vk
