// The Vulkan provider's generated fused kernels (src/vulkan/kernels/fused.cpp) and their
// run-time compiler (src/vulkan/runtime/compiler.hpp): one dispatch per plan, a plan's pipeline
// built once per structure, the disk cache across backends and its checks, kernel errors named
// by the failing step, and plans left to the step-by-step path. Results against the unfused
// chain in every dtype and layout: tests/conformance/fusion_test.cpp.
//
// CTest sets TENFERRO_VK_KERNEL_CACHE to a folder of the build tree that this test empties.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "tenferro/ops.hpp"
#include "vk_test_util.hpp"
#include "vulkan/options.hpp"
#include "vulkan/backend.hpp"
#include "vulkan/runtime/compiler.hpp"
#include "vulkan/runtime/pipelines.hpp"

namespace tenferro::vktest {
namespace {

Tensor iota(Backend& be, DType d, const Shape& shape, double scale, double shift) {
  Tensor h = host_empty(d, shape);
  for (std::int64_t i = 0; i < h.numel(); ++i)
    write_elem(h.storage()->host_data() + i * static_cast<std::int64_t>(dtype_size(d)), d,
               Val{static_cast<std::int64_t>(i * scale + shift), {i * scale + shift, 0.0}});
  return be.upload(h);
}

std::vector<double> values(Backend& be, const TensorView& t) {
  const Tensor h = be.download(to_contiguous(be, t));
  std::vector<double> v;
  for (std::int64_t i = 0; i < h.numel(); ++i)
    v.push_back(read_elem(h.storage()->host_data() + i * static_cast<std::int64_t>(dtype_size(h.dtype())), h.dtype()).c.real());
  return v;
}

// exp(sin(x) * y + 1): four steps, three inputs (the last a rank-0 one).
FusionPlan chain() {
  FusionPlan p;
  p.steps = {{OpId::sin, {-1}}, {OpId::mul, {0, -2}}, {OpId::add, {1, -3}}, {OpId::exp, {2}}};
  return p;
}

class FusedKernelTest : public VulkanTest {};

TEST_F(FusedKernelTest, OneDispatchPerPlan) {
  const Tensor x = iota(be(), DType::F32, {1000}, 0.01, -5), y = iota(be(), DType::F32, {1000}, -0.02, 3);
  const Tensor one = iota(be(), DType::F32, {}, 0, 1);
  const std::vector<TensorView> ins{x, y, one};
  be().profile_begin();
  const Tensor got = fused(be(), chain(), ins);
  const ProfileReport r = be().profile_end();
  ASSERT_TRUE(r.supported);
  EXPECT_EQ(r.dispatches, 1u);
  const Tensor want = exp(be(), add(be(), mul(be(), sin(be(), x), y), one));
  EXPECT_EQ(values(be(), got), values(be(), want));
}

// A plan's pipeline is built on its first use: later calls with other data, shapes and
// layouts of the same structure neither compile nor read the compiler's caches.
TEST_F(FusedKernelTest, PipelineBuiltOncePerStructure) {
  auto run = [&](const Shape& shape, double shift) {
    const Tensor x = iota(be(), DType::F64, shape, 0.5, shift), y = iota(be(), DType::F64, shape, 0.25, 1);
    const Tensor one = iota(be(), DType::F64, {}, 0, 1);
    (void)fused(be(), chain(), std::vector<TensorView>{x, y, one});
  };
  run({64}, 0);
  const vk::CompilerStats before = vk::compiler_stats();
  run({300}, 7);
  run({5}, -2);
  const vk::CompilerStats after = vk::compiler_stats();
  EXPECT_EQ(after.compiles, before.compiles);
  EXPECT_EQ(after.disk_hits, before.disk_hits);
  EXPECT_EQ(after.memory_hits, before.memory_hits);
}

// The disk cache: a source compiled once is read back (as by a later process) with the same
// SPIR-V, and a file that does not hold that source is not trusted.
TEST_F(FusedKernelTest, DiskCacheServesLaterBackendsAndChecksItsFiles) {
  const char* dir = std::getenv("TENFERRO_VK_KERNEL_CACHE");
  ASSERT_NE(dir, nullptr) << "CTest sets TENFERRO_VK_KERNEL_CACHE for this test";
  std::filesystem::remove_all(dir);
  const std::string source =
      "#version 450\nlayout(local_size_x = 1) in;\n// disk cache test\nvoid main() {}\n";
  const vk::CompilerStats s0 = vk::compiler_stats();
  const std::vector<std::uint32_t> first = vk::compile_glsl(source, "disk_cache_test");
  const vk::CompilerStats s1 = vk::compiler_stats();
  EXPECT_EQ(s1.compiles, s0.compiles + 1);
  ASSERT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()), 1);

  vk::test_hooks().compiler_memory_off = true;  // as a new process: memory holds nothing
  const std::vector<std::uint32_t> again = vk::compile_glsl(source, "disk_cache_test");
  const vk::CompilerStats s2 = vk::compiler_stats();
  EXPECT_EQ(again, first);
  EXPECT_EQ(s2.compiles, s1.compiles);
  EXPECT_EQ(s2.disk_hits, s1.disk_hits + 1);

  // A file of the same name holding another source (a hash collision, an edited file).
  const std::filesystem::path file = std::filesystem::directory_iterator(dir)->path();
  std::string bytes;
  {
    std::ifstream in(file, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const std::size_t at = bytes.find("disk cache test");
  ASSERT_NE(at, std::string::npos);
  bytes[at] = 'D';
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  const std::vector<std::uint32_t> third = vk::compile_glsl(source, "disk_cache_test");
  vk::test_hooks().compiler_memory_off = false;
  const vk::CompilerStats s3 = vk::compiler_stats();
  EXPECT_EQ(third, first);
  EXPECT_EQ(s3.compiles, s2.compiles + 1);
  EXPECT_EQ(s3.disk_hits, s2.disk_hits);
}

// The driver's pipeline cache persists beside the SPIR-V: a pipeline created from generated
// code writes it (with this device's header), and a later device reads it back; files of
// another driver, damaged or cut short are ignored (the pipelines are compiled as without one).
TEST_F(FusedKernelTest, PipelineCacheFileIsWrittenAndForeignFilesAreIgnored) {
  const char* dir = std::getenv("TENFERRO_VK_KERNEL_CACHE");
  ASSERT_NE(dir, nullptr) << "CTest sets TENFERRO_VK_KERNEL_CACHE for this test";
  std::filesystem::remove_all(dir);
  const vk::Device& dev = static_cast<vk::VulkanBackend&>(be()).device();
  const std::string source = "#version 450\nlayout(local_size_x = 1) in;\n// pipeline cache test\nvoid main() {}\n";
  const std::vector<std::uint32_t> spirv = vk::compile_glsl(source, "pipeline_cache_test");
  auto create = [&](const std::string& key) {
    vk::Pipelines p(dev);
    EXPECT_NE(p.get_generated(key, [&] { return spirv; }, 1), VK_NULL_HANDLE);
  };
  create("a");
  std::filesystem::path file;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().filename().string().rfind("pipelines-", 0) == 0) file = e.path();
  ASSERT_FALSE(file.empty()) << "no pipeline cache file in " << dir;
  VkPipelineCacheHeaderVersionOne h{};
  {
    std::ifstream in(file, std::ios::binary);
    ASSERT_TRUE(in.read(reinterpret_cast<char*>(&h), sizeof h));
  }
  VkPhysicalDeviceProperties props{};
  vkGetPhysicalDeviceProperties(dev.physical(), &props);
  EXPECT_EQ(h.headerVersion, VK_PIPELINE_CACHE_HEADER_VERSION_ONE);
  EXPECT_EQ(h.vendorID, props.vendorID);
  EXPECT_EQ(h.deviceID, props.deviceID);
  EXPECT_EQ(std::memcmp(h.pipelineCacheUUID, props.pipelineCacheUUID, VK_UUID_SIZE), 0);
  create("b");  // reads the file written above

  std::string bytes(std::filesystem::file_size(file), '\0');
  {
    std::ifstream in(file, std::ios::binary);
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  auto rewrite = [&](const std::string& b) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << b;
  };
  std::string foreign = bytes;
  foreign[16] = static_cast<char>(foreign[16] ^ 0x5a);  // another driver build (pipelineCacheUUID)
  rewrite(foreign);
  create("c");
  rewrite(bytes.substr(0, 10));  // cut short
  create("d");
  std::string damaged = bytes;
  damaged[0] = static_cast<char>(0x7f);  // a header length beyond the file
  damaged[3] = static_cast<char>(0x7f);
  rewrite(damaged);
  create("e");
  // The device stays usable: an op after all of these runs.
  const Tensor x = iota(be(), DType::F32, {16}, 1, 0);
  EXPECT_EQ(values(be(), add(be(), x, x))[3], 6.0);
}

// An integer division by zero inside a fused kernel is raised at the next synchronization
// naming the step's op (not the plan's last op); the backend and its tensors stay usable.
TEST_F(FusedKernelTest, KernelErrorNamesTheFailingStep) {
  const Tensor x = iota(be(), DType::I32, {100}, 1, -50), y = iota(be(), DType::I32, {100}, 1, -50);
  FusionPlan p;
  p.steps = {{OpId::div, {-1, -2}}, {OpId::add, {0, -1}}};  // x / y + x, y has a 0 at i = 50
  try {
    const Tensor r = fused(be(), p, std::vector<TensorView>{x, y});
    be().synchronize();
    ADD_FAILURE() << "no error raised";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::numerical_failure);
    EXPECT_EQ(e.op(), "div");
  }
  const Tensor s = add(be(), x, y);
  EXPECT_EQ(values(be(), s)[0], -100.0);
}

// A plan ending in a reduction over compact inputs runs in the reduce kernel's passes, the
// chain computed where the first pass reads x: as many dispatches as the reduction alone. Its
// max is the unfused one's; its sum the unfused one's within the reordering bound of a sum
// (SEMANTICS.md: sums are reassociated), 2 n eps sum|x|.
TEST_F(FusedKernelTest, ReductionRunsInTheReducePasses) {
  const Tensor x = iota(be(), DType::F32, {4096, 64}, 0.001, -3), y = iota(be(), DType::F32, {4096, 64}, -0.0005, 1);
  const Tensor chain = mul(be(), sin(be(), x), y);
  for (const Axes& axes : {Axes{0}, Axes{1}, Axes{1, 0}})
    for (OpId op : {OpId::reduce_sum, OpId::reduce_max}) {
      FusionPlan p;
      p.steps = {{OpId::sin, {-1}}, {OpId::mul, {0, -2}}};
      p.reduce = op;
      p.reduce_axes = axes;
      be().profile_begin();
      const Tensor want = reduce(be(), op, chain, axes);
      const ProfileReport alone = be().profile_end();
      be().profile_begin();
      const Tensor got = fused(be(), p, std::vector<TensorView>{x, y});
      const ProfileReport r = be().profile_end();
      EXPECT_EQ(r.dispatches, alone.dispatches);
      const std::vector<double> g = values(be(), got), w = values(be(), want);
      if (op == OpId::reduce_max) {
        EXPECT_EQ(g, w);
        continue;
      }
      const std::vector<double> s = values(be(), reduce_sum(be(), abs(be(), chain), axes));
      const double n = static_cast<double>(chain.numel() / got.numel());
      ASSERT_EQ(g.size(), w.size());
      for (std::size_t i = 0; i < g.size(); ++i)
        EXPECT_LE(std::abs(g[i] - w[i]), 2 * n * 0x1p-23 * s[i]) << "output " << i;
    }
}

// Plans outside the generator's single element type run step by step, with the same results:
// complex abs (a real result) meeting a real input.
TEST_F(FusedKernelTest, ComplexAbsRunsStepByStep) {
  const Tensor z = iota(be(), DType::C32, {50}, 0.5, -3), w = iota(be(), DType::F32, {50}, 0.1, 0);
  FusionPlan p;
  p.steps = {{OpId::abs, {-1}}, {OpId::mul, {0, -2}}};
  be().profile_begin();
  const Tensor got = fused(be(), p, std::vector<TensorView>{z, w});
  const ProfileReport r = be().profile_end();
  EXPECT_GT(r.dispatches, 1u);
  EXPECT_EQ(values(be(), got), values(be(), mul(be(), abs(be(), z), w)));
}

}  // namespace
}  // namespace tenferro::vktest
