// Every op family runs as GPU kernels on device memory. The transfer counters of the
// Vulkan backend must not move while ops of every family run (no op downloads its inputs to
// compute on the host); they move only for explicit upload/download.
#include <gtest/gtest.h>

#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"
#include "tenferro/runtime.hpp"

namespace tenferro {
namespace {

TEST(NoTransfer, EveryOpFamilyRunsWithoutHostTransfers) {
  if (!vulkan_available()) GTEST_SKIP() << "no Vulkan device";
  Backend& be = get_backend("vulkan", -1);
  std::vector<double> v(12);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = 0.25 * static_cast<double>(i) + 0.5;
  const Tensor x = upload(be, host_tensor<double>({3, 4}, v));
  const Tensor y = upload(be, host_tensor<double>({3, 4}, v));
  const Tensor idx = upload(be, host_tensor<std::int64_t>({2, 1}, {2, 0}));
  const Tensor starts = upload(be, host_tensor<std::int64_t>({2}, {1, 1}));
  const TransferStats before = be.transfer_stats();
  std::vector<Tensor> results;
  with_session(be, [&] {
    results.push_back(add(be, x, y));                                        // binary
    results.push_back(neg(be, x));                                           // unary
    results.push_back(exp(be, x));                                           // analytic
    results.push_back(compare(be, x, y, CompareDir::LT));                    // compare
    results.push_back(select(be, results.back(), x, y));                     // select
    results.push_back(clamp(be, x, y, y));                                   // clamp
    results.push_back(cast(be, x, DType::I32));                              // cast
    results.push_back(transpose_copy(be, x, {1, 0}));                             // structural
    results.push_back(pad(be, x, PadConfig{{1, 0}, {0, 2}, {1, 0}}));
    const TensorView both[] = {x, y};
    results.push_back(concatenate(be, both, 1));
    results.push_back(tril(be, x, 0));
    results.push_back(dynamic_slice(be, x, starts, {2, 2}));
    results.push_back(reduce_sum(be, x, {0, 1}));                            // reduce
    results.push_back(dot_general(be, x, y, DotGeneralConfig{{}, {}, {0}, {0}}));  // dot
    GatherConfig g;
    g.offset_dims = {1};
    g.collapsed_slice_dims = {0};
    g.start_index_map = {0};
    g.index_vector_dim = 1;
    g.slice_sizes = {1, 4};
    results.push_back(gather(be, x, idx, g));                                // gather
    ScatterConfig s;
    s.update_window_dims = {1};
    s.inserted_window_dims = {0};
    s.scatter_dims_to_operand_dims = {0};
    s.index_vector_dim = 1;
    results.push_back(scatter(be, x, idx, results.back(), s));               // scatter
  });
  be.synchronize();
  const TransferStats during = be.transfer_stats();
  EXPECT_EQ(during.uploaded_bytes, before.uploaded_bytes);
  EXPECT_EQ(during.downloaded_bytes, before.downloaded_bytes);
  EXPECT_EQ(during.uploads, before.uploads);
  EXPECT_EQ(during.downloads, before.downloads);
  for (const Tensor& r : results) EXPECT_EQ(r.domain(), be.domain());
  // Explicit transfers are counted.
  const Tensor h = download(be, results.front());
  EXPECT_EQ(be.transfer_stats().downloads, before.downloads + 1);
  EXPECT_EQ(be.transfer_stats().downloaded_bytes, before.downloaded_bytes + 12 * sizeof(double));
  EXPECT_EQ(to_vector<double>(h)[5], 2 * v[5]);
}

}  // namespace
}  // namespace tenferro
