// Every WGSL kernel of the WebGPU backend (src/webgpu/catalog.hpp) compiles with wgpu-native's
// naga into a compute pipeline on the first adapter (lavapipe in CI), whether or not a
// conformance test dispatches it. tests/webgpu/tint_check.py compiles the same kernels with Tint.
#include <gtest/gtest.h>

#include <cctype>
#include <set>
#include <string>

#include "tenferro/error.hpp"
#include "webgpu/api.hpp"
#include "webgpu/catalog.hpp"
#include "webgpu/runtime.hpp"

namespace tenferro::webgpu {
namespace {

TEST(WebGpuCatalog, HasEveryFamilyAndUniqueFileNames) {
  const auto kernels = kernel_catalog();
  ASSERT_FALSE(kernels.empty());
  std::set<std::string> names;
  for (const auto& [name, wgsl] : kernels) {
    EXPECT_TRUE(names.insert(name).second) << "duplicate kernel name " << name;
    EXPECT_FALSE(name.empty());
    for (char c : name) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '_') << name;
    EXPECT_NE(wgsl.find("fn main("), std::string::npos) << name;
  }
  for (const char* k : {"copy_byte", "copy_u32x4", "fill_byte", "fill_u32x4", "ew_add_f32", "ew_compare_c32_NE",
                        "ew_compare_i32_GE", "ew_select_c32", "reduce_sum_c32", "reduce_max_f32", "gemm_f32",
                        "gemm_c32", "triangular_byte", "gather_u32x2", "cast_f32_i32", "cast_c32_bool",
                        "scatter_add_c32", "scatter_replace_c64", "scatter_max_i32"})
    EXPECT_TRUE(names.count(k)) << "missing " << k;
  EXPECT_FALSE(names.count("ew_compare_c32_LT")) << "complex operands are not ordered";
  EXPECT_FALSE(names.count("scatter_max_c32")) << "complex operands are not ordered";
}

TEST(WebGpuCatalog, EveryKernelCompilesWithNaga) {
  ASSERT_NE(api(), nullptr) << unavailable_reason();
  ASSERT_FALSE(adapters().empty()) << "wgpu-native found no adapter";
  Device dev(0);
  std::printf("naga on %s: compiling the catalog\n", dev.info().row.name.c_str());
  const auto kernels = kernel_catalog();
  int failed = 0;
  for (const auto& [name, wgsl] : kernels) {
    try {
      dev.compile(name, wgsl);
    } catch (const Error& e) {
      ++failed;
      ADD_FAILURE() << "naga rejects kernel " << name << ":\n" << e.what();
    }
  }
  std::printf("naga: %zu kernels, %d rejected\n", kernels.size(), failed);
}

}  // namespace
}  // namespace tenferro::webgpu
