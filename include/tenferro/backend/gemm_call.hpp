// What the provider interface's gemm takes (Backend::gemm) and what a backend's gemm can do
// (Backend::gemm_caps). Core's dot_general lowers every product onto one such call.
#pragma once
#include <cstdint>

#include "tenferro/config.hpp"
#include "tenferro/tensor.hpp"

namespace tenferro {

/// Chains per group of a chained output (GemmCall::c): the free groups M and N, the batch group.
inline constexpr int kGemmFreeChains = 4, kGemmBatchChains = 2;
/// Rank of a chained output view.
inline constexpr int kGemmChainedRank = 2 * kGemmFreeChains + kGemmBatchChains;
/// GemmCall::scratch_limit's default: no limit.
inline constexpr std::uint64_t kNoScratchLimit = ~std::uint64_t{0};

/// What a backend's gemm accepts beyond the plain form.
struct GemmCaps {
  /// GemmCall::c may be chained (below): an output whose groups are not one stride chain each
  /// is then written in place instead of through a compact temp and a copy.
  bool chained_output = false;
};

/// A batched matrix product C[m,n,b] = alpha * sum_k op(A)[m,k,b] op(B)[k,n,b] + beta * C.
struct GemmCall {
  /// Rank-3 views [M,K,B] and [K,N,B] (any strides, negative and zero included).
  TensorView a, b;
  /// The output: a rank-3 view [M,N,B] (any strides), or, on a backend whose
  /// gemm_caps().chained_output is true, a chained view of rank kGemmChainedRank
  /// [M0,M1,M2,M3, N0,N1,N2,N3, B0,B1]: M = M0*M1*M2*M3 with m = m0 + M0*(m1 + M1*(m2 + M2*m3)),
  /// likewise n and b, each factor with its own stride (unused factors have extent 1).
  /// c never overlaps itself or a, b.
  TensorView c;
  /// Conjugates that operand (complex dtypes only).
  bool conj_a = false, conj_b = false;
  /// Of c's dtype. beta == 0 never reads c.
  Scalar alpha, beta;
  /// Bytes of optional scratch the product may hold beside its operands: the scratch of faster
  /// forms that it could do without (the Vulkan backend's Ozaki-II planes, split-K partial
  /// tiles, 3-multiply planes). A product whose faster form needs more takes a form within the
  /// limit. einsum sets it per step so that a contraction's peak stays within its memory bound.
  std::uint64_t scratch_limit = kNoScratchLimit;

  bool chained() const { return c.rank() == kGemmChainedRank; }
};

}  // namespace tenferro
