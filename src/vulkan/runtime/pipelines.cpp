#include "vulkan/runtime/pipelines.hpp"

#include "shaders/common/params.h"
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "vulkan/runtime/compiler.hpp"
#include "vulkan/runtime/shaders.hpp"
#include "vulkan/runtime/spirv_patch.hpp"

namespace tenferro::vk {

namespace {
// A persisted pipeline cache larger than this is neither read nor written.
constexpr std::size_t kMaxPipelineCacheBytes = std::size_t{256} << 20;

// Prints the driver's statistics of every executable of `p` (Options::pipeline_stats) as
// one line: "pipeline <variant> op=<op> local=<n> aux=<aux> [<executable>] <name>=<value> ...".
void print_stats(VkDevice dev, VkPipeline p, std::string_view variant, int op, std::uint32_t local, std::uint32_t aux,
                 double compile_ms) {
  auto props_fn = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
      vkGetDeviceProcAddr(dev, "vkGetPipelineExecutablePropertiesKHR"));
  auto stats_fn = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
      vkGetDeviceProcAddr(dev, "vkGetPipelineExecutableStatisticsKHR"));
  if (props_fn == nullptr || stats_fn == nullptr) return;
  // Vulkan's two-call enumeration (count, then fill) of one query; empty on failure.
  auto enumerate = [dev](auto fn, const auto* info, auto proto) {
    std::uint32_t n = 0;
    std::vector<decltype(proto)> out;
    if (fn(dev, info, &n, nullptr) != VK_SUCCESS) return out;
    out.assign(n, proto);
    if (fn(dev, info, &n, out.data()) != VK_SUCCESS) out.clear();
    return out;
  };
  auto pi = vk_struct<VkPipelineInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR);
  pi.pipeline = p;
  const auto props = enumerate(
      props_fn, &pi, vk_struct<VkPipelineExecutablePropertiesKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR));
  for (std::uint32_t e = 0; e < props.size(); ++e) {
    auto ei = vk_struct<VkPipelineExecutableInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR);
    ei.pipeline = p;
    ei.executableIndex = e;
    const auto st = enumerate(
        stats_fn, &ei, vk_struct<VkPipelineExecutableStatisticKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR));
    std::string line = "pipeline " + std::string(variant) + " op=" + std::to_string(op) +
                       " local=" + std::to_string(local) + " aux=" + std::to_string(aux) +
                       " compile_ms=" + std::to_string(compile_ms) + " [" + props[e].name + "]";
    for (const auto& s : st) {
      line += " ";
      for (const char* c = s.name; *c; ++c) line += *c == ' ' ? '_' : *c;
      line += "=";
      switch (s.format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: line += s.value.b32 ? "true" : "false"; break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: line += std::to_string(s.value.i64); break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: line += std::to_string(s.value.u64); break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: line += std::to_string(s.value.f64); break;
        default: line += "?";
      }
    }
    std::fprintf(stderr, "%s\n", line.c_str());
  }
}
// The persisted cache's file name: the device model and the driver build it is valid for.
std::string pipeline_cache_name(const VkPhysicalDeviceProperties& p) {
  char name[96];
  int n = std::snprintf(name, sizeof name, "pipelines-%04x-%04x-", p.vendorID, p.deviceID);
  for (std::uint8_t b : p.pipelineCacheUUID) n += std::snprintf(name + n, sizeof name - static_cast<std::size_t>(n), "%02x", b);
  return std::string(name) + ".bin";
}

// The contents of `file` when its header (VkPipelineCacheHeaderVersionOne) is of this device and
// driver, else empty. Drivers must ignore foreign data themselves; this check also keeps
// damaged and truncated files away from them.
std::vector<char> read_pipeline_cache(const std::filesystem::path& file, const VkPhysicalDeviceProperties& p) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  if (ec || size < sizeof(VkPipelineCacheHeaderVersionOne) || size > kMaxPipelineCacheBytes) return {};
  std::vector<char> data(size);
  std::ifstream in(file, std::ios::binary);
  if (!in.read(data.data(), static_cast<std::streamsize>(size))) return {};
  VkPipelineCacheHeaderVersionOne h{};
  std::memcpy(&h, data.data(), sizeof h);
  if (h.headerSize < sizeof h || h.headerSize > size || h.headerVersion != VK_PIPELINE_CACHE_HEADER_VERSION_ONE ||
      h.vendorID != p.vendorID || h.deviceID != p.deviceID ||
      std::memcmp(h.pipelineCacheUUID, p.pipelineCacheUUID, VK_UUID_SIZE) != 0)
    return {};
  return data;
}
}  // namespace

Pipelines::Pipelines(const Device& device) : device_(device) {
  const VkDevice dev = device.get();
  VkPhysicalDeviceProperties props{};
  vkGetPhysicalDeviceProperties(device.physical(), &props);
  std::vector<char> initial;
  if (const std::filesystem::path dir = kernel_cache_dir(); !dir.empty()) {
    cache_file_ = dir / pipeline_cache_name(props);
    initial = read_pipeline_cache(cache_file_, props);
  }
  auto ci = vk_struct<VkPipelineCacheCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
  ci.initialDataSize = initial.size();
  ci.pInitialData = initial.empty() ? nullptr : initial.data();
  VkPipelineCache cache = VK_NULL_HANDLE;
  TENFERRO_VK_CHECK(vkCreatePipelineCache(dev, &ci, nullptr, &cache));
  cache_ = Unique<VkPipelineCache>(dev, cache, vkDestroyPipelineCache);
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(KernelParams)};
  auto li = vk_struct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  li.pushConstantRangeCount = 1;
  li.pPushConstantRanges = &range;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  TENFERRO_VK_CHECK(vkCreatePipelineLayout(dev, &li, nullptr, &layout));
  layout_ = Unique<VkPipelineLayout>(dev, layout, vkDestroyPipelineLayout);
}

Pipelines::~Pipelines() { save_cache(); }

void Pipelines::save_cache() {
  if (cache_file_.empty() || count_ == saved_count_) return;
  saved_count_ = count_;
  std::size_t size = 0;
  if (vkGetPipelineCacheData(device_.get(), cache_.get(), &size, nullptr) != VK_SUCCESS || size == 0 ||
      size > kMaxPipelineCacheBytes)
    return;
  std::vector<char> data(size);
  if (vkGetPipelineCacheData(device_.get(), cache_.get(), &size, data.data()) != VK_SUCCESS) return;
  write_file_atomically(cache_file_.parent_path(), cache_file_, {std::string_view(data.data(), size)});
}

Unique<VkShaderModule> Pipelines::create_module(std::span<const std::uint32_t> words) {
  auto mi = vk_struct<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  mi.codeSize = words.size() * sizeof(std::uint32_t);
  mi.pCode = words.data();
  // f32 denormals preserved where the device can be asked to (spirv_patch.hpp).
  std::vector<std::uint32_t> patched;
  if (device_.caps().denorm_preserve_f32) {
    patched = with_denorm_preserve(words, 32);
    mi.codeSize = patched.size() * sizeof(std::uint32_t);
    mi.pCode = patched.data();
  }
  VkShaderModule m = VK_NULL_HANDLE;
  TENFERRO_VK_CHECK(vkCreateShaderModule(device_.get(), &mi, nullptr, &m));
  return Unique<VkShaderModule>(device_.get(), m, vkDestroyShaderModule);
}

VkShaderModule Pipelines::module(std::string_view variant) {
  auto it = modules_.find(variant);
  if (it != modules_.end()) return it->second.get();
  const EmbeddedShader* found = nullptr;
  for (const EmbeddedShader& s : embedded_shaders())
    if (s.name == variant) found = &s;
  TENFERRO_CHECK(found != nullptr, internal, "vulkan", "", "no embedded shader variant '", variant, "'");
  return modules_.emplace(std::string(variant), create_module({found->words, found->word_count})).first->second.get();
}

VkPipeline Pipelines::get(std::string_view variant, int op, std::uint32_t local_size, std::uint32_t aux) {
  auto it = pipelines_.find(variant);
  if (it != pipelines_.end())
    for (const Entry& e : it->second)
      if (e.op == op && e.local == local_size && e.aux == aux) return e.pipeline.get();
  VkPipeline p = create(module(variant), variant, op, local_size, aux);
  if (it == pipelines_.end()) it = pipelines_.emplace(std::string(variant), std::vector<Entry>{}).first;
  it->second.push_back(Entry{op, local_size, aux, Unique<VkPipeline>(device_.get(), p, vkDestroyPipeline)});
  ++count_;
  return p;
}

VkPipeline Pipelines::get_generated(const std::string& key, const std::function<std::vector<std::uint32_t>()>& spirv,
                                    std::uint32_t local_size, int op) {
  if (auto it = generated_.find(key); it != generated_.end()) return it->second.pipeline.get();
  Generated g;
  g.module = create_module(spirv());
  g.pipeline = Unique<VkPipeline>(device_.get(), create(g.module.get(), "generated", op, local_size, 0), vkDestroyPipeline);
  ++count_;
  const VkPipeline p = generated_.emplace(key, std::move(g)).first->second.pipeline.get();
  save_cache();
  return p;
}

VkPipeline Pipelines::create(VkShaderModule m, std::string_view label, int op, std::uint32_t local_size,
                             std::uint32_t aux) {
  struct Spec {
    std::uint32_t local_size;
    std::int32_t op;
    std::uint32_t aux;
  } spec{local_size, op, aux};
  // An id the shader does not declare is ignored (Vulkan spec, VkSpecializationMapEntry).
  const VkSpecializationMapEntry entries[3] = {{0, offsetof(Spec, local_size), sizeof(std::uint32_t)},
                                               {1, offsetof(Spec, op), sizeof(std::int32_t)},
                                               {2, offsetof(Spec, aux), sizeof(std::uint32_t)}};
  VkSpecializationInfo si{3, entries, sizeof(spec), &spec};
  auto ci = vk_struct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  ci.stage.module = m;
  ci.stage.pName = "main";
  ci.stage.pSpecializationInfo = &si;
  ci.layout = layout_.get();
  if (device_.pipeline_stats()) ci.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  VkPipeline p = VK_NULL_HANDLE;
  if (device_.pipeline_stats())  // a line before the compile too: a compile that never ends shows
    std::fprintf(stderr, "compiling %s op=%d local=%u aux=%u\n", std::string(label).c_str(), op, local_size, aux);
  const auto t0 = std::chrono::steady_clock::now();
  TENFERRO_VK_CHECK(vkCreateComputePipelines(device_.get(), cache_.get(), 1, &ci, nullptr, &p));
  const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - t0;
  if (device_.pipeline_stats()) print_stats(device_.get(), p, label, op, local_size, aux, took.count());
  return p;
}

}  // namespace tenferro::vk
