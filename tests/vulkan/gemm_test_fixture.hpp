// Shared by the Vulkan GEMM tests (gemm_gpu_test.cpp, gemm_ozaki_gpu_test.cpp,
// gemm_policy_test.cpp): operand layouts, the product against a naive host loop in
// complex<double> (GemmGpuTest::run) and the forced-configuration fixture (GemmForcedTest).
#pragma once

#include <array>
#include <cfloat>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <tuple>

#include "vk_test_util.hpp"
#include "core/ops/dot_general_lowering.hpp"
#include "shaders/ozaki/ozaki_params.h"
#include "tenferro/backend/backend.hpp"
#include "tenferro/einsum.hpp"
#include "vulkan/kernels/gemm/config.hpp"
#include "vulkan/kernels/gemm/gemm3m.hpp"
#include "vulkan/kernels/gemm/ozaki.hpp"
#include "vulkan/kernels/gemm/policy.hpp"
#include "vulkan/backend.hpp"
#include "vulkan/provider.hpp"
#include "vulkan/runtime/device.hpp"

namespace tenferro::vktest {

using c128 = std::complex<double>;
using I = std::int64_t;

/// How a rank-3 [r, c, b] operand is laid out in its storage.
enum class Lay { col, row, padded, reversed, misaligned, zero_k, zero_batch };

inline const char* lay_name(Lay l) {
  switch (l) {
    case Lay::col: return "col";
    case Lay::row: return "row";
    case Lay::padded: return "padded";
    case Lay::reversed: return "reversed";
    case Lay::misaligned: return "misaligned";
    case Lay::zero_k: return "zero_axis1";
    case Lay::zero_batch: return "zero_batch";
  }
  return "?";
}

inline Layout make_layout(Lay l, I r, I c, I b) {
  switch (l) {
    case Lay::col: return Layout{{r, c, b}, {1, r, r * c}, 0};
    case Lay::row: return Layout{{r, c, b}, {c, 1, r * c}, 0};
    case Lay::padded: return Layout{{r, c, b}, {2, 2 * r + 3, (2 * r + 3) * c + 5}, 3};
    case Lay::reversed:  // m and n reversed, batches forward
      return Layout{{r, c, b}, {-1, -r, r * c}, (r - 1) + (c - 1) * r};
    case Lay::misaligned: return Layout{{r, c, b}, {1, r + 1, (r + 1) * c}, 1};
    case Lay::zero_k: return Layout{{r, c, b}, {1, 0, r}, 0};
    case Lay::zero_batch: return Layout{{r, c, b}, {1, r, 0}, 0};
  }
  return {};
}

inline I storage_elems(const Layout& l) { return l.numel() == 0 ? 1 : l.max_offset() + 1; }

struct Operand {
  Tensor storage;  // compact 1-D device tensor
  TensorView view;
  std::vector<c128> host;  // storage contents
};

/// `hook` (optional) maps (storage index, random value) to the stored value.
using ValueHook = std::function<c128(I, c128)>;

inline Operand make_operand(Backend& be, DType d, Lay lay, I r, I c, I b, std::mt19937_64& rng, bool nan_fill = false,
                     const ValueHook& hook = nullptr) {
  const Layout l = make_layout(lay, r, c, b);
  Operand o;
  const I n = storage_elems(l);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Val> vals(static_cast<std::size_t>(n));
  for (auto& v : vals)
    v.c = nan_fill ? c128(std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN())
                   : c128(u(rng), is_complex(d) ? u(rng) : 0.0);
  if (hook)
    for (std::size_t i = 0; i < vals.size(); ++i) vals[i].c = hook(static_cast<I>(i), vals[i].c);
  for (auto& v : vals) {
    v.c = as_stored(d, v.c);
    o.host.push_back(v.c);
  }
  o.storage = be.upload(host_of(d, {n}, vals));
  o.view = TensorView(o.storage.storage(), d, l);
  return o;
}

inline std::vector<c128> download_all(Backend& be, const Operand& o) {
  Tensor h = be.download(o.storage);
  std::vector<c128> out;
  for (I i = 0; i < h.numel(); ++i) out.push_back(host_at(h, i).c);
  return out;
}

struct Case {
  DType d = DType::F32;
  I M = 1, N = 1, K = 1, B = 1;
  Lay la = Lay::col, lb = Lay::col, lc = Lay::col;
  bool conj_a = false, conj_b = false;
  c128 alpha{1, 0}, beta{0, 0};
  I c_chain = 0;  // > 0: C passed as a chained view (rank 10) whose m is c_chain x M / c_chain
};

inline Case make_case(DType d, I m, I n, I k, I b) {
  Case c;
  c.d = d;
  c.M = m;
  c.N = n;
  c.K = k;
  c.B = b;
  return c;
}

inline std::string describe(const Case& c) {
  std::string s = std::string(dtype_name(c.d)) + " M" + std::to_string(c.M) + " N" + std::to_string(c.N) + " K" +
                  std::to_string(c.K) + " B" + std::to_string(c.B) + " A " + lay_name(c.la) + " B " +
                  lay_name(c.lb) + " C " + lay_name(c.lc);
  if (c.conj_a) s += " conj_a";
  if (c.conj_b) s += " conj_b";
  s += " alpha (" + std::to_string(c.alpha.real()) + "," + std::to_string(c.alpha.imag()) + ") beta (" +
       std::to_string(c.beta.real()) + "," + std::to_string(c.beta.imag()) + ")";
  return s;
}

class GemmGpuTest : public VulkanTest {
 protected:
  // The 3-multiply form's bound (Gemm3MTest): sum (|Re a| + |Im a|)(|Re b| + |Im b|) in place
  // of sum |a||b| (Higham 1992: the imaginary part's error; the real part's is the 4-multiply
  // form's).
  bool three_m_bound = false;
  // Called after the operands are on the device, before the product (FallsBackWhenPlanesDoNotFit
  // sets its memory cap there: on a discrete GPU the uploads need staging blocks of their own).
  std::function<void()> before_gemm;
  // Ozaki-II products (GemmOzakiTest): P bits per row / column and n moduli; > 0 selects its
  // normwise bound. `values`: the operands' value hook (A, and B unless `values_b` is set; the
  // index is the operand's own storage index).
  int ozaki_p = 0, ozaki_n = 0;
  ValueHook values, values_b;

  void run(const Case& c, std::uint64_t seed = 1) {
    SCOPED_TRACE(describe(c));
    if (!be().supports(OpId::dot_general, c.d)) GTEST_SKIP() << "device lacks " << dtype_name(c.d);
    std::mt19937_64 rng(seed);
    const bool beta0 = c.beta == c128(0, 0);
    Operand a = make_operand(be(), c.d, c.la, c.M, c.K, c.B, rng, false, values);
    Operand b = make_operand(be(), c.d, c.lb, c.K, c.N, c.B, rng, false, values_b ? values_b : values);
    Operand out = make_operand(be(), c.d, c.lc, c.M, c.N, c.B, rng, beta0);
    GemmCall call;
    call.a = a.view;
    call.b = b.view;
    call.c = out.view;
    if (c.c_chain > 0) {  // the same elements through two chains of m: gemm.comp's chained C
      const Layout& l = out.view.layout();
      const I m0 = c.c_chain, m1 = c.M / c.c_chain;
      call.c = TensorView(out.storage.storage(), c.d,
                          Layout{{m0, m1, 1, 1, c.N, 1, 1, 1, c.B, 1},
                                 {l.strides[0], l.strides[0] * m0, 0, 0, l.strides[1], 0, 0, 0, l.strides[2], 0},
                                 l.offset});
    }
    call.conj_a = c.conj_a;
    call.conj_b = c.conj_b;
    call.alpha = Scalar::of_complex(is_complex(c.d) ? DType::C64 : DType::F64, c.alpha);
    call.beta = Scalar::of_complex(is_complex(c.d) ? DType::C64 : DType::F64, c.beta);
    if (!is_complex(c.d)) {
      call.alpha = Scalar::of(DType::F64, c.alpha.real());
      call.beta = Scalar::of(DType::F64, c.beta.real());
    }
    if (before_gemm) before_gemm();
    be().gemm(call);
    const std::vector<c128> got = download_all(be(), out);
    const double eps = c.d == DType::F32 || c.d == DType::C32 ? FLT_EPSILON : DBL_EPSILON;
    const Layout &la = a.view.layout(), &lb = b.view.layout(), &lc = out.view.layout();
    std::vector<bool> inside(got.size(), false);
    int failures = 0;
    for (I bi = 0; bi < c.B; ++bi)
      for (I n = 0; n < c.N; ++n)
        for (I m = 0; m < c.M; ++m) {
          c128 acc = 0;
          double acc_re = 0, mag = 0, amax = 0, bmax = 0, asum = 0, bsum = 0;
          for (I k = 0; k < c.K; ++k) {
            c128 x = a.host[static_cast<std::size_t>(la.offset + m * la.strides[0] + k * la.strides[1] + bi * la.strides[2])];
            c128 y = b.host[static_cast<std::size_t>(lb.offset + k * lb.strides[0] + n * lb.strides[1] + bi * lb.strides[2])];
            if (c.conj_a) x = std::conj(x);
            if (c.conj_b) y = std::conj(y);
            acc += x * y;
            acc_re += x.real() * y.real();  // real dtypes: no complex Inf * 0 artefacts
            amax = std::max(amax, std::abs(x));
            bmax = std::max(bmax, std::abs(y));
            asum += std::abs(x);
            bsum += std::abs(y);
            mag += three_m_bound ? (std::abs(x.real()) + std::abs(x.imag())) * (std::abs(y.real()) + std::abs(y.imag()))
                                 : std::abs(x) * std::abs(y);
          }
          const auto at = static_cast<std::size_t>(lc.offset + m * lc.strides[0] + n * lc.strides[1] + bi * lc.strides[2]);
          inside[at] = true;
          if (!is_complex(c.d)) acc = c128(acc_re, 0.0);
          c128 want = c.alpha * acc;
          double bound = (double(c.K) + 2) * std::abs(c.alpha) * mag;
          if (!beta0) {
            want += c.beta * out.host[at];
            bound += 2 * std::abs(c.beta) * std::abs(out.host[at]);
          }
          bound = 4 * eps * bound + 1e-300;
          if (ozaki_p > 0) {  // normwise: 2^-P per row of A and column of B, then 2n + 6 roundings (fma unfused)
            const double u = std::ldexp(1.0, -ozaki_p);
            bound = 2 * std::abs(c.alpha) * (u * (amax * bsum + bmax * asum) + u * u * double(c.K) * amax * bmax) +
                    (2 * ozaki_n + 6) * eps * (std::abs(c.alpha) * mag + (beta0 ? 0.0 : std::abs(c.beta * out.host[at]))) +
                    1e-300;
          }
          const double err = std::abs(got[at] - want);
          if (!std::isfinite(want.real())) {  // non-finite inputs: the same Inf, or NaN
            const bool same = std::isnan(want.real()) ? std::isnan(got[at].real()) : got[at].real() == want.real();
            if (!same && failures++ < 5)
              ADD_FAILURE() << "C[" << m << "," << n << "," << bi << "] got " << got[at] << " want " << want;
            continue;
          }
          if (!(err <= bound) && failures++ < 5)
            ADD_FAILURE() << "C[" << m << "," << n << "," << bi << "] got " << got[at] << " want " << want
                          << " err " << err << " bound " << bound;
        }
    for (std::size_t i = 0; i < got.size(); ++i) {
      if (inside[i]) continue;
      const bool same = got[i] == out.host[i] || (std::isnan(got[i].real()) && std::isnan(out.host[i].real()));
      if (!same && failures++ < 5) ADD_FAILURE() << "storage element " << i << " outside C changed: " << got[i] << " vs " << out.host[i];
    }
  }
};

// A c32 case with conj(B), complex alpha = 0.5 - i and beta = 1 + 0.5i (the forced-configuration
// tests' complex check).
inline Case c32_scaled_case(I M, I N, I K, I B) {
  Case c = make_case(DType::C32, M, N, K, B);
  c.conj_b = true;
  c.alpha = c128(0.5, -1.0);
  c.beta = c128(1.0, 0.5);
  return c;
}

/// Runs `c` with the kernel configuration `cfg` (text form of gemm/config.hpp), which must be
/// valid on the device (a silently ignored override would test the default instead).
class GemmForcedTest : public GemmGpuTest {
 protected:
  void run_with(const std::string& cfg, const Case& c, std::uint64_t seed = 1, bool expect_split = false) {
    SCOPED_TRACE(cfg);
    if (!be().supports(OpId::dot_general, c.d)) GTEST_SKIP() << "device lacks " << dtype_name(c.d);
    const auto g = vk::parse_gemm_config(cfg);
    ASSERT_TRUE(g.has_value());
    ASSERT_TRUE(vk::gemm_config_valid_on(be(), c.d, *g)) << "configuration not valid on this device";
    if (expect_split) {
      EXPECT_GT(vk::gemm_splits(*g, {c.d, c.M, c.N, c.K, c.B}), 1);
    }
    vk::set_gemm_config_override(*g);
    run(c, seed);
    vk::set_gemm_config_override(std::nullopt);
  }
  // An f32 129 x 130 x 37 product in 2 batches per layout triple (A, B, C) under the forced
  // configuration cfg(i) of triple i; beta alternates 0 / 0.5 (edge tiles, partial slices).
  // The interior-loop cases (InteriorLoop), with `extra_opts` appended to every option list.
  void interior_cases(const std::string& extra_opts);
  template <class Cfg>
  void run_layouts(std::initializer_list<std::array<Lay, 3>> lays, Cfg cfg) {
    int i = 0;
    for (const auto& l : lays) {
      Case c = make_case(DType::F32, 129, 130, 37, 2);
      c.la = l[0];
      c.lb = l[1];
      c.lc = l[2];
      c.beta = i % 2 ? 0.5 : 0.0;
      run_with(cfg(i), c, static_cast<std::uint64_t>(i + 1));
      ++i;
    }
  }
  void TearDown() override {
    vk::set_gemm_config_override(std::nullopt);
    vk::set_gemm_stage_override(std::nullopt);
    GemmGpuTest::TearDown();
  }
};

inline constexpr DType kTypes[] = {DType::F32, DType::F64, DType::C32, DType::C64};

}  // namespace tenferro::vktest
