// The Ozaki-II products on Vulkan (src/vulkan/kernels/gemm/ozaki.cpp): the opt-in normwise scheme and the certified
// default, against their bounds through the GEMM tests' fixture (gemm_test_fixture.hpp).
#include "gemm_test_fixture.hpp"

namespace tenferro::vktest {
namespace {

// The opt-in Ozaki-II f64 product (TENFERRO_VK_GEMM_OZAKI; the override takes every f64
// product): scan / split passes over every layout, the residue products (the portable kernel,
// and NVIDIA's tensor-core kernel where the device has it), the combine pass with alpha / beta,
// against its normwise bound (ozaki_bits), for the smallest, a middle and the largest number of
// moduli; wide exponent ranges, zeros, subnormals; Inf / NaN rows and columns (plain dot
// products).
class GemmOzakiTest : public GemmGpuTest {
 protected:
  void TearDown() override {
    vk::set_gemm_ozaki_override(std::nullopt);
    GemmGpuTest::TearDown();
  }
  /// The residue-product kernels the device has (OzakiOverride::portable): the portable one, and
  /// NVIDIA's tensor-core one where the device lists its shape.
  std::vector<bool> residue_kernels() {
    if (static_cast<vk::VulkanBackend&>(be()).device().caps().nv_coopmat_u8) return {true, false};
    return {true};
  }
  /// The dispatch arguments of the last certified product run on the device under test.
  std::optional<Tensor> take_certificate() {
    return vk::gemm_ozaki_take_certificate(static_cast<vk::VulkanBackend&>(be()));
  }
  /// Runs c through the scheme with n moduli, on each residue-product kernel the device has.
  void run_ozaki(int n, const Case& c, std::uint64_t seed = 1) {
    ozaki_n = n;
    ozaki_p = vk::ozaki_bits(n, c.K);
    for (bool portable : residue_kernels()) {
      SCOPED_TRACE(std::string(portable ? "portable" : "tensor cores") + ", moduli " + std::to_string(n));
      vk::set_gemm_ozaki_override(vk::OzakiOverride{n, portable});
      ASSERT_EQ(vk::gemm_ozaki_moduli({c.d, c.M, c.N, c.K, c.B}, false), n);
      const std::uint64_t runs = vk::gemm_ozaki_runs();
      run(c, seed);
      EXPECT_EQ(vk::gemm_ozaki_runs(), runs + 1);  // the scheme ran (no silent fallback)
    }
  }
};

TEST_F(GemmOzakiTest, MatchesNormwiseBound) {
  const I ext[][4] = {{1, 1, 1, 1}, {7, 5, 3, 2}, {129, 130, 37, 2}, {33, 1, 200, 3}, {200, 140, 300, 1}};
  const Lay lays[] = {Lay::col, Lay::row, Lay::padded, Lay::reversed, Lay::misaligned};
  int i = 0;
  for (int n : {8, 14, 20})
    for (const auto& e : ext) {
      ++i;
      Case c = make_case(DType::F64, e[0], e[1], e[2], e[3]);
      c.la = lays[i % 5];
      c.lb = lays[(i + 1) % 5];
      c.lc = lays[(i + 3) % 5];
      c.alpha = i % 2 ? c128(1, 0) : c128(-0.75, 0);
      c.beta = i % 3 ? c128(0, 0) : c128(1.5, 0);
      run_ozaki(n, c, static_cast<std::uint64_t>(i));
    }
  Case c = make_case(DType::F64, 17, 9, 12, 3);  // broadcast operands (zero strides)
  c.la = Lay::zero_k;
  c.lb = Lay::zero_batch;
  run_ozaki(14, c);
  EXPECT_EQ(vk::ozaki_bits(14, 4096), 48);  // floor(log2 prod) = 110: (110 - 2 - 12) / 2
  EXPECT_EQ(vk::ozaki_bits(8, 65536), 22);  // 63: (63 - 2 - 16) / 2
  EXPECT_EQ(vk::ozaki_bits(20, 1), 62);     // capped
}

TEST_F(GemmOzakiTest, WideRangesZerosSubnormals) {
  // Storage element i: scaled by 2^(60 * ((7 i) % 11 - 5)), every 5th zero, every 13th
  // subnormal: rows and columns span 2^600, so entries far below their row's largest lose
  // bits (the normwise bound) and zero / subnormal-only lines are scaled on their own.
  values = [](I i, c128 v) {
    if (i % 5 == 0) return c128(0.0, 0.0);
    if (i % 13 == 0) return c128(v.real() * 1e-310, 0.0);
    return c128(std::ldexp(v.real(), 60 * static_cast<int>((7 * i) % 11) - 300), 0.0);
  };
  for (int n : {8, 16}) {
    Case c = make_case(DType::F64, 70, 45, 130, 2);
    c.lb = Lay::row;
    run_ozaki(n, c);
  }
  // 18 chunks of TFO_CHUNK k per line, each line's largest elements in chunk 9 (k 576-639;
  // col-major A 9 x 1100 and B 1100 x 7): the scale takes every chunk's exponent.
  const auto boost_chunk9 = [](I k, c128 v) { return k >= 576 && k < 640 ? c128(std::ldexp(v.real(), 40), 0.0) : v; };
  values = [boost_chunk9](I i, c128 v) { return boost_chunk9(i / 9, v); };
  values_b = [boost_chunk9](I i, c128 v) { return boost_chunk9(i % 1100, v); };
  run_ozaki(14, make_case(DType::F64, 9, 7, 1100, 1));
  values_b = nullptr;
  values = [](I i, c128 v) { return i % 3 == 0 ? c128(0.0, 0.0) : c128(v.real() * 1e-310, 0.0); };
  run_ozaki(14, make_case(DType::F64, 9, 11, 40, 1));
  // Subnormal-only rows of A (scale exponent ~1100: the two-step scaling) against columns of B
  // near 2^1000: products near 1e-9, far above the bound's floor.
  values = [](I, c128 v) { return c128(v.real() * 1e-310, 0.0); };
  values_b = [](I, c128 v) { return c128(std::ldexp(v.real(), 1000), 0.0); };
  run_ozaki(14, make_case(DType::F64, 9, 11, 40, 1));
  values = values_b = nullptr;
}

TEST_F(GemmOzakiTest, NonFiniteLinesTakeDotProducts) {
  // Inf in some rows of A, NaN in some columns of B, -Inf elsewhere: those outputs are the
  // IEEE dot products' (Inf, -Inf or NaN); the others keep the scheme's bound.
  const double inf = std::numeric_limits<double>::infinity();
  values = [inf](I i, c128 v) {
    if (i == 5 || i == 40) return c128(inf, 0.0);
    if (i == 23) return c128(std::numeric_limits<double>::quiet_NaN(), 0.0);
    if (i == 77) return c128(-inf, 0.0);
    return v;
  };
  Case c = make_case(DType::F64, 13, 11, 9, 2);
  c.beta = c128(0.5, 0);
  run_ozaki(12, c);
  values = nullptr;
}

// Issue 6's memory bound with the scheme: einsum hands each product only the optional scratch
// that 1.5x its plan's live tensors leaves (GemmCall::scratch_limit). The scheme's planes for a
// 96 x 80 x 600 product are about 3x its tensors: the einsum runs it on the FMA kernels within
// the bound, while dot_general (no limit) and a limit as large as the planes run the scheme,
// above the bound. Every result against the reference (componentwise and normwise bounds).
TEST_F(GemmOzakiTest, EinsumStepScratchWithinMemoryBound) {
  const I M = 96, N = 80, K = 600;
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Val> va(static_cast<std::size_t>(M * K)), vb(static_cast<std::size_t>(K * N));
  for (auto& x : va) x.c = u(rng);
  for (auto& x : vb) x.c = u(rng);
  const Tensor a = be().upload(host_of(DType::F64, {M, K}, va)), b = be().upload(host_of(DType::F64, {K, N}, vb));
  const double live = 8.0 * static_cast<double>(M * K + K * N + M * N);
  // The reference and |A||B| (column-major).
  std::vector<double> ref(static_cast<std::size_t>(M * N), 0.0), mag(ref.size(), 0.0);
  for (I j = 0; j < N; ++j)
    for (I k = 0; k < K; ++k)
      for (I i = 0; i < M; ++i) {
        const double x = va[static_cast<std::size_t>(i + k * M)].c.real(), y = vb[static_cast<std::size_t>(k + j * K)].c.real();
        ref[static_cast<std::size_t>(i + j * M)] += x * y;
        mag[static_cast<std::size_t>(i + j * M)] += std::abs(x * y);
      }
  double norm = 0;
  for (double m : mag) norm = std::max(norm, m);
  // Runs f, returns its peak over the live tensors; `scheme`: whether the scheme ran.
  auto measure = [&](const char* what, bool scheme, const std::function<Tensor()>& f) -> double {
    SCOPED_TRACE(what);
    be().synchronize();
    be().reset_memory_peak();
    const std::uint64_t runs = vk::gemm_ozaki_runs();
    const Tensor c = f();
    be().synchronize();
    EXPECT_EQ(vk::gemm_ozaki_runs(), runs + (scheme ? 1 : 0));
    const Tensor h = be().download(c);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
      const double bound = scheme ? 1e-12 * norm : 4.0 * K * DBL_EPSILON * mag[i];  // normwise / FMA
      bad += !(std::abs(host_at(h, static_cast<I>(i)).c.real() - ref[i]) <= bound);
    }
    EXPECT_EQ(bad, 0u) << "outputs outside the bound";
    return static_cast<double>(be().memory_usage().peak) / live;
  };
  vk::set_gemm_ozaki_override(vk::OzakiOverride{14, true});
  const TensorView ops[] = {a, b};
  DotGeneralConfig cfg;
  cfg.lhs_contracting_dims = {1};
  cfg.rhs_contracting_dims = {0};
  EXPECT_LE(measure("einsum", false, [&] { return einsum(be(), "ij,jk->ik", ops); }), 1.5);
  EXPECT_GT(measure("dot_general", true, [&] { return dot_general(be(), a, b, cfg); }), 1.5);
  EXPECT_GT(measure("limit 3.5x", true,
                    [&] { return detail::dot_general_consuming(be(), a, b, cfg, static_cast<std::uint64_t>(3.5 * live)); }),
            1.5);
  EXPECT_LE(measure("limit 0.5x", false,
                    [&] { return detail::dot_general_consuming(be(), a, b, cfg, static_cast<std::uint64_t>(0.5 * live)); }),
            1.5);
}

// The certified Ozaki-II product (the default on devices with the tensor-core kernel, where the
// time model takes it; here forced on every tiled f64 product, on both residue kernels): every
// result against the default's componentwise bound (not the scheme's normwise one), and the
// certificate's outcome asserted through its dispatch arguments. It holds for well-scaled
// operands (the scheme's result is kept) and where outputs have no nonzero term (exact zeros);
// it fails where entries lie far below their line's largest or K is too short for its bound:
// the combine pass then writes nothing and the FMA kernels recompute C through the indirect
// dispatch (beta reads the original C).
class GemmOzakiCertifiedTest : public GemmOzakiTest {
 protected:
  /// `zeros` >= 0: the zeros flag expected (the arguments' fourth word: 1 where a line of A or
  /// B holds a zero, 0 for dense operands).
  void run_certified(const Case& c, bool expect_fail, std::uint64_t seed = 1, int zeros = -1) {
    ozaki_n = ozaki_p = 0;  // the default product's bound
    for (bool portable : residue_kernels()) {
      SCOPED_TRACE(std::string(portable ? "portable" : "tensor cores") + (expect_fail ? ", fails" : ", holds"));
      vk::set_gemm_ozaki_override(vk::OzakiOverride{.moduli = 14, .portable = portable, .certified = true});
      ASSERT_TRUE(vk::gemm_ozaki_certified());
      const std::uint64_t runs = vk::gemm_ozaki_runs();
      run(c, seed);
      EXPECT_EQ(vk::gemm_ozaki_runs(), runs + 1);  // the scheme ran
      std::optional<Tensor> args = take_certificate();
      ASSERT_TRUE(args.has_value());
      const Tensor h = be().download(*args);
      EXPECT_EQ(host_at(h, 0).i != 0, expect_fail) << "certificate's first word " << host_at(h, 0).i;
      EXPECT_EQ(host_at(h, 2).i, expect_fail ? 1 : 0);
      if (zeros >= 0) {
        EXPECT_EQ(host_at(h, 3).i, zeros);
      }
    }
  }
};

TEST_F(GemmOzakiCertifiedTest, HoldsForWellScaledOperands) {
  Case c = make_case(DType::F64, 129, 130, 600, 2);
  c.lb = Lay::row;
  c.alpha = c128(-0.75, 0);
  c.beta = c128(1.5, 0);
  run_certified(c, false);
  c = make_case(DType::F64, 200, 67, 1030, 1);
  c.la = Lay::reversed;
  c.lb = Lay::padded;
  c.lc = Lay::misaligned;
  run_certified(c, false, 2);
}

TEST_F(GemmOzakiCertifiedTest, HoldsForSubnormalAndHugeLines) {
  // A's rows scaled by their sums (ozaki_bits_certified) from subnormal-only rows (scale
  // exponents near 1100: the two-step scaling), against B's columns near 2^1000.
  int pa = 0, pb = 0;
  vk::ozaki_bits_certified(14, 4096, pa, pb);
  EXPECT_EQ(pa, 59);  // floor(log2 prod) = 110: 108 - 49
  EXPECT_EQ(pb, 49);  // (108 - 10) / 2
  values = [](I, c128 v) { return c128(v.real() * 1e-310, 0.0); };
  values_b = [](I, c128 v) { return c128(std::ldexp(v.real(), 1000), 0.0); };
  run_certified(make_case(DType::F64, 40, 30, 600, 1), false);
  // Positive operands: sum_k A'B' comes near sum |A'| max |B'| (the range the split keeps below
  // prod m_l / 2; mutation-checked: 3 bits more for A overflow it).
  values = [](I, c128 v) { return c128(0.5 + 0.5 * std::abs(v.real()), 0.0); };
  values_b = nullptr;
  run_certified(make_case(DType::F64, 40, 30, 600, 1), false);
  values = nullptr;
}

TEST_F(GemmOzakiCertifiedTest, HoldsWhereOutputsHaveNoTerms) {
  // Block structure (col-major A 96 x 700, B 700 x 80): A's first 48 rows are nonzero only in
  // k < 350, the others only from 350 on, and B's columns alike, so that half of C has no
  // nonzero term (Q = 0: exact zeros) while its lines are full.
  const I M = 96, N = 80, K = 700;
  values = [=](I i, c128 v) { return ((i % M) < M / 2) == ((i / M) < K / 2) ? v : c128(0.0, 0.0); };
  values_b = [=](I i, c128 v) { return ((i % K) < K / 2) == ((i / K) < N / 2) ? v : c128(0.0, 0.0); };
  run_certified(make_case(DType::F64, M, N, K, 1), false);
  values = values_b = nullptr;
}

// Dense operands (no zero element) from K = 2048: the certificate's product sums every second k
// with q = floor(x / w) (here Kp = 2176, its q planes of 1152 columns, the last 64 zeroed by the
// split). The same K with zeros takes every k (exact zeros where outputs have no terms), and
// dense lines spanning 2^600 fail.
TEST_F(GemmOzakiCertifiedTest, DenseOperandsHalveTheCertificate) {
  const I M = 48, N = 40, K = 2100;
  Case c = make_case(DType::F64, M, N, K, 2);
  c.la = Lay::row;
  c.lc = Lay::padded;
  c.alpha = c128(0.5, 0);
  c.beta = c128(-1.25, 0);
  run_certified(c, false, 1, 0);
  values = [=](I i, c128 v) { return ((i % M) < M / 2) == ((i / M) < K / 2) ? v : c128(0.0, 0.0); };
  values_b = [=](I i, c128 v) { return ((i % K) < K / 2) == ((i / K) < N / 2) ? v : c128(0.0, 0.0); };
  run_certified(make_case(DType::F64, M, N, K, 1), false, 1, 1);
  // One zero element (A's first, in a line whose other K - 1 are nonzero; 33 chunks, the last
  // one partly filled): the line's count must not reach K.
  values = [](I i, c128 v) { return i == 0 ? c128(0.0, 0.0) : v; };
  values_b = nullptr;
  run_certified(make_case(DType::F64, M, N, K, 1), false, 1, 1);
  values = [](I i, c128 v) { return c128(std::ldexp(v.real() + (v.real() < 0 ? -1.0 : 1.0), 60 * static_cast<int>((7 * i) % 11) - 300), 0.0); };
  values_b = nullptr;
  run_certified(make_case(DType::F64, M, N, K, 1), true, 1, 0);
  values = nullptr;
}

TEST_F(GemmOzakiCertifiedTest, FailsAndRecomputes) {
  // Lines spanning 2^600 (as WideRangesZerosSubnormals): the bound cannot hold.
  values = [](I i, c128 v) {
    if (i % 5 == 0) return c128(0.0, 0.0);
    return c128(std::ldexp(v.real(), 60 * static_cast<int>((7 * i) % 11) - 300), 0.0);
  };
  Case c = make_case(DType::F64, 70, 45, 530, 2);
  c.lb = Lay::row;
  c.beta = c128(1.5, 0);
  run_certified(c, true);
  values = nullptr;
  // Only B's last column fails (the certify pass's last run of columns; mutation-checked: a
  // pass that skips a run's later columns misses it): its k = 0 element is 2^300 times the
  // others, against a zero column k = 0 of A, so that its scale leaves the terms that count
  // almost no bits.
  const I M = 70, N = 45, K = 530;
  values = [=](I i, c128 v) { return (i / M) % K == 0 ? c128(0.0, 0.0) : v; };
  values_b = [=](I i, c128 v) { return (i / K) % N == N - 1 && i % K == 0 ? v * std::ldexp(1.0, 300) : v; };
  run_certified(make_case(DType::F64, M, N, K, 2), true);
  values = values_b = nullptr;
  // K too short for the bound (tau = (K - 8) u < 0), batches, strides, alpha and beta.
  c = make_case(DType::F64, 65, 70, 6, 3);
  c.la = Lay::padded;
  c.lc = Lay::reversed;
  c.alpha = c128(2.0, 0);
  c.beta = c128(-0.5, 0);
  run_certified(c, true, 3);
}

// The default's failure history (OzakiOverride::history): once a failed certificate has been
// read back (run() downloads C, so the GPU is past it), the next 16 calls of that shape run on
// the FMA kernels alone (still within the default's bound), another shape is not affected, and
// the 17th tries the scheme again.
TEST_F(GemmOzakiCertifiedTest, SkipsTheSchemeAfterAFailure) {
  ozaki_n = ozaki_p = 0;
  const ValueHook wide = [](I i, c128 v) { return c128(std::ldexp(v.real(), 60 * static_cast<int>((7 * i) % 11) - 300), 0.0); };
  vk::set_gemm_ozaki_override(vk::OzakiOverride{.moduli = 14, .portable = true, .certified = true, .history = true});
  const Case c = make_case(DType::F64, 70, 45, 530, 1);
  auto runs_of = [&](const Case& x, const ValueHook& hook) {
    values = hook;
    const std::uint64_t before = vk::gemm_ozaki_runs();
    run(x);
    values = nullptr;
    return vk::gemm_ozaki_runs() - before;
  };
  ASSERT_EQ(runs_of(c, wide), 1u);
  std::optional<Tensor> args = take_certificate();
  ASSERT_TRUE(args.has_value());
  EXPECT_NE(host_at(be().download(*args), 0).i, 0);  // failed
  for (int i = 0; i < 16; ++i) ASSERT_EQ(runs_of(c, wide), 0u) << "call " << i + 2;
  EXPECT_EQ(runs_of(make_case(DType::F64, 71, 45, 530, 1), nullptr), 1u);  // another shape
  EXPECT_EQ(runs_of(c, nullptr), 1u);  // tried again (well-scaled this time: it holds)
  args = take_certificate();
  ASSERT_TRUE(args.has_value());
  EXPECT_EQ(host_at(be().download(*args), 0).i, 0);
  EXPECT_EQ(runs_of(c, nullptr), 1u);  // a held certificate changes nothing
}

TEST_F(GemmOzakiCertifiedTest, NonFiniteLinesAndSmallProducts) {
  // Inf / NaN lines take dot products and are left out of the certificate.
  const double inf = std::numeric_limits<double>::infinity();
  values = [inf](I i, c128 v) {
    if (i == 5 || i == 400) return c128(inf, 0.0);
    if (i == 23) return c128(std::numeric_limits<double>::quiet_NaN(), 0.0);
    return v;
  };
  Case c = make_case(DType::F64, 40, 35, 400, 2);
  c.beta = c128(0.5, 0);
  run_certified(c, false);
  values = nullptr;
  // Products for gemm_small are not taken (the FMA recomputation needs the tiled kernel).
  vk::set_gemm_ozaki_override(vk::OzakiOverride{.moduli = 14, .portable = true, .certified = true});
  const std::uint64_t runs = vk::gemm_ozaki_runs();
  run(make_case(DType::F64, 7, 5, 3, 2));
  EXPECT_EQ(vk::gemm_ozaki_runs(), runs);
  EXPECT_FALSE(take_certificate().has_value());
}

// Certified c64, c32 and f32 products (complex: three residue products per modulus, Re = P_re -
// P_im, Im = P_sum - P_re - P_im; f32 and c32 on 7 moduli with f32's tau): every layout, conj
// flags, complex alpha / beta, batches, against the default's complex bound; dense operands (the
// halved certificate), outputs without terms (exact zeros), real-valued and positive operands (the
// widest sums: A's scale covers |re| + |im|), lines far below their largest and K too short (the
// FMA kernels recompute), Inf / NaN lines (plain complex dot products). Sizes kept small: lavapipe
// runs 43 byte planes per c64 product.
TEST_F(GemmOzakiCertifiedTest, ComplexAndSingleProducts) {
  for (DType d : {DType::C64, DType::C32, DType::F32}) {
    SCOPED_TRACE(dtype_name(d));
    // f32: alpha and beta's real parts (run() takes only those for real dtypes).
    const auto run_c = [&](Case x, bool fail, std::uint64_t seed, int zeros = -1) {
      if (!is_complex(d)) {
        x.alpha = c128(x.alpha.real(), 0.0);
        x.beta = c128(x.beta.real(), 0.0);
      }
      run_certified(x, fail, seed, zeros);
    };
    Case c = make_case(d, 70, 60, 600, 2);
    c.lb = Lay::row;
    c.conj_b = true;
    c.alpha = c128(0.5, -1.0);
    c.beta = c128(1.0, 0.5);
    run_c(c, false, 1, 0);  // (dense, K < 2048: the certificate on every k)
    c = make_case(d, 131, 33, 530, 1);
    c.la = Lay::reversed;
    c.lb = Lay::padded;
    c.lc = Lay::misaligned;
    c.conj_a = true;
    c.beta = c128(-0.5, 0.0);
    run_c(c, false, 2);
    c = make_case(d, 17, 40, 520, 3);  // broadcast operands (zero strides)
    c.la = Lay::zero_k;
    c.lb = Lay::zero_batch;
    c.lc = Lay::row;
    run_c(c, false, 3);
    // Dense from K = 2048: the certificate on every second k.
    c = make_case(d, 20, 24, 2100, 1);
    c.alpha = c128(1.5, 2.0);
    run_c(c, false, 4, 0);
    // Outputs without nonzero terms (exact zeros), as HoldsWhereOutputsHaveNoTerms.
    {
      const I M = 40, N = 36, K = 600;
      values = [=](I i, c128 v) { return ((i % M) < M / 2) == ((i / M) < K / 2) ? v : c128(0.0, 0.0); };
      values_b = [=](I i, c128 v) { return ((i % K) < K / 2) == ((i / K) < N / 2) ? v : c128(0.0, 0.0); };
      run_c(make_case(d, M, N, K, 1), false, 5, 1);
    }
    // Real-valued A, imaginary B (f32: B zero, C = beta C exactly); then positive parts (sum_k
    // A'B' near the range kept below prod m_l / 2).
    values = [](I, c128 v) { return c128(v.real(), 0.0); };
    values_b = [](I, c128 v) { return c128(0.0, v.imag()); };
    run_c(make_case(d, 40, 30, 600, 1), false, 6);
    values = [](I, c128 v) { return c128(0.5 + 0.5 * std::abs(v.real()), 0.5 + 0.5 * std::abs(v.imag())); };
    values_b = nullptr;
    run_c(make_case(d, 40, 30, 600, 1), false, 7);
    // Lines spanning 2^600 (f32 and c32: 2^120): fails, C recomputed (beta reads the original C).
    const int span = d == DType::C64 ? 60 : 12;
    values = [span](I i, c128 v) {
      const int e = span * (static_cast<int>((7 * i) % 11) - 5);
      return i % 5 == 0 ? c128(0.0, 0.0) : c128(std::ldexp(v.real(), e), std::ldexp(v.imag(), e));
    };
    c = make_case(d, 50, 45, 530, 2);
    c.beta = c128(1.5, -0.5);
    run_c(c, true, 8);
    values = nullptr;
    // K too short for the bound.
    c = make_case(d, 65, 40, 3, 1);
    c.conj_a = c.conj_b = true;
    run_c(c, true, 9);
    // Inf / NaN lines take plain dot products and are left out of the certificate.
    const double inf = std::numeric_limits<double>::infinity();
    values = [inf](I i, c128 v) {
      if (i == 5 || i == 400) return c128(inf, v.imag());
      if (i == 23) return c128(v.real(), std::numeric_limits<double>::quiet_NaN());
      return v;
    };
    c = make_case(d, 40, 35, 520, 1);
    c.conj_b = true;
    c.beta = c128(0.5, 0.25);
    run_c(c, false, 10);
    values = nullptr;
  }
}

// f32 and c32 products through the scheme compute their passes in f64: the time model (the
// H200's rates) takes them only on devices whose f64 is fast, known by name.
TEST_F(GemmOzakiTest, SinglePrecisionOnlyWhereF64IsFast) {
  for (const char* n : {"NVIDIA H200", "NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-80GB", "Tesla V100-SXM2-16GB",
                        "NVIDIA GH200 480GB", "NVIDIA A30", "NVIDIA TITAN V", "NVIDIA B200", "Tesla P100-PCIE-16GB"})
    EXPECT_TRUE(vk::fast_f64_device(n)) << n;
  for (const char* n : {"NVIDIA GeForce RTX 4090", "NVIDIA RTX A3000 Laptop GPU", "NVIDIA L40S", "NVIDIA A10",
                        "NVIDIA A40", "NVIDIA H20", "NVIDIA RTX 6000 Ada Generation", "llvmpipe (LLVM 15.0.6, 256 bits)",
                        "AMD Radeon RX 7900 XTX", "NVIDIA A3000", "NVIDIA H1000"})
    EXPECT_FALSE(vk::fast_f64_device(n)) << n;
  // Without fast f64 no f32 / c32 product takes the scheme; with it, those the time model takes
  // (on 7 moduli; at least the largest here); f64 products do not depend on it.
  vk::DeviceCaps caps, fast;
  caps.f64 = fast.f64 = true;
  fast.f64_fast = true;
  for (DType d : {DType::F32, DType::C32, DType::F64}) {
    int taken = 0;
    for (I s : {512, 1024, 2048, 4096, 8192, 16384}) {
      const vk::GemmProblem p{d, s, s, s, 1};
      const int with = vk::gemm_ozaki_moduli(p, true, &fast), without = vk::gemm_ozaki_moduli(p, true, &caps);
      if (d == DType::F64) {
        EXPECT_EQ(with, without) << s;
        continue;
      }
      EXPECT_EQ(without, 0) << dtype_name(d) << " " << s;
      EXPECT_TRUE(with == 0 || with == TFO_MIN_MODULI) << dtype_name(d) << " " << s << ": " << with;
      taken += with > 0;
    }
    if (d != DType::F64) {
      EXPECT_GT(taken, 0) << dtype_name(d);
    }
  }
  // Forced (the tests' override), the scheme runs wherever the device has f64.
  vk::set_gemm_ozaki_override(vk::OzakiOverride{14, false, true});
  EXPECT_EQ(vk::gemm_ozaki_moduli({DType::F32, 64, 64, 64, 1}, true, &caps), 7);
  caps.f64 = false;
  EXPECT_EQ(vk::gemm_ozaki_moduli({DType::F32, 64, 64, 64, 1}, true, &caps), 0);
}

TEST_F(GemmOzakiTest, NotTaken) {
  vk::set_gemm_ozaki_override(vk::OzakiOverride{14, false});
  EXPECT_EQ(vk::gemm_ozaki_moduli({DType::F32, 64, 64, 64, 1}, true), 0);  // f64 only
  EXPECT_EQ(vk::gemm_ozaki_moduli({DType::C64, 64, 64, 64, 1}, true), 0);  // c64: certified only
  EXPECT_EQ(vk::gemm_ozaki_moduli({DType::C32, 64, 64, 64, 1}, true), 0);
  EXPECT_EQ(vk::gemm_ozaki_moduli({DType::F64, 64, 64, 64, 1, true}, true), 0);  // chained C
  EXPECT_EQ(vk::gemm_ozaki_moduli({DType::F64, 64, 64, 0, 1}, true), 0);  // K == 0
  EXPECT_EQ(vk::gemm_ozaki_moduli({DType::F64, 4, 4, 65537, 1}, true), 0);  // K > TFO_MAX_K
  EXPECT_EQ(vk::gemm_ozaki_moduli({DType::F64, 1 << 15, 1 << 15, 1024, 1}, true), 0);  // > 4 GiB
  EXPECT_EQ(vk::gemm_ozaki_moduli({DType::F64, 4, 4, 65536, 1}, true), 14);
  vk::set_gemm_ozaki_override(vk::OzakiOverride{0, false});
  EXPECT_EQ(vk::gemm_ozaki_moduli({DType::F64, 64, 64, 64, 1}, true), 0);  // off
  // (The time model without the override: GemmPolicy.OzakiTimeModelIsMonotone.)
  vk::set_gemm_ozaki_override(vk::OzakiOverride{.moduli = 14, .portable = true, .certified = true});
  EXPECT_EQ(vk::gemm_ozaki_moduli({DType::C64, 64, 64, 64, 1}, true), 14);
  EXPECT_EQ(vk::gemm_ozaki_moduli({DType::C32, 64, 64, 64, 1}, true), 7);  // (f32's range)
  EXPECT_EQ(vk::gemm_ozaki_moduli({DType::F32, 64, 64, 64, 1}, true), 7);
  vk::set_gemm_ozaki_override(std::nullopt);
  Case c = make_case(DType::F64, 7, 5, 0, 2);  // K == 0 through gemm: C = beta C
  c.beta = c128(2.0, 0);
  run(c);
}

}  // namespace
}  // namespace tenferro::vktest
