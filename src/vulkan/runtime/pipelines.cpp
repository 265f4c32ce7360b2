#include "vulkan/runtime/pipelines.hpp"

#include "shaders/common/params.h"
#include "vulkan/runtime/shaders.hpp"

namespace tenferro::vk {

Pipelines::Pipelines(const Device& device) : device_(device) {
  const VkDevice dev = device.get();
  auto ci = vk_struct<VkPipelineCacheCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
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

VkShaderModule Pipelines::module(std::string_view variant) {
  auto it = modules_.find(variant);
  if (it != modules_.end()) return it->second.get();
  const EmbeddedShader* found = nullptr;
  for (const EmbeddedShader& s : embedded_shaders())
    if (s.name == variant) found = &s;
  TENFERRO_CHECK(found != nullptr, internal, "vulkan", "", "no embedded shader variant '", variant, "'");
  auto mi = vk_struct<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  mi.codeSize = found->word_count * sizeof(std::uint32_t);
  mi.pCode = found->words;
  VkShaderModule m = VK_NULL_HANDLE;
  TENFERRO_VK_CHECK(vkCreateShaderModule(device_.get(), &mi, nullptr, &m));
  return modules_.emplace(std::string(variant), Unique<VkShaderModule>(device_.get(), m, vkDestroyShaderModule))
      .first->second.get();
}

VkPipeline Pipelines::get(std::string_view variant, int op, std::uint32_t local_size) {
  auto it = pipelines_.find(variant);
  if (it != pipelines_.end())
    for (const Entry& e : it->second)
      if (e.op == op && e.local == local_size) return e.pipeline.get();
  struct Spec {
    std::uint32_t local_size;
    std::int32_t op;
  } spec{local_size, op};
  const VkSpecializationMapEntry entries[2] = {{0, offsetof(Spec, local_size), sizeof(std::uint32_t)},
                                               {1, offsetof(Spec, op), sizeof(std::int32_t)}};
  VkSpecializationInfo si{2, entries, sizeof(spec), &spec};
  auto ci = vk_struct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  ci.stage.module = module(variant);
  ci.stage.pName = "main";
  ci.stage.pSpecializationInfo = &si;
  ci.layout = layout_.get();
  VkPipeline p = VK_NULL_HANDLE;
  TENFERRO_VK_CHECK(vkCreateComputePipelines(device_.get(), cache_.get(), 1, &ci, nullptr, &p));
  if (it == pipelines_.end()) it = pipelines_.emplace(std::string(variant), std::vector<Entry>{}).first;
  it->second.push_back(Entry{op, local_size, Unique<VkPipeline>(device_.get(), p, vkDestroyPipeline)});
  ++count_;
  return it->second.back().pipeline.get();
}

}  // namespace tenferro::vk
