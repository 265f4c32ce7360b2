// Standalone probe (tools/coopmat_probe/README.md, tools/cm2_probe/README.md): the device's
// cooperative-matrix capabilities (VK_KHR_cooperative_matrix, VK_NV_cooperative_matrix2 with its
// workgroup-scope, flexible-dimension shapes), then int8 GEMM throughput with those features on.
// Usage: probe SIZE FILE.spv:BM:BN:THREADS... (SIZE 0: capabilities only); per shader one
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
// Vulkan 1.3.239 (Debian 12) lacks these; values and layouts from the Vulkan registry.
struct CmFeatKHR { VkStructureType s; void* n; VkBool32 cm, robust; };
struct CmPropKHR { VkStructureType s; void* n; uint32_t M, N, K, A, B, C, R; VkBool32 sat; uint32_t scope; };
struct Cm2Feat { VkStructureType s; void* n; VkBool32 wg, flex, red, conv, perel, tensor, block; };
struct Cm2Prop { VkStructureType s; void* n; uint32_t maxwg, maxdim, reserved; };
struct CmFlex { VkStructureType s; void* n; uint32_t Mg, Ng, Kg, A, B, C, R; VkBool32 sat; uint32_t scope, wginv; };
const auto kCmFeatKHR = VkStructureType(1000506000), kCmPropKHR = VkStructureType(1000506001),
           kCm2Feat = VkStructureType(1000593000), kCmFlex = VkStructureType(1000593001), kCm2Prop = VkStructureType(1000593002);
const char* ty(uint32_t t) { static const char* n[] = {"f16", "f32", "f64", "s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64"}; return t < 11 ? n[t] : "?"; }
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
  std::printf("driver %u.%u.%u api %u.%u.%u\n", pp.driverVersion >> 22, (pp.driverVersion >> 14) & 0xff, (pp.driverVersion >> 6) & 0xff, VK_VERSION_MAJOR(pp.apiVersion), VK_VERSION_MINOR(pp.apiVersion), VK_VERSION_PATCH(pp.apiVersion));
  uint32_t ne = 0; vkEnumerateDeviceExtensionProperties(pd, nullptr, &ne, nullptr); std::vector<VkExtensionProperties> es(ne); vkEnumerateDeviceExtensionProperties(pd, nullptr, &ne, es.data());
  bool khr = false, cm2 = false;
  for (auto& e : es) if (std::strstr(e.extensionName, "cooperative") || std::strstr(e.extensionName, "COOPERATIVE")) {
    std::printf("ext %s v%u\n", e.extensionName, e.specVersion);
    khr = khr || !std::strcmp(e.extensionName, "VK_KHR_cooperative_matrix"); cm2 = cm2 || !std::strcmp(e.extensionName, "VK_NV_cooperative_matrix2"); }
  CmFeatKHR fk{kCmFeatKHR}; Cm2Feat f2{kCm2Feat}; Cm2Prop p2{kCm2Prop};
  { VkPhysicalDeviceFeatures2 q{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2}; fk.n = cm2 ? &f2 : nullptr; q.pNext = khr ? &fk : nullptr; vkGetPhysicalDeviceFeatures2(pd, &q);
    VkPhysicalDeviceProperties2 r{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2}; r.pNext = cm2 ? &p2 : nullptr; vkGetPhysicalDeviceProperties2(pd, &r); }
  std::printf("khr cooperativeMatrix %u; cm2 workgroupScope %u flexibleDimensions %u reductions %u conversions %u perElement %u tensorAddressing %u blockLoads %u; maxWorkgroupSize %u maxDimension %u reservedShared %u\n",
              fk.cm, f2.wg, f2.flex, f2.red, f2.conv, f2.perel, f2.tensor, f2.block, p2.maxwg, p2.maxdim, p2.reserved);
  if (khr) { auto g = (VkResult(*)(VkPhysicalDevice, uint32_t*, CmPropKHR*))vkGetInstanceProcAddr(inst, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR");
    uint32_t c = 0; g(pd, &c, nullptr); std::vector<CmPropKHR> v(c, CmPropKHR{kCmPropKHR}); g(pd, &c, v.data());
    for (auto& x : v) std::printf("khr %ux%ux%u %s,%s,%s->%s sat %u scope %u\n", x.M, x.N, x.K, ty(x.A), ty(x.B), ty(x.C), ty(x.R), x.sat, x.scope); }
  if (cm2) { auto g = (VkResult(*)(VkPhysicalDevice, uint32_t*, CmFlex*))vkGetInstanceProcAddr(inst, "vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV");
    uint32_t c = 0; if (g) { g(pd, &c, nullptr); std::vector<CmFlex> v(c, CmFlex{kCmFlex}); g(pd, &c, v.data());
    for (auto& x : v) std::printf("flex %ux%ux%u %s,%s,%s->%s sat %u scope %u invocations %u\n", x.Mg, x.Ng, x.Kg, ty(x.A), ty(x.B), ty(x.C), ty(x.R), x.sat, x.scope, x.wginv); } }
  if (argc < 2 || std::atoi(argv[1]) == 0) return 0;
  float pr = 1; VkDeviceQueueCreateInfo qi{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO}; qi.queueFamilyIndex = 0; qi.queueCount = 1; qi.pQueuePriorities = &pr;
  VkPhysicalDeviceCooperativeMatrixFeaturesNV cm{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV}; cm.cooperativeMatrix = VK_TRUE;
  // KHR and NV_cooperative_matrix2 features chained after the NV one where present.
  f2.n = nullptr; fk.n = cm2 ? &f2 : nullptr; cm.pNext = khr ? &fk : nullptr;
  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES}; f13.pNext = &cm;
  { VkPhysicalDeviceFeatures2 q{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2}; VkPhysicalDeviceVulkan13Features t{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES}; q.pNext = &t; vkGetPhysicalDeviceFeatures2(pd, &q); f13.maintenance4 = t.maintenance4; f13.subgroupSizeControl = t.subgroupSizeControl; }
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES}; f12.bufferDeviceAddress = 1; f12.shaderInt8 = 1; f12.storageBuffer8BitAccess = 1; f12.vulkanMemoryModel = 1; f12.vulkanMemoryModelDeviceScope = 1; f12.pNext = &f13;
  VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES}; f11.pNext = &f12;
  VkPhysicalDeviceFeatures2 f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2}; f.features.shaderInt64 = 1; f.pNext = &f11;
  std::vector<const char*> ext{VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME}; if (khr) ext.push_back("VK_KHR_cooperative_matrix"); if (cm2) ext.push_back("VK_NV_cooperative_matrix2");
  VkDeviceCreateInfo di{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO}; di.pNext = &f; di.queueCreateInfoCount = 1; di.pQueueCreateInfos = &qi; di.enabledExtensionCount = uint32_t(ext.size()); di.ppEnabledExtensionNames = ext.data();
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
