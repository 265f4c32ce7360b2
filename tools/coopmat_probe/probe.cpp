// Standalone probe (tools/coopmat_probe/README.md): int8 cooperative-matrix GEMM throughput through
// VK_NV_cooperative_matrix on device 0. Usage: probe SIZE FILE.spv:BM:BN:THREADS...; per shader one
// line: median of 10 timed command buffers of 10 dispatches each (timestamp queries, 2 warm-ups),
// TOPS = 2 SIZE^3 / time, and how many of 64 sampled outputs differ from a host dot product.
#include <vulkan/vulkan.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>
#define CK(x) do { VkResult r_ = (x); if (r_ != VK_SUCCESS) { std::printf("FAIL %s = %d line %d\n", #x, r_, __LINE__); std::exit(1); } } while (0)
VkDevice dev; VkPhysicalDevice pd; VkQueue q; uint32_t qf = 0;
VkPhysicalDeviceMemoryProperties mp;
uint32_t memtype(uint32_t bits, VkMemoryPropertyFlags f) {
  for (uint32_t i = 0; i < mp.memoryTypeCount; ++i) if ((bits >> i & 1) && (mp.memoryTypes[i].propertyFlags & f) == f) return i;
  std::printf("no memtype\n"); std::exit(1);
}
struct Buf { VkBuffer b; VkDeviceMemory m; VkDeviceAddress a; void* map = nullptr; };
Buf mk(VkDeviceSize n, bool host) {
  Buf r; VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO}; bi.size = n;
  bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  CK(vkCreateBuffer(dev, &bi, nullptr, &r.b)); VkMemoryRequirements mr; vkGetBufferMemoryRequirements(dev, r.b, &mr);
  VkMemoryAllocateFlagsInfo fi{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO}; fi.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO}; ai.pNext = &fi; ai.allocationSize = mr.size;
  ai.memoryTypeIndex = memtype(mr.memoryTypeBits, host ? (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  CK(vkAllocateMemory(dev, &ai, nullptr, &r.m)); CK(vkBindBufferMemory(dev, r.b, r.m, 0));
  VkBufferDeviceAddressInfo da{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO}; da.buffer = r.b; r.a = vkGetBufferDeviceAddress(dev, &da);
  if (host) CK(vkMapMemory(dev, r.m, 0, n, 0, &r.map));
  return r;
}
std::vector<uint32_t> readf(const std::string& f) { std::ifstream s(f, std::ios::binary | std::ios::ate); size_t n = s.tellg(); s.seekg(0); std::vector<uint32_t> v(n / 4); s.read((char*)v.data(), n); return v; }
int main(int argc, char** argv) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO}; app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ii{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO}; ii.pApplicationInfo = &app; VkInstance inst; CK(vkCreateInstance(&ii, nullptr, &inst));
  uint32_t n = 0; vkEnumeratePhysicalDevices(inst, &n, nullptr); std::vector<VkPhysicalDevice> pds(n); vkEnumeratePhysicalDevices(inst, &n, pds.data());
  pd = pds[0]; VkPhysicalDeviceProperties pp; vkGetPhysicalDeviceProperties(pd, &pp); std::printf("device %s\n", pp.deviceName);
  vkGetPhysicalDeviceMemoryProperties(pd, &mp);
  float pr = 1; VkDeviceQueueCreateInfo qi{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO}; qi.queueFamilyIndex = 0; qi.queueCount = 1; qi.pQueuePriorities = &pr;
  VkPhysicalDeviceCooperativeMatrixFeaturesNV cm{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV}; cm.cooperativeMatrix = VK_TRUE;
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES}; f12.bufferDeviceAddress = 1; f12.shaderInt8 = 1; f12.storageBuffer8BitAccess = 1; f12.pNext = &cm;
  VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES}; f11.pNext = &f12;
  VkPhysicalDeviceFeatures2 f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2}; f.features.shaderInt64 = 1; f.pNext = &f11;
  const char* ext = VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME;
  VkDeviceCreateInfo di{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO}; di.pNext = &f; di.queueCreateInfoCount = 1; di.pQueueCreateInfos = &qi; di.enabledExtensionCount = 1; di.ppEnabledExtensionNames = &ext;
  CK(vkCreateDevice(pd, &di, nullptr, &dev)); vkGetDeviceQueue(dev, 0, 0, &q);
  VkCommandPoolCreateInfo ci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO}; ci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT; VkCommandPool pool; CK(vkCreateCommandPool(dev, &ci, nullptr, &pool));
  VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO}; cai.commandPool = pool; cai.commandBufferCount = 1; VkCommandBuffer cb; CK(vkAllocateCommandBuffers(dev, &cai, &cb));
  VkFence fence; VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO}; CK(vkCreateFence(dev, &fci, nullptr, &fence));
  VkQueryPoolCreateInfo qpi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO}; qpi.queryType = VK_QUERY_TYPE_TIMESTAMP; qpi.queryCount = 2; VkQueryPool qp; CK(vkCreateQueryPool(dev, &qpi, nullptr, &qp));
  auto submit = [&]() { VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO}; si.commandBufferCount = 1; si.pCommandBuffers = &cb; CK(vkQueueSubmit(q, 1, &si, fence)); CK(vkWaitForFences(dev, 1, &fence, 1, ~0ull)); CK(vkResetFences(dev, 1, &fence)); };
  VkPushConstantRange pcr{VK_SHADER_STAGE_COMPUTE_BIT, 0, 40}; VkPipelineLayoutCreateInfo pli{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO}; pli.pushConstantRangeCount = 1; pli.pPushConstantRanges = &pcr; VkPipelineLayout pl; CK(vkCreatePipelineLayout(dev, &pli, nullptr, &pl));
  // args: size then list of "file:BM:BN:NT"
  const uint32_t S = std::atoi(argv[1]); const uint32_t M = S, N = S, K = S;
  std::vector<int8_t> ha(size_t(M) * K), hb(size_t(N) * K); std::mt19937 rng(1); for (auto& x : ha) x = int8_t(int(rng() % 256) - 128); for (auto& x : hb) x = int8_t(int(rng() % 256) - 128);
  Buf A = mk(ha.size(), false), B = mk(hb.size(), false), C = mk(size_t(M) * N * 4, false), H = mk(std::max(ha.size(), size_t(M) * N * 4), true);
  auto up = [&](Buf& d, const void* src, size_t bytes) { std::memcpy(H.map, src, bytes); VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO}; vkBeginCommandBuffer(cb, &bi); VkBufferCopy r{0, 0, bytes}; vkCmdCopyBuffer(cb, H.b, d.b, 1, &r); vkEndCommandBuffer(cb); submit(); };
  up(A, ha.data(), ha.size()); up(B, hb.data(), hb.size());
  for (int ai = 2; ai < argc; ++ai) {
    std::string spec = argv[ai]; char file[256]; unsigned bm, bn, nt; std::sscanf(spec.c_str(), "%255[^:]:%u:%u:%u", file, &bm, &bn, &nt);
    auto code = readf(file); VkShaderModuleCreateInfo smi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO}; smi.codeSize = code.size() * 4; smi.pCode = code.data(); VkShaderModule sm; CK(vkCreateShaderModule(dev, &smi, nullptr, &sm));
    VkComputePipelineCreateInfo cpi{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO}; cpi.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}; cpi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT; cpi.stage.module = sm; cpi.stage.pName = "main"; cpi.layout = pl;
    VkPipeline pipe; CK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpi, nullptr, &pipe));
    struct { uint64_t a, b, c; uint32_t M, N, K; } pc{A.a, B.a, C.a, M, N, K};
    const uint32_t groups = (M / bm) * (N / bn);
    std::vector<double> ts;
    for (int rep = 0; rep < 12; ++rep) {
      const int inner = 10;
      VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO}; vkBeginCommandBuffer(cb, &bi);
      vkCmdResetQueryPool(cb, qp, 0, 2); vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe); vkCmdPushConstants(cb, pl, VK_SHADER_STAGE_COMPUTE_BIT, 0, 40, &pc);
      vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, qp, 0);
      for (int i = 0; i < inner; ++i) { vkCmdDispatch(cb, groups, 1, 1); VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER}; mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT; mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT; vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr); }
      vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, qp, 1); vkEndCommandBuffer(cb); submit();
      uint64_t t2[2]; CK(vkGetQueryPoolResults(dev, qp, 0, 2, 16, t2, 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
      if (rep >= 2) ts.push_back((t2[1] - t2[0]) * double(pp.limits.timestampPeriod) * 1e-6 / inner);
    }
    std::sort(ts.begin(), ts.end()); const double ms = ts[ts.size() / 2];
    // check samples
    { VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO}; vkBeginCommandBuffer(cb, &bi); VkBufferCopy r{0, 0, size_t(M) * N * 4}; vkCmdCopyBuffer(cb, C.b, H.b, 1, &r); vkEndCommandBuffer(cb); submit(); }
    const int32_t* hc = (const int32_t*)H.map; int bad = 0;
    for (int s = 0; s < 64; ++s) { uint32_t m = rng() % M, nn = rng() % N; long acc = 0; for (uint32_t k = 0; k < K; ++k) acc += long(ha[size_t(m) * K + k]) * hb[size_t(nn) * K + k]; if (acc != hc[size_t(nn) * M + m]) ++bad; }
    std::printf("%-22s %5u  %.4f ms  %7.1f TOPS  bad=%d\n", file, S, ms, 2.0 * M * N * double(K) / ms * 1e-9, bad);
    std::fflush(stdout);
  }
  return 0;
}
