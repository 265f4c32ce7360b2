// to(x, device), to_host, to_vector and item on every placement, and the path of device memory
// the host cannot map (forced on any Vulkan device by vk::test_hooks().unmapped_tensors).
#include <random>

#include "api_support.hpp"
#include "elementwise.hpp"
#ifdef TENFERRO_HAVE_VULKAN
#include "vulkan/options.hpp"
#endif

namespace tenferro::test {
namespace {

/// Every transfer path for one placement of the device tensors: to between every pair of
/// devices, to_host, to_vector and item of compact tensors and of strided views.
void check_transfers(const std::vector<Device>& devs) {
  std::mt19937_64 rng(31);
  const RefTensor a = random_ref(DType::F64, {3, 4}, rng);
  const RefTensor z = ref::rounded(random_ref(DType::C32, {5}, rng));
  for (const Device& from : devs) {
    const Tensor ta = put_on(a, from), tz = put_on(z, from);
    for (const Device& dest : devs) {
      SCOPED_TRACE(from.name() + " -> " + dest.name());
      const Tensor moved = to(ta, dest);
      EXPECT_EQ(moved.device(), dest);
      EXPECT_NE(moved.storage(), ta.storage());  // a copy, also to the same device
      TENFERRO_EXPECT_MATCH(a, read_on(moved), Tol{});
      TENFERRO_EXPECT_MATCH(z, read_on(to(tz, dest)), Tol{});
      // A strided view moves as its logical values (compact on arrival).
      const TensorView view = ta.transpose({1, 0}).slice({1, 0}, {4, 3}, {2, 1});
      const Tensor mv = to(view, dest);
      EXPECT_TRUE(mv.is_compact());
      TENFERRO_EXPECT_MATCH(read_on(view), read_on(mv), Tol{});
    }
    SCOPED_TRACE(from.name());
    const Tensor h = to_host(ta);
    EXPECT_EQ(h.device(), Device::cpu());
    EXPECT_EQ(h.domain(), kHostDomain);
    TENFERRO_EXPECT_MATCH(a, read_on(h), Tol{});
    std::vector<double> want;
    for (const c64& x : a.v) want.push_back(x.real());
    EXPECT_EQ(to_vector<double>(ta), want);
    std::vector<double> want_t;  // the transposed view in colex order
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 3; ++i) want_t.push_back(a.v[static_cast<std::size_t>(i + 3 * j)].real());
    std::vector<double> got_t = to_vector<double>(ta.transpose({1, 0}));
    // colex of the [4, 3] view: element (j, i) at j + 4 i.
    std::vector<double> want_colex(12);
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 3; ++i) want_colex[static_cast<std::size_t>(j + 4 * i)] = a.v[static_cast<std::size_t>(i + 3 * j)].real();
    EXPECT_EQ(got_t, want_colex);
    EXPECT_EQ(item<double>(ta.slice({2, 3}, {3, 4}, {1, 1})), a.v[11].real());
    expect_api_error(ErrorKind::invalid_argument, "item", "x", [&] { (void)item<double>(ta); });
    expect_api_error(ErrorKind::dtype_mismatch, "to_vector", "t", [&] { (void)to_vector<float>(ta); });
  }
}

TEST(ApiTransfers, EveryPairOfDevices) { check_transfers(api_devices()); }

#ifdef TENFERRO_HAVE_VULKAN
/// Sets vk::test_hooks().unmapped_tensors for a scope.
struct UnmappedTensors {
  UnmappedTensors() { vk::test_hooks().unmapped_tensors = true; }
  ~UnmappedTensors() { vk::test_hooks().unmapped_tensors = false; }
};

TEST(ApiTransfers, DeviceMemoryTheHostCannotMap) {
  if (!vulkan_available()) GTEST_SKIP() << "no Vulkan device";
  const Device vk = Device::vulkan();
  Backend& be = backend_for(vk);
  UnmappedTensors scope;
  const Tensor t = tensor<float>({2, 2}, {1, 2, 3, 4}, vk);
  EXPECT_EQ(t.placement().memory, MemoryKind::Device);
  EXPECT_FALSE(t.placement().host_visible());
  try {
    (void)map_read(t);
    ADD_FAILURE() << "map_read of unmapped device memory succeeded";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::host_access) << e.what();
  }
  const TransferStats before = be.transfer_stats();
  EXPECT_EQ(to_vector<float>(t), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(to_vector<float>(t * 2.0f + 1), (std::vector<float>{3, 5, 7, 9}));
  EXPECT_EQ(item<float>(sum(t)), 10.0f);
  const TransferStats after = be.transfer_stats();
  EXPECT_GE(after.downloads - before.downloads, 3u);  // every read is a download
  check_transfers(api_devices());
}
#endif

}  // namespace
}  // namespace tenferro::test
