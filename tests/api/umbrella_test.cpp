// A program that includes only tenferro/tenferro.hpp: the user API is complete without the
// provider interface, which stays out of sight (Backend is an incomplete type here).
#include <gtest/gtest.h>

#include "tenferro/tenferro.hpp"

namespace {

template <class T> concept complete_type = requires { sizeof(T); };
static_assert(!complete_type<tenferro::Backend>, "tenferro.hpp must not pull in the provider interface");

TEST(ApiUmbrella, OneHeaderRunsAProgram) {
  using namespace tenferro;
  const Tensor a = tensor<double>({2, 2}, {1, 2, 3, 4}, Device::cpu());
  const Tensor b = einsum("ij,jk->ik", a, a) * 2.0 + 1;
  EXPECT_EQ(to_vector<double>(b), (std::vector<double>{15, 21, 31, 45}));
  EXPECT_EQ(item<double>(sum(cast(a > 2.5, DType::F64))), 2.0);  // comparisons give Bool tensors
}

}  // namespace
