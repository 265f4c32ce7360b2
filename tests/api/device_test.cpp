// Devices: names, parsing, the default, the device of a tensor.
#include <optional>

#include "api_support.hpp"
#include "tenferro/runtime.hpp"

namespace tenferro::test {
namespace {

TEST(ApiDevice, CpuNamesAndParses) {
  const Device cpu = Device::cpu();
  EXPECT_TRUE(cpu.is_cpu());
  EXPECT_EQ(cpu.name(), "cpu");
  EXPECT_EQ(Device::parse("cpu"), cpu);
  EXPECT_EQ(Device(), cpu);
  EXPECT_FALSE(cpu.description().empty());
  const std::vector<Device> all = devices();
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all.front(), cpu);
}

TEST(ApiDevice, VulkanNamesRoundTrip) {
  if (!vulkan_available()) GTEST_SKIP() << "no Vulkan device";
  const Device vk = Device::vulkan();
  EXPECT_EQ(vk.kind(), DeviceKind::Vulkan);
  EXPECT_EQ(vk.name(), "vulkan:" + std::to_string(vk.ordinal()));
  EXPECT_EQ(Device::parse(vk.name()), vk);
  EXPECT_EQ(Device::parse("vulkan"), vk);
  EXPECT_EQ(Device::vulkan(vk.ordinal()), vk);
  EXPECT_NE(vk, Device::cpu());
  EXPECT_NE(vk.description().find(backend_for(vk).device_name()), std::string::npos) << vk.description();
  const std::vector<Device> all = devices();
  EXPECT_NE(std::find(all.begin(), all.end(), vk), all.end());
  expect_api_error(ErrorKind::invalid_argument, "vulkan", "ordinal", [] { (void)Device::parse("vulkan:9999"); });
}

TEST(ApiDevice, BadNamesAreInvalidArgument) {
  for (const char* bad : {"gpu", "", "cpu:x", "vulkan:", "vulkan:-1", "vulkan:1x", "0"}) {
    SCOPED_TRACE(bad);
    expect_api_error(ErrorKind::invalid_argument, "Device", "name", [&] { (void)Device::parse(bad); });
  }
}

TEST(ApiDevice, DefaultDeviceIsListedAndMatchesTheDefaultBackend) {
  const Device d = default_device();
  const std::vector<Device> all = devices();
  EXPECT_NE(std::find(all.begin(), all.end(), d), all.end()) << d.name();
  EXPECT_EQ(&backend_for(d), &default_backend());
}

// Without TENFERRO_DEVICE the default is a GPU, else the CPU backend: never a CPU device of a GPU
// API (lavapipe), whatever devices this machine lists.
TEST(ApiDevice, DefaultDeviceIsNeverAVulkanCpuDevice) {
  const std::optional<DeviceInfo> info = device_info(default_backend());
  ASSERT_TRUE(info.has_value());
  bool gpu = false;
  for (const DeviceInfo& x : list_devices()) gpu = gpu || (x.backend != "cpu" && x.type != "cpu");
  if (gpu) {
    EXPECT_NE(info->type, "cpu") << info->name;
  } else {
    EXPECT_EQ(info->backend, "cpu") << info->name;
  }
}

TEST(ApiDevice, TensorsKnowTheirDevice) {
  for (const Device& d : api_devices()) {
    SCOPED_TRACE(d.name());
    const Tensor t = zeros({2, 3}, DType::F32, d);
    EXPECT_EQ(t.device(), d);
    EXPECT_EQ(t.transpose({1, 0}).device(), d);  // a view: same storage, same device
    EXPECT_EQ(device_of(backend_for(d)), d);
    // The domain of a device tensor maps back to its backend (host tensors: the CPU backend).
    if (!d.is_cpu()) {
      EXPECT_EQ(registered_backend(t.domain()), &backend_for(d));
    }
  }
  EXPECT_EQ(host_tensor<double>({2}, {1, 2}).device(), Device::cpu());
  expect_api_error(ErrorKind::invalid_argument, "device", "tensor", [] { (void)TensorView().device(); });
}

}  // namespace
}  // namespace tenferro::test
