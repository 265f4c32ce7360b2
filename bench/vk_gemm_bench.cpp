// Vulkan GEMM benchmark: Backend::gemm on the default Vulkan device for the cases of issue 5
// (f32 4096^3 and 8192^3, f64 4096^3, c32 4096^3, c64 2048^3, batched f64 1024 x 256^3), compact
// column-major operands. Per case: 2 warm-up calls, then `reps` timed calls, each timed by the
// host clock around gemm + synchronize() (fence wait); prints the median and best TFLOP/s
// (2*M*N*K*B flops real, 8*M*N*K*B complex) and checks 16 sampled elements of C against a
// double-precision host dot product.
//
// Usage: tenferro_bench_vk_gemm [case...] [--reps N] [--stream]; cases: f32_4096 f32_8192 f64_4096
// c32_4096 c64_2048 f64_batched, or "all" (default); smoke_f32 smoke_c64 are small checks; any
// other shape as dtype:MxNxK[xB] (e.g. f64:12x144x12).
// TENFERRO_VK_GEMM_TILE="bm,bn,bk,tm,tn[,opts[,split]]" overrides the kernel's configuration
// (src/vulkan/kernels/gemm/config.hpp). Exit code 1 on a wrong result.
// --ozaki N[:c]: f64 products by the Ozaki-II scheme on N moduli, the time model not asked (the
// tests' override); with ":c" the certified product (also f32, c32 and c64): "--ozaki 14:c"
// times the scheme where the model would not take it.
// --wide: element i of each operand's real stream scaled by 2^(40 (i mod 7) - 120), so that rows
// and columns span 2^240 (the certified Ozaki-II product's certificate fails there: the time of
// its FMA recomputation).
// --c-layout compact|transposed|chained|chained_t: C's view over its compact [M, N, B] storage:
// column-major (default), n at unit stride (strides N, 1, M*N), or either of those as a chained
// (rank-10, docs/gemm.md) C of one chain per group: the chained pipelines with the store
// pattern of a plain C (to tell a chained C's pipeline cost from its store pattern's).
//
// Sweep: tenferro_bench_vk_gemm sweep [case...|all] [--reps N] [--budget S] [--total S] runs
// every candidate configuration of each case (list in sweep_candidates() below) in this one
// process through the internal override hook: per configuration C is filled with NaN, 2
// warm-up calls (the first compiles the pipeline), `reps` timed calls (default 5; 30 for cases
// under 1 GFLOP), median, 16 sampled outputs checked. One JSON line per configuration, one
// "best" line per case, one "summary" line. A case stops starting configurations after S
// seconds (default 25), the sweep after --total seconds (default 210). `--configs "A B ..."`
// replaces the candidate list by the default and the given configurations.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "harness.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/runtime.hpp"
#include "vulkan/kernels/gemm/config.hpp"
#include "vulkan/kernels/gemm/ozaki.hpp"
#include "vulkan/kernels/gemm/policy.hpp"

using namespace tenferro;
using I = std::int64_t;
using Clock = std::chrono::steady_clock;

namespace {

struct BenchCase {
  const char* name;
  DType d;
  I M, N, K, B;
  bool in_all;    // part of "all" (the issue-5 cases)
  bool in_sweep;  // part of "sweep all"
};

constexpr BenchCase kCases[] = {
    {"f32_4096", DType::F32, 4096, 4096, 4096, 1, true, true},
    {"f32_8192", DType::F32, 8192, 8192, 8192, 1, true, true},
    {"f64_4096", DType::F64, 4096, 4096, 4096, 1, true, true},
    {"c32_4096", DType::C32, 4096, 4096, 4096, 1, true, true},
    {"c64_2048", DType::C64, 2048, 2048, 2048, 1, true, true},
    {"f64_batched", DType::F64, 256, 256, 256, 1024, true, true},
    // Small sizes (PyTorch comparison), a tall-skinny and a split-K shape: sweep and by name.
    {"f32_64", DType::F32, 64, 64, 64, 1, false, true},
    {"f32_128", DType::F32, 128, 128, 128, 1, false, true},
    {"f32_256", DType::F32, 256, 256, 256, 1, false, true},
    {"f32_512", DType::F32, 512, 512, 512, 1, false, true},
    {"f64_64", DType::F64, 64, 64, 64, 1, false, true},
    {"f64_128", DType::F64, 128, 128, 128, 1, false, true},
    {"f64_256", DType::F64, 256, 256, 256, 1, false, true},
    {"f64_512", DType::F64, 512, 512, 512, 1, false, true},
    // The mid class (large, under two waves of large tiles).
    {"f32_1024", DType::F32, 1024, 1024, 1024, 1, false, true},
    {"f32_2048", DType::F32, 2048, 2048, 2048, 1, false, true},
    {"f64_2048", DType::F64, 2048, 2048, 2048, 1, false, true},
    // c64 around the certified Ozaki product's threshold (ozaki_faster: from about 2048^3).
    {"c64_1024", DType::C64, 1024, 1024, 1024, 1, false, true},
    {"c64_4096", DType::C64, 4096, 4096, 4096, 1, false, true},
    {"f32_tall", DType::F32, 16384, 32, 4096, 1, false, true},
    {"f32_splitk", DType::F32, 256, 256, 65536, 1, false, true},
    {"f64_splitk", DType::F64, 256, 256, 65536, 1, false, true},
    // einsum shapes: a narrow step of str_matrix_chain_multiplication_100 (latency-bound on the
    // few tiles it has) and bin_matmul_1024.
    {"f64_chain", DType::F64, 400, 21, 300, 1, false, true},
    {"f64_1024", DType::F64, 1024, 1024, 1024, 1, false, true},
    // lm_batch_likelihood_sentence_3_12d steps: batches of 12 x 12 products (K 144 and 12), and
    // products with K = 11-12 whose output dominates.
    {"f64_lm_b144", DType::F64, 12, 12, 144, 1100, false, true},
    {"f64_lm_b12", DType::F64, 12, 12, 12, 1100, false, true},
    {"f64_lm_k12", DType::F64, 13200, 144, 12, 1, false, true},
    {"f64_lm_k11", DType::F64, 144, 1100, 11, 11, false, true},
    // Its first step, a product of a dozen workgroups: the fixed cost of one GEMM dispatch.
    {"f64_lm_tiny", DType::F64, 12, 144, 12, 1, false, true},
    // Small smoke cases (not in "all"): quick result checks on lavapipe.
    {"smoke_f32", DType::F32, 300, 260, 130, 2, false, false},
    {"smoke_c64", DType::C64, 70, 65, 33, 3, false, false},
    {"smoke_tall", DType::F64, 300, 7, 40, 2, false, false},
};

bool wide = false;  // --wide

/// A compact host tensor of n elements with values in [-1, 1) from a cheap LCG (--wide: scaled).
Tensor random_host(DType d, const Shape& shape, std::uint64_t seed) {
  Tensor t = cpu_backend().allocate(d, shape);
  const I n = t.numel() * (is_complex(d) ? 2 : 1);
  std::byte* p = t.storage()->host_data();
  std::uint64_t s = seed * 6364136223846793005ull + 1442695040888963407ull;
  for (I i = 0; i < n; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    double v = static_cast<double>(s >> 11) * (2.0 / 9007199254740992.0) - 1.0;
    if (wide) v = std::ldexp(v, 40 * static_cast<int>(i % 7) - 120);
    if (d == DType::F32 || d == DType::C32) {
      const float f = static_cast<float>(v);
      std::memcpy(p + i * 4, &f, 4);
    } else {
      std::memcpy(p + i * 8, &v, 8);
    }
  }
  return t;
}

std::complex<double> elem(const Tensor& t, I i) {
  const std::byte* p = t.storage()->host_data();
  switch (t.dtype()) {
    case DType::F32: { float x; std::memcpy(&x, p + i * 4, 4); return x; }
    case DType::F64: { double x; std::memcpy(&x, p + i * 8, 8); return x; }
    case DType::C32: { float x[2]; std::memcpy(x, p + i * 8, 8); return {x[0], x[1]}; }
    default: { double x[2]; std::memcpy(x, p + i * 16, 16); return {x[0], x[1]}; }
  }
}

std::string c_layout = "compact";  // --c-layout
std::string ozaki;                  // --ozaki MODULI[:c]

/// Operands of one case: host copies (for the check) and device tensors.
struct Problem {
  const BenchCase& c;
  Tensor ha, hb, a, b, out;
  I sm = 1, sn = 0, sb = 0;  // C's strides (elements of out's storage)
  GemmCall call;
  Problem(Backend& be, const BenchCase& bc) : c(bc) {
    ha = random_host(c.d, {c.M, c.K, c.B}, 1);
    hb = random_host(c.d, {c.K, c.N, c.B}, 2);
    a = be.upload(ha);
    b = be.upload(hb);
    out = be.allocate(c.d, {c.M, c.N, c.B});
    call.a = a;
    call.b = b;
    const bool t = c_layout == "transposed" || c_layout == "chained_t";
    sm = t ? c.N : 1;
    sn = t ? 1 : c.M;
    sb = c.M * c.N;
    if (c_layout.rfind("chained", 0) == 0)
      call.c = TensorView(out.storage(), c.d,
                          Layout{{c.M, 1, 1, 1, c.N, 1, 1, 1, c.B, 1}, {sm, 0, 0, 0, sn, 0, 0, 0, sb, 0}, 0});
    else
      call.c = TensorView(out.storage(), c.d, Layout{{c.M, c.N, c.B}, {sm, sn, sb}, 0});
    call.alpha = Scalar::of(DType::F64, 1.0);
    call.beta = Scalar::of(DType::F64, 0.0);
    be.synchronize();
  }
  double flops() const {
    return (is_complex(c.d) ? 8.0 : 2.0) * double(c.M) * double(c.N) * double(c.K) * double(c.B);
  }
};

struct Timing {
  double median = 0, best = 0;
  bool ok = false;
  double err = 0;  // largest |got - want| / sum |a||b| of the sampled elements
};

/// 16 sampled elements of C (downloaded one by one) against a host dot product in double;
/// `err`: the largest |got - want| / sum_k |a||b| among them.
bool check(Backend& be, const Problem& pr, double& err) {
  const BenchCase& c = pr.c;
  const double eps = c.d == DType::F32 || c.d == DType::C32 ? 1.2e-7 : 2.3e-16;
  bool ok = true;
  std::uint64_t s = 12345;
  for (int i = 0; i < 16; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const I m = I(s >> 33) % c.M, n = I(s >> 13) % c.N, bi = I(s >> 40) % c.B;
    std::complex<double> want = 0;
    double mag = 0;
    for (I k = 0; k < c.K; ++k) {
      const auto x = elem(pr.ha, m + k * c.M + bi * c.M * c.K), y = elem(pr.hb, k + n * c.K + bi * c.K * c.N);
      want += x * y;
      mag += std::abs(x) * std::abs(y);
    }
    const I at = m * pr.sm + n * pr.sn + bi * pr.sb;
    const Tensor h = be.download(TensorView(pr.out.storage(), c.d, Layout{{1}, {1}, at}));
    const auto got = elem(h, 0);
    if (!(std::abs(got - want) <= 2.0 * double(c.K + 2) * eps * mag)) ok = false;
    err = std::max(err, std::abs(got - want) / mag);
  }
  return ok;
}

/// Warm-up (>= 2 calls, >= 300 ms), `reps` timed gemm + synchronize, median; C is NaN before the
/// first call. With `stream`, products under 0.1 GFLOP are timed as 50 calls in a row, under 2
/// GFLOP as 10 (each writes the same C, so they run one after the other, as the dependent steps
/// of an einsum do) inside one session (batched into one submission, as einsum runs its steps;
/// outside a session every call is its own submission: 11-12 us per call on the H200 even for 1 x
/// 1 x 1) before the synchronize, divided by the count: the time of one call inside a stream, not
/// the fence latency and not the slower start of a GPU that idled between synchronized calls
/// (H200: f64 144 x 1100 x 1728 0.100 ms per synchronized call, 60 us inside einsum's
/// stream). The sweep always streams; plain runs with --stream. Without it each timed call is
/// one gemm + synchronize, as tools/gpu/peer_gemm_small.py times PyTorch.
Timing measure(Backend& be, Problem& pr, int reps, bool stream) {
  const int inner = !stream ? 1 : pr.flops() < 1e8 ? 50 : pr.flops() < 2e9 ? 10 : 1;
  be.fill(pr.out, is_complex(pr.c.d) ? Scalar::of_complex(DType::C64, c64(std::nan(""), std::nan("")))
                                      : Scalar::of(DType::F64, std::nan("")));
  // Warm-up: at least 2 calls and 300 ms of back-to-back calls. A GPU that sat idle (uploads,
  // host checks) runs the first ~100 ms of work slowly (seen on the H200: 4.1 vs 16.4 TFLOP/s
  // for the same f64 batched configuration first vs later in a sweep).
  bench::run_for(0.3, 2, [&] {
    be.gemm(pr.call);
    be.synchronize();
  });
  std::vector<double> secs, cpu;  // wall per call; the calling thread's CPU time per call
  auto thread_cpu = [] {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  };
  for (int r = 0; r < reps; ++r) {
    const auto t0 = Clock::now();
    const double c0 = thread_cpu();
    if (inner > 1) {  // a stream of calls: one session, batched as einsum batches its steps
      with_session(be, [&] {
        for (int i = 0; i < inner; ++i) be.gemm(pr.call);
      });
    } else {
      be.gemm(pr.call);
    }
    cpu.push_back((thread_cpu() - c0) / inner);
    be.synchronize();
    secs.push_back(std::chrono::duration<double>(Clock::now() - t0).count() / inner);
  }
  std::sort(secs.begin(), secs.end());
  std::sort(cpu.begin(), cpu.end());
  if (inner > 1) std::fprintf(stderr, "%s: host CPU %.2f us per call in the stream\n", pr.c.name, cpu[cpu.size() / 2] * 1e6);
  Timing t{secs[secs.size() / 2], secs.front(), false, 0.0};
  t.ok = check(be, pr, t.err);
  return t;
}

bool run_case(Backend& be, const BenchCase& c, int reps, bool stream) {
  Problem pr(be, c);
  const Timing t = measure(be, pr, reps, stream);
  const char* tile = std::getenv("TENFERRO_VK_GEMM_TILE");
  const std::string dflt = vk::gemm_uses_small_kernel(c.M, c.N, c.K, c.B)
                               ? std::string("gemm_small")
                               : vk::gemm_config_string(vk::gemm_default_config_on(be, {c.d, c.M, c.N, c.K, c.B}));
  std::printf("%-12s %-4s M=%lld N=%lld K=%lld B=%lld tile=%s  median %.3f ms  %.2f TFLOP/s (best %.2f)  check %s"
              " (err %.1e)\n",
              c.name, dtype_name(c.d).data(), (long long)c.M, (long long)c.N, (long long)c.K, (long long)c.B,
              tile ? tile : ("default " + dflt).c_str(), t.median * 1e3, pr.flops() / t.median * 1e-12,
              pr.flops() / t.best * 1e-12, t.ok ? "ok" : "FAILED", t.err);
  std::fflush(stdout);
  return t.ok;
}

// ---- sweep ---------------------------------------------------------------------------------

/// Candidate configurations of a case, most promising first (a case's time budget may cut
/// the tail): the default first (the baseline), then the case's `front` list (the variants
/// under study: r = register double buffering, g = tile groups, x = unpadded / swizzled shared
/// rows, 256-thread f64 / c64 tiles), then the first 4 tiles of the case's list with
/// the option sets "wf", "-", "f", "tf", then the other tiles option set by option set ("s"
/// added where the double-buffered tile does not fit the device's shared memory). Invalid
/// combinations are dropped.
std::vector<vk::GemmConfig> sweep_candidates(Backend& be, const BenchCase& c) {
  using Tile = std::array<int, 5>;
  std::vector<Tile> tiles;
  const bool big = c.M >= 512 && c.N >= 512;
  std::vector<int> splits = {0};
  std::vector<const char*> front;  // full configurations run right after the default
  if (std::strstr(c.name, "chain")) {
    tiles = {{128, 32, 16, 8, 4}, {64, 32, 16, 4, 4}, {32, 32, 16, 4, 4}, {32, 32, 8, 4, 4},
             {64, 32, 8, 4, 4}, {32, 16, 16, 4, 4}, {16, 32, 16, 4, 4}};
    splits = {1, 0, 2, 4, 8, 16};
  } else if (std::strstr(c.name, "f64_lm_b")) {
    tiles = {{16, 16, 16, 4, 4}, {16, 16, 8, 4, 4}, {16, 16, 16, 2, 2}, {16, 16, 32, 4, 4},
             {32, 32, 16, 4, 4}, {16, 16, 16, 8, 8}, {32, 16, 16, 4, 4}};
    splits = {1};
  } else if (std::strstr(c.name, "f64_lm_k")) {
    tiles = {{64, 128, 16, 8, 8}, {128, 64, 16, 8, 4}, {64, 64, 16, 4, 4}, {128, 128, 16, 8, 8},
             {64, 64, 16, 8, 8}, {128, 32, 16, 8, 4}, {32, 128, 16, 4, 8}, {64, 64, 8, 4, 4}};
    splits = {1};
  } else if (std::strstr(c.name, "f64_1024")) {
    tiles = {{64, 128, 16, 8, 8}, {64, 64, 16, 8, 8}, {128, 64, 16, 8, 4}, {64, 64, 16, 4, 4}};
    splits = {0, 1, 2, 4};
    front = {"64,128,16,8,8,fs,1", "64,128,16,8,8,fs,2", "64,128,16,8,8,fs,4", "64,128,16,8,8,fs,8"};
  } else if (std::strstr(c.name, "splitk")) {
    tiles = {{64, 64, 16, 4, 4}, {32, 32, 16, 4, 4}, {64, 64, 8, 4, 4}};
    splits = {1, 0, 2, 4, 8, 16, 32};
  } else if (std::strstr(c.name, "tall")) {
    tiles = {{256, 32, 16, 8, 4}, {256, 32, 8, 8, 4}, {128, 32, 16, 4, 4}, {128, 32, 16, 8, 4},
             {256, 32, 16, 4, 4}, {64, 64, 16, 4, 4}, {64, 32, 16, 4, 4}};
  } else if (big && c.B == 1 && c.M <= 2048 && c.N <= 2048 && (c.d == DType::F32 || c.d == DType::F64)) {
    // Mid class (512-2048): tile size against wave count, split K.
    front = {"64,64,16,4,4,f,0",   "64,64,16,4,4,f,1",   "64,64,16,4,4,f,2",   "64,64,16,4,4,wf,1",
             "64,64,16,8,8,f,1",   "64,64,16,8,8,f,0",   "128,64,16,8,4,wf,1", "128,64,16,8,4,wf,0",
             "128,64,16,8,4,wf,2", "64,128,16,4,8,wf,1", "128,128,16,8,8,f,1", "128,128,16,8,8,f,2",
             "128,128,16,8,8,f,4", "64,128,16,8,8,f,1",  "64,128,16,8,8,fs,1", "64,128,16,8,8,fs,2",
             "32,64,16,4,4,f,1",   "64,32,16,4,4,f,1",   "32,32,16,4,4,f,1",   "64,64,8,4,4,f,1",
             "64,64,32,4,4,f,1",   "64,64,16,4,4,-,1",   "128,64,16,8,4,wfs,1"};
  } else if (c.d == DType::F32 && big) {
    tiles = {{128, 128, 16, 8, 8}, {64, 128, 16, 8, 8}, {128, 64, 16, 8, 8}, {128, 128, 8, 8, 8},
             {128, 128, 32, 8, 8}, {64, 128, 32, 8, 8}, {128, 256, 16, 8, 8}, {256, 128, 16, 8, 8},
             {128, 128, 16, 8, 4}, {128, 64, 16, 8, 4}, {64, 64, 16, 4, 4}, {64, 64, 32, 8, 8}};
    front = {"128,128,16,8,8,fr,0",  "128,128,16,8,8,fg,0",  "128,128,16,8,8,fx,0",  "128,128,16,8,8,frg,0",
             "128,128,16,8,8,frx,0", "128,128,16,8,8,frgx,0", "128,128,16,8,8,wfr,0", "128,128,16,8,8,tfr,0",
             "128,128,8,8,8,fr,0",   "128,128,32,8,8,fsr,0",  "128,256,16,8,8,frx,0", "256,128,16,8,8,frx,0",
             "64,128,16,8,8,fr,0"};
  } else if ((c.d == DType::F64 || c.d == DType::C32) && (big || c.B > 1)) {
    tiles = {{128, 128, 8, 8, 8}, {128, 64, 8, 8, 4}, {64, 128, 8, 8, 8}, {128, 128, 16, 8, 8},
             {64, 128, 16, 8, 8}, {128, 64, 16, 8, 4}, {64, 64, 16, 8, 8}, {128, 128, 8, 8, 4},
             {256, 64, 8, 8, 8}, {64, 64, 16, 4, 4}, {64, 64, 8, 4, 4}, {128, 64, 8, 4, 8}};
    if (c.d == DType::F64)
      front = {"64,128,16,8,8,fsr,0", "64,128,16,8,8,fx,0",   "64,128,16,8,8,frx,0",  "64,128,16,8,8,frgx,0",
               "64,128,16,8,8,fsrg,0", "64,128,16,8,8,wfsr,0", "64,128,8,8,8,fr,0",    "64,128,8,8,8,wfr,0",
               "128,128,8,8,8,wfr,0",  "128,128,8,8,8,wfrg,0", "128,64,8,4,8,wfr,0",   "64,128,8,8,4,tfr,0",
               "128,64,16,4,8,wfsr,0", "64,128,16,8,4,tfsr,0", "128,128,16,4,8,fsr,0"};
  } else if (c.d == DType::C64) {
    tiles = {{64, 64, 4, 4, 4}, {64, 64, 8, 4, 4}, {128, 64, 4, 8, 4}, {64, 128, 4, 4, 8},
             {128, 128, 4, 8, 8}, {64, 64, 16, 4, 4}, {128, 64, 8, 4, 4}, {32, 32, 8, 2, 2},
             {64, 32, 8, 4, 4}, {128, 128, 8, 8, 8}};
    front = {"64,32,8,4,4,wfr,0",   "64,32,8,4,4,wfrg,0",  "64,32,8,4,4,wfrx,0", "64,64,8,4,4,wfr,0",
             "64,64,4,4,4,wfr,0",   "128,64,8,8,4,wfrx,0", "64,128,8,4,8,wfrx,0", "128,64,8,4,4,wfrx,0",
             "128,64,8,8,4,wfr,0",  "64,64,8,4,4,tfr,0",   "64,32,16,4,4,wfr,0", "32,64,8,4,4,tfr,0"};
  } else {  // small sizes
    tiles = {{64, 64, 16, 4, 4}, {32, 32, 16, 4, 4}, {64, 64, 8, 4, 4}, {32, 64, 16, 4, 4},
             {64, 32, 16, 4, 4}, {32, 32, 8, 4, 4}, {16, 16, 16, 4, 4}, {64, 64, 16, 4, 8},
             {64, 128, 16, 8, 8}, {128, 128, 16, 8, 8}, {32, 32, 32, 4, 4}};
  }
  std::vector<vk::GemmConfig> out;
  auto add = [&](const vk::GemmConfig& g) {
    if (!vk::gemm_config_valid_on(be, c.d, g)) return;
    if (std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
  };
  auto add_text = [&](const Tile& t, const std::string& o, int sp) {
    const std::string head = std::to_string(t[0]) + "," + std::to_string(t[1]) + "," + std::to_string(t[2]) + "," +
                             std::to_string(t[3]) + "," + std::to_string(t[4]) + ",";
    auto g = vk::parse_gemm_config(head + o + "," + std::to_string(sp));
    if (g && !vk::gemm_config_valid_on(be, c.d, *g))  // double buffer too large: single buffer
      g = vk::parse_gemm_config(head + (o == "-" ? "" : o) + "s," + std::to_string(sp));
    if (g) add(*g);
  };
  add(vk::gemm_default_config_on(be, {c.d, c.M, c.N, c.K, c.B}));
  if (c.K <= 64) front.insert(front.begin(), "small");  // gemm_small.comp
  for (const char* f : front) {  // double buffer too large for the device: single buffer
    auto g = vk::parse_gemm_config(f);
    if (g && !vk::gemm_config_valid_on(be, c.d, *g)) {
      const char* split = std::strrchr(f, ',');  // "...,opts,split" -> "...,optss,split"
      g = vk::parse_gemm_config(std::string(f, split) + "s" + split);
    }
    if (g) add(*g);
  }
  // The first kFull tiles with every option set, then the other tiles option by option.
  constexpr std::size_t kFull = 4;
  const char* const opt_sets[] = {"wf", "-", "f", "tf"};
  for (std::size_t i = 0; i < std::min(kFull, tiles.size()); ++i)
    for (const char* o : opt_sets)
      for (int sp : splits) add_text(tiles[i], o, sp);
  for (const char* o : opt_sets)
    for (std::size_t i = kFull; i < tiles.size(); ++i)
      for (int sp : splits) add_text(tiles[i], o, sp);
  return out;
}

/// `--configs "A B ..."`: the default, then exactly these configurations (invalid ones dropped).
std::vector<vk::GemmConfig> listed_candidates(Backend& be, const BenchCase& c, const std::string& list) {
  std::vector<vk::GemmConfig> out = {vk::gemm_default_config_on(be, {c.d, c.M, c.N, c.K, c.B})};
  std::size_t at = 0;
  while (at < list.size()) {
    const std::size_t end = std::min(list.find(' ', at), list.size());
    const auto g = vk::parse_gemm_config(std::string_view(list).substr(at, end - at));
    if (g && vk::gemm_config_valid_on(be, c.d, *g) && std::find(out.begin(), out.end(), *g) == out.end())
      out.push_back(*g);
    at = end + 1;
  }
  return out;
}

bool sweep_case(Backend& be, const BenchCase& c, int reps, double budget, const std::string& configs) {
  const auto t0 = Clock::now();
  Problem pr(be, c);
  const int r = pr.flops() < 1e9 ? std::max(reps, 30) : reps;
  const std::vector<vk::GemmConfig> cands =
      configs.empty() ? sweep_candidates(be, c) : listed_candidates(be, c, configs);
  const std::string dflt = vk::gemm_config_string(vk::gemm_default_config_on(be, {c.d, c.M, c.N, c.K, c.B}));
  double best = 0, dflt_tf = 0;
  std::string best_cfg = "none";
  int run = 0;
  bool all_ok = true;
  for (const vk::GemmConfig& g : cands) {
    if (std::chrono::duration<double>(Clock::now() - t0).count() > budget) break;
    vk::set_gemm_config_override(g);
    const std::string name = vk::gemm_config_string(g);
    Timing t;
    std::string err;
    try {
      t = measure(be, pr, r, true);
    } catch (const std::exception& e) {
      err = e.what();
    }
    vk::set_gemm_config_override(std::nullopt);
    ++run;
    const double tf = err.empty() ? pr.flops() / t.median * 1e-12 : 0.0;
    std::printf("{\"case\":\"%s\",\"config\":\"%s\",\"median_ms\":%.4f,\"best_ms\":%.4f,\"tflops\":%.3f,\"ok\":%s%s%s}\n",
                c.name, name.c_str(), t.median * 1e3, t.best * 1e3, tf, t.ok ? "true" : "false",
                err.empty() ? "" : ",\"error\":\"", err.empty() ? "" : (err.substr(0, 120) + "\"").c_str());
    std::fflush(stdout);
    all_ok &= t.ok;
    if (name == dflt) dflt_tf = tf;
    if (t.ok && tf > best) {
      best = tf;
      best_cfg = name;
    }
  }
  std::printf("{\"case\":\"%s\",\"best\":\"%s\",\"tflops\":%.3f,\"default\":\"%s\",\"default_tflops\":%.3f,"
              "\"configs_run\":%d,\"configs_listed\":%zu,\"seconds\":%.1f}\n",
              c.name, best_cfg.c_str(), best, dflt.c_str(), dflt_tf, run, cands.size(),
              std::chrono::duration<double>(Clock::now() - t0).count());
  std::fflush(stdout);
  return all_ok;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 0;
  double budget = 25, total = 210;
  bool sweep = false, stream = false;
  std::string configs;  // sweep: explicit candidate list
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
    else if (arg == "--budget" && i + 1 < argc) budget = std::atof(argv[++i]);
    else if (arg == "--total" && i + 1 < argc) total = std::atof(argv[++i]);
    else if (arg == "--configs" && i + 1 < argc) configs = argv[++i];
    else if (arg == "sweep") sweep = true;
    else if (arg == "--stream") stream = true;
    else if (arg == "--wide") wide = true;
    else if (arg == "--c-layout" && i + 1 < argc) c_layout = argv[++i];
    else if (arg == "--ozaki" && i + 1 < argc) ozaki = argv[++i];
    else names.emplace_back(arg);
  }
  if (reps == 0) reps = sweep ? 5 : 10;
  if (c_layout != "compact" && c_layout != "transposed" && c_layout != "chained" && c_layout != "chained_t") {
    std::printf("error: --c-layout %s: expected compact, transposed, chained or chained_t\n", c_layout.c_str());
    return 2;
  }
  if (names.empty()) names.emplace_back("all");
  if (!ozaki.empty()) {
    int n = 0;
    char cert = 0;
    const int got = std::sscanf(ozaki.c_str(), "%d:%c", &n, &cert);
    if (got < 1 || (got == 2 && cert != 'c')) {
      std::printf("error: --ozaki %s: expected MODULI[:c]\n", ozaki.c_str());
      return 2;
    }
    vk::set_gemm_ozaki_override(vk::OzakiOverride{.moduli = n, .certified = got == 2});
  }
  if (!vulkan_available()) {
    std::printf("no Vulkan device\n");
    return 2;
  }
  Backend& be = get_backend("vulkan");
  std::printf("device: %s\n", be.device_name().c_str());
  if (const auto info = device_info(be))
    for (const std::string& line : info->details)
      if (line.find("shared") != std::string::npos || line.find("subgroup") != std::string::npos)
        std::printf("  %s\n", line.c_str());
  bool ok = true;
  const auto start = Clock::now();
  try {
    const bool all = std::find(names.begin(), names.end(), "all") != names.end();
    // Named cases, then any "dtype:MxNxK[xB]" given (e.g. f64:12x144x1: a shape to try ad hoc).
    std::vector<BenchCase> cases(std::begin(kCases), std::end(kCases));
    for (const std::string& n : names) {
      long long m = 0, nn = 0, k = 0, b = 1;
      char dt[8] = {0};
      if (std::sscanf(n.c_str(), "%7[a-z0-9]:%lldx%lldx%lldx%lld", dt, &m, &nn, &k, &b) < 4) continue;
      const std::optional<DType> d = parse_dtype(dt);
      if (!d || m < 0 || nn < 0 || k < 0 || b < 1) continue;
      cases.push_back({n.c_str(), *d, m, nn, k, b, false, false});
    }
    for (const BenchCase& c : cases) {
      const bool listed = std::find(names.begin(), names.end(), c.name) != names.end();
      if (!listed && !(all && (sweep ? c.in_sweep : c.in_all))) continue;
      if (!be.supports(OpId::dot_general, c.d)) {
        std::printf("%-12s not supported on this device\n", c.name);
        continue;
      }
      if (!sweep) {
        ok &= run_case(be, c, reps, stream);
        continue;
      }
      const double left = total - std::chrono::duration<double>(Clock::now() - start).count();
      if (left <= 0) {
        std::printf("{\"case\":\"%s\",\"skipped\":\"total budget spent\"}\n", c.name);
        continue;
      }
      ok &= sweep_case(be, c, reps, std::min(budget, left), configs);
    }
  } catch (const std::exception& e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
  if (sweep)
    std::printf("{\"summary\":true,\"ok\":%s,\"seconds\":%.1f}\n", ok ? "true" : "false",
                std::chrono::duration<double>(Clock::now() - start).count());
  return ok ? 0 : 1;
}
