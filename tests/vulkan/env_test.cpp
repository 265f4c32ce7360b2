// An invalid TENFERRO_VK_* value (set here before the first Vulkan backend of this process):
// every creation of a Vulkan backend raises Error{invalid_argument} naming the variable before
// any device work, the CPU backend stays usable, and once the value is valid the backend is
// created with it (nothing was kept from the failed attempts).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <utility>

#include "tenferro/ops.hpp"
#include "tenferro/runtime.hpp"
#include "vulkan/options.hpp"
#include "vulkan/provider.hpp"

namespace tenferro {
namespace {

TEST(VulkanEnv, InvalidValueFailsEveryCreationUntilFixed) {
  if (vk::list_vulkan_devices().empty()) GTEST_SKIP() << "no Vulkan device present";
  const int ordinal = vk::default_vulkan_ordinal();
  for (const char* bad : {"1X", "-5", "1.5.5"}) {
    ::setenv("TENFERRO_VK_MEMORY_CAP", bad, 1);
    for (int k = 0; k < 2; ++k) {
      try {
        vk::vulkan_backend(ordinal);
        ADD_FAILURE() << "TENFERRO_VK_MEMORY_CAP=" << bad << " accepted";
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
        EXPECT_EQ(e.arg(), "TENFERRO_VK_MEMORY_CAP");
        EXPECT_NE(std::string(e.what()).find(std::string("TENFERRO_VK_MEMORY_CAP='") + bad + "'"), std::string::npos)
            << e.what();
      }
    }
  }
  ::setenv("TENFERRO_VK_MEMORY_CAP", "1G", 1);
  ::setenv("TENFERRO_VK_PROFILE", "maybe", 1);
  EXPECT_THROW(get_backend("vulkan", ordinal), Error);
  // The CPU backend does not read the Vulkan settings.
  const Tensor x = host_tensor<double>({2}, {1.0, 2.0});
  EXPECT_EQ(to_vector<double>(add(cpu_backend(), x, x)), (std::vector<double>{2.0, 4.0}));
  ::unsetenv("TENFERRO_VK_PROFILE");
  // Each other variable alone: the provider's settings first, then the accuracy defaults
  // (read once the provider's settings are), in the order the creation reads them.
  const std::pair<const char*, const char*> others[] = {
      {"TENFERRO_VK_PROFILE", "maybe"},          {"TENFERRO_VK_VALIDATION", "2"},
      {"TENFERRO_VK_CACHE", "1GB"},              {"TENFERRO_VK_SPIN_US", "-1"},
      {"TENFERRO_VK_EARLY_COMMANDS", "0"},       {"TENFERRO_VK_GEMM_TILE", "64,64,16,4,4zz"},
      {"TENFERRO_VK_GEMM_STAGE", "enable"},      {"TENFERRO_VK_PIPELINE_STATS", "1 "},
      {"TENFERRO_VK_GEMM_OZAKI", "7"},           {"TENFERRO_VK_F32_VIA_F64", "3"}};
  for (const auto& [name, bad] : others) {
    ::setenv(name, bad, 1);
    try {
      get_backend("vulkan", ordinal);
      ADD_FAILURE() << name << "=" << bad << " accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
      EXPECT_EQ(e.arg(), name);
    }
    ::unsetenv(name);
  }
  ::setenv("TENFERRO_VK_PROFILE", "no", 1);
  Backend& be = get_backend("vulkan", ordinal);
  EXPECT_EQ(vk::options().memory_cap, std::uint64_t{1} << 30);
  EXPECT_FALSE(vk::options().profile);
  EXPECT_EQ(vk::allocator_stats(be).cap, std::uint64_t{1} << 30);
  EXPECT_EQ(to_vector<double>(download(be, add(be, upload(be, x), upload(be, x)))), (std::vector<double>{2.0, 4.0}));
}

}  // namespace
}  // namespace tenferro
