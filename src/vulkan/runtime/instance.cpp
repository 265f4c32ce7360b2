// Instance creation, validation layer and the counting debug messenger.
#include "vulkan/runtime/instance.hpp"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <vector>

#include "vulkan/options.hpp"
#include "vulkan/runtime/vk_check.hpp"

namespace tenferro::vk {

namespace {
std::atomic<std::uint64_t> g_validation_messages{0};

VKAPI_ATTR VkBool32 VKAPI_CALL on_debug_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                VkDebugUtilsMessageTypeFlagsEXT,
                                                const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                void*) {
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    g_validation_messages.fetch_add(1);
    std::fprintf(stderr, "[vulkan validation] %s\n", data && data->pMessage ? data->pMessage : "");
  }
  return VK_FALSE;
}

bool has_layer(const char* name) {
  std::uint32_t n = 0;
  if (vkEnumerateInstanceLayerProperties(&n, nullptr) != VK_SUCCESS) return false;
  std::vector<VkLayerProperties> layers(n);
  if (vkEnumerateInstanceLayerProperties(&n, layers.data()) != VK_SUCCESS) return false;
  for (const auto& l : layers)
    if (std::strcmp(l.layerName, name) == 0) return true;
  return false;
}
}  // namespace

std::uint64_t validation_message_count_impl() { return g_validation_messages.load(); }

const char* result_name(VkResult r) {
  switch (r) {
    case VK_SUCCESS: return "VK_SUCCESS";
    case VK_NOT_READY: return "VK_NOT_READY";
    case VK_TIMEOUT: return "VK_TIMEOUT";
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
    default: return "VkResult";
  }
}

bool injected_device_loss(const char* call) {
  TestHooks& h = test_hooks();
  if (h.lose_device_at == nullptr || std::strstr(call, h.lose_device_at) == nullptr) return false;
  h.lose_device_at = nullptr;
  return true;
}

void check_result(VkResult r, const char* call, const char* file, int line) {
  if (r >= 0) return;
  const std::string where =
      detail::cat(call, " returned ", result_name(r), " (", static_cast<int>(r), ") at ", file, ":", line);
  switch (r) {
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    case VK_ERROR_OUT_OF_HOST_MEMORY: TENFERRO_FAIL(out_of_memory, "vulkan", "", where);
    case VK_ERROR_DEVICE_LOST: TENFERRO_FAIL(device_lost, "vulkan", "", where);
    case VK_ERROR_INCOMPATIBLE_DRIVER: TENFERRO_FAIL(unsupported, "vulkan", "", where);
    default: TENFERRO_FAIL(backend_failure, "vulkan", "", where);
  }
}

Instance::Instance(bool validation) {
  auto app = vk_struct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "tenferro";
  app.pEngineName = "tenferro";
  app.apiVersion = VK_API_VERSION_1_2;
  const char* layer = "VK_LAYER_KHRONOS_validation";
  const bool use_layer = validation && has_layer(layer);
  if (validation && !use_layer)
    std::fprintf(stderr, "[vulkan] TENFERRO_VK_VALIDATION=1 but %s is not installed; running without\n", layer);
  const char* ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  auto info = vk_struct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  info.pApplicationInfo = &app;
  if (use_layer) {
    info.enabledLayerCount = 1;
    info.ppEnabledLayerNames = &layer;
    info.enabledExtensionCount = 1;
    info.ppEnabledExtensionNames = &ext;
  }
  const VkResult r = vkCreateInstance(&info, nullptr, &instance_);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER || r == VK_ERROR_INITIALIZATION_FAILED)
    TENFERRO_FAIL(unsupported, "vulkan", "", "no Vulkan 1.2 driver: vkCreateInstance returned ", result_name(r));
  TENFERRO_VK_CHECK(r);
  if (use_layer) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
    auto m = vk_struct<VkDebugUtilsMessengerCreateInfoEXT>(VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
    m.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    m.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                    VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    m.pfnUserCallback = on_debug_message;
    if (create == nullptr || create(instance_, &m, nullptr, &messenger_) != VK_SUCCESS) messenger_ = VK_NULL_HANDLE;
  }
}

Instance::~Instance() {
  if (messenger_ != VK_NULL_HANDLE) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy) destroy(instance_, messenger_, nullptr);
  }
  if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

}  // namespace tenferro::vk
