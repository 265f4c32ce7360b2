// The WebGPU runtime (src/webgpu/runtime.hpp) on wgpu-native: adapters, buffers, transfers,
// WGSL dispatches and compile errors, on every adapter wgpu-native finds (lavapipe through its
// Vulkan backend in CI). Between them these tests call every function api.hpp loads, so a
// wgpu-native function that is a stub (it aborts the process) fails them; StubsAreNotLoaded
// checks the list against the stubs known.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "tenferro/error.hpp"
#include "webgpu/api.hpp"
#include "webgpu/runtime.hpp"

namespace tenferro::webgpu {
namespace {

// The build fetched wgpu-native (tools/fetch-wgpu.sh): it must load, and find an adapter where
// a Vulkan device exists (lavapipe at least).
TEST(WebGpuRuntime, LibraryLoadsAndAdaptersAreListed) {
  ASSERT_NE(api(), nullptr) << unavailable_reason();
  const auto& list = adapters();
  ASSERT_FALSE(list.empty()) << "wgpu-native found no adapter";
  for (std::size_t i = 0; i < list.size(); ++i) {
    const AdapterInfo& a = list[i];
    std::printf("webgpu %d: %s (%s) %s\n", a.row.ordinal, a.row.name.c_str(), a.row.type.c_str(),
                a.row.details.front().c_str());
    EXPECT_EQ(a.row.backend, "webgpu");
    EXPECT_FALSE(a.row.name.empty());
    EXPECT_GE(a.max_storage_binding, std::uint64_t{128} << 20) << "WebGPU's minimum is 128 MiB";
    EXPECT_GE(a.max_storage_buffers, 8u);
    EXPECT_GE(a.max_workgroups, 65535u);
  }
}

// wgpu-native's functions that abort the process (its unimplemented.rs): api.hpp loads none.
TEST(WebGpuRuntime, StubsAreNotLoaded) {
  const std::vector<std::string_view> stubs = {
      "wgpuGetProcAddress", "wgpuBufferGetMapState", "wgpuDeviceCreateComputePipelineAsync",
      "wgpuDeviceCreateRenderPipelineAsync", "wgpuInstanceHasWGSLLanguageFeature", "wgpuInstanceWaitAny",
      "wgpuBufferReadMappedRange", "wgpuBufferWriteMappedRange", "wgpuShaderModuleGetCompilationInfo"};
  std::size_t n = 0;
  const char* const* names = function_names(&n);
  ASSERT_GT(n, 30u);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string_view f = names[i];
    EXPECT_FALSE(f.ends_with("SetLabel")) << f;
    for (std::string_view s : stubs) EXPECT_NE(f, s);
  }
}

class WebGpuDevice : public ::testing::TestWithParam<int> {};

TEST_P(WebGpuDevice, BuffersRoundTripAtAnyLengthAndOffset) {
  Device dev(GetParam());
  std::mt19937 rng(1);
  for (std::size_t bytes : {1u, 3u, 4u, 7u, 4096u, 1000003u}) {
    std::vector<std::uint8_t> in(bytes), out(bytes, 0xEE);
    for (auto& b : in) b = static_cast<std::uint8_t>(rng());
    const Buffer buf = dev.create_buffer(bytes + 8);
    EXPECT_GE(buf.size(), bytes + 8);
    EXPECT_EQ(buf.size() % 4, 0u);
    dev.write(buf, 8, in.data(), bytes);
    dev.read(buf, 8, out.data(), bytes);
    EXPECT_EQ(in, out) << bytes << " bytes";
  }
  EXPECT_THROW(dev.create_buffer(dev.info().max_buffer + 4), Error);
  const Buffer after = dev.create_buffer(16);  // still usable
  EXPECT_EQ(after.size(), 16u);
}

// One dispatch of a WGSL kernel over more than 65,535 workgroups (a 2-D grid), checked
// element by element.
TEST_P(WebGpuDevice, KernelsRunOverTwoDimensionalGrids) {
  Device dev(GetParam());
  const std::string wgsl = R"(
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = (wg.y * nw.x + wg.x) * 64u + li;
  if (i < arrayLength(&c)) { c[i] = a[i] * 2.0 + b[i]; }
}
)";
  const auto k = dev.compile("axpy", wgsl);
  const std::uint32_t n = 65535u * 64u + 1000u;  // 65,551 workgroups of 64
  std::vector<float> a(n), b(n), c(n);
  std::iota(a.begin(), a.end(), 0.0f);
  for (std::uint32_t i = 0; i < n; ++i) b[i] = static_cast<float>(i % 7);
  const Buffer ba = dev.create_buffer(n * 4), bb = dev.create_buffer(n * 4), bc = dev.create_buffer(n * 4);
  dev.write(ba, 0, a.data(), n * 4);
  dev.write(bb, 0, b.data(), n * 4);
  const Buffer* bind[] = {&ba, &bb, &bc};
  const std::uint32_t groups = (n + 63) / 64, x = 65535, y = (groups + x - 1) / x;
  dev.dispatch(*k, bind, x, y);
  dev.synchronize();
  dev.read(bc, 0, c.data(), n * 4);
  for (std::uint32_t i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] * 2.0f + b[i]) << i;
}

// A kernel that does not compile is an Error naming it, with the compiler's message; the device
// compiles and runs the next one.
TEST_P(WebGpuDevice, CompileErrorsAreErrorsAndTheDeviceStaysUsable) {
  Device dev(GetParam());
  try {
    dev.compile("broken", "@compute @workgroup_size(1) fn main() { let x: f32 = undefined_name; }");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::backend_failure);
    EXPECT_NE(std::string(e.what()).find("broken"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("undefined_name"), std::string::npos) << e.what();
  }
  const auto k = dev.compile("fill", R"(
@group(0) @binding(0) var<storage, read_write> c: array<u32>;
@compute @workgroup_size(1) fn main(@builtin(global_invocation_id) g: vec3<u32>) { c[g.x] = g.x + 7u; }
)");
  const Buffer b = dev.create_buffer(16);
  const Buffer* bind[] = {&b};
  dev.dispatch(*k, bind, 4);
  std::uint32_t out[4];
  dev.read(b, 0, out, 16);
  for (std::uint32_t i = 0; i < 4; ++i) EXPECT_EQ(out[i], i + 7);
}

// A batch (begin_batch .. end_batch) runs its dispatches in order, each with its own parameter
// words (some too large to share the batch's parameter block with many others), and a write or a
// read in the middle of it sees exactly the dispatches recorded before it: c[i] = 3 c[i] + t is
// checked against the same sequence on the host, across several submissions.
TEST_P(WebGpuDevice, BatchesRunInOrderAroundWritesAndReads) {
  Device dev(GetParam());
  const auto k = dev.compile("step", R"(
@group(0) @binding(0) var<storage, read> p: array<i32>;
@group(0) @binding(1) var<storage, read_write> c: array<u32>;
@compute @workgroup_size(1) fn main() { let i = u32(p[0]); c[i] = c[i] * 3u + u32(p[1]); }
)");
  std::uint32_t want[4] = {1, 2, 3, 4}, got[4] = {};
  const Buffer c = dev.create_buffer(16);
  dev.write(c, 0, want, 16);
  const Buffer* bind[] = {&c};
  dev.begin_batch();
  for (std::int32_t t = 0; t < 300; ++t) {
    std::vector<std::int32_t> words(t % 10 == 0 ? 5000 : 2 + t % 37, 0);  // 20 KB every tenth
    words[0] = t % 4;
    words[1] = t;
    dev.dispatch(*k, words, bind, 1, 1, 1);
    want[t % 4] = want[t % 4] * 3u + static_cast<std::uint32_t>(t);
    if (t == 150) {  // a write after 151 dispatches
      for (std::uint32_t i = 0; i < 4; ++i) want[i] = 100 + i;
      dev.write(c, 0, want, 16);
    }
    if (t == 200 || t == 299) {
      dev.read(c, 0, got, 16);
      for (int i = 0; i < 4; ++i) ASSERT_EQ(got[i], want[i]) << "after dispatch " << t << ", element " << i;
    }
  }
  dev.end_batch();
  dev.read(c, 0, got, 16);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(got[i], want[i]) << "element " << i;
}

std::vector<int> ordinals() {
  std::vector<int> out;
  for (const AdapterInfo& a : adapters()) out.push_back(a.row.ordinal);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Adapters, WebGpuDevice, ::testing::ValuesIn(ordinals()),
                         [](const auto& p) { return "adapter" + std::to_string(p.param); });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(WebGpuDevice);

TEST(WebGpuRuntime, UnknownOrdinalIsAnError) {
  try {
    Device dev(static_cast<int>(adapters().size()) + 5);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
  }
}

}  // namespace
}  // namespace tenferro::webgpu
