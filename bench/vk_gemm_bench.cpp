// Vulkan GEMM benchmark: Backend::gemm on the default Vulkan device for the cases of issue 5
// (f32 4096^3 and 8192^3, f64 4096^3, c32 4096^3, c64 2048^3, batched f64 1024 x 256^3), compact
// column-major operands. Per case: 2 warm-up calls, then `reps` timed calls, each timed by the
// host clock around gemm + synchronize() (fence wait); prints the median and best TFLOP/s
// (2*M*N*K*B flops real, 8*M*N*K*B complex) and checks 16 sampled elements of C against a
// double-precision host dot product.
//
// Usage: tenferro_bench_vk_gemm [case...] [--reps N]; cases: f32_4096 f32_8192 f64_4096
// c32_4096 c64_2048 f64_batched, or "all" (default); smoke_f32 smoke_c64 are small checks. TENFERRO_VK_GEMM_TILE="bm,bn,bk,tm,tn"
// overrides the kernel's tile (src/vulkan/kernels/gemm.cpp). Exit code 1 on a wrong result.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tenferro/backend.hpp"
#include "tenferro/runtime.hpp"

using namespace tenferro;
using I = std::int64_t;

namespace {

struct BenchCase {
  const char* name;
  DType d;
  I M, N, K, B;
};

constexpr BenchCase kCases[] = {
    {"f32_4096", DType::F32, 4096, 4096, 4096, 1},  {"f32_8192", DType::F32, 8192, 8192, 8192, 1},
    {"f64_4096", DType::F64, 4096, 4096, 4096, 1},  {"c32_4096", DType::C32, 4096, 4096, 4096, 1},
    {"c64_2048", DType::C64, 2048, 2048, 2048, 1},  {"f64_batched", DType::F64, 256, 256, 256, 1024},
    // Small smoke cases (not in "all"): quick result checks on lavapipe.
    {"smoke_f32", DType::F32, 300, 260, 130, 2},     {"smoke_c64", DType::C64, 70, 65, 33, 3},
};

/// A compact host tensor of n elements with values in [-1, 1) from a cheap LCG.
Tensor random_host(DType d, const Shape& shape, std::uint64_t seed) {
  Tensor t = cpu_backend().allocate(d, shape);
  const I n = t.numel() * (is_complex(d) ? 2 : 1);
  std::byte* p = t.storage()->host_data();
  std::uint64_t s = seed * 6364136223846793005ull + 1442695040888963407ull;
  for (I i = 0; i < n; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const double v = static_cast<double>(s >> 11) * (2.0 / 9007199254740992.0) - 1.0;
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

bool run_case(Backend& be, const BenchCase& c, int reps) {
  const Tensor ha = random_host(c.d, {c.M, c.K, c.B}, 1), hb = random_host(c.d, {c.K, c.N, c.B}, 2);
  const Tensor a = be.upload(ha), b = be.upload(hb);
  const Tensor out = be.allocate(c.d, {c.M, c.N, c.B});
  GemmCall call;
  call.a = a;
  call.b = b;
  call.c = out;
  call.alpha = Scalar::of(DType::F64, 1.0);
  call.beta = Scalar::of(DType::F64, 0.0);
  be.synchronize();
  for (int i = 0; i < 2; ++i) be.gemm(call);
  be.synchronize();
  std::vector<double> secs;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    be.gemm(call);
    be.synchronize();
    secs.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(secs.begin(), secs.end());
  const double flops = (is_complex(c.d) ? 8.0 : 2.0) * double(c.M) * double(c.N) * double(c.K) * double(c.B);
  const double med = secs[secs.size() / 2], best = secs.front();

  // 16 sampled elements against a host dot product in double.
  const Tensor hc = be.download(out);
  const double eps = c.d == DType::F32 || c.d == DType::C32 ? 1.2e-7 : 2.3e-16;
  bool ok = true;
  std::uint64_t s = 12345;
  for (int i = 0; i < 16; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const I m = I(s >> 33) % c.M, n = I(s >> 13) % c.N, bi = I(s >> 40) % c.B;
    std::complex<double> want = 0;
    double mag = 0;
    for (I k = 0; k < c.K; ++k) {
      const auto x = elem(ha, m + k * c.M + bi * c.M * c.K), y = elem(hb, k + n * c.K + bi * c.K * c.N);
      want += x * y;
      mag += std::abs(x) * std::abs(y);
    }
    const auto got = elem(hc, m + n * c.M + bi * c.M * c.N);
    if (!(std::abs(got - want) <= 2.0 * double(c.K + 2) * eps * mag)) ok = false;
  }
  const char* tile = std::getenv("TENFERRO_VK_GEMM_TILE");
  std::printf("%-12s %-4s M=%lld N=%lld K=%lld B=%lld tile=%s  median %.3f ms  %.2f TFLOP/s (best %.2f)  check %s\n",
              c.name, dtype_name(c.d).data(), (long long)c.M, (long long)c.N, (long long)c.K, (long long)c.B,
              tile ? tile : "default", med * 1e3, flops / med * 1e-12, flops / best * 1e-12, ok ? "ok" : "FAILED");
  std::fflush(stdout);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 10;
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
    else names.emplace_back(argv[i]);
  }
  if (names.empty()) names.emplace_back("all");
  if (!vulkan_available()) {
    std::printf("no Vulkan device\n");
    return 2;
  }
  Backend& be = get_backend("vulkan");
  std::printf("device: %s\n", be.device_name().c_str());
  for (const DeviceInfo& info : list_devices())
    if (info.name + " (" + info.type + ", " + info.driver + ")" == be.device_name())
      for (const std::string& line : info.details)
        if (line.find("shared") != std::string::npos || line.find("subgroup") != std::string::npos)
          std::printf("  %s\n", line.c_str());
  bool ok = true;
  try {
    for (const BenchCase& c : kCases) {
      const bool all = std::find(names.begin(), names.end(), "all") != names.end();
      if (!(all && std::strncmp(c.name, "smoke", 5) != 0) &&
          std::find(names.begin(), names.end(), c.name) == names.end())
        continue;
      if (!be.supports(OpId::dot_general, c.d)) {
        std::printf("%-12s not supported on this device\n", c.name);
        continue;
      }
      ok &= run_case(be, c, reps);
    }
  } catch (const std::exception& e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
  return ok ? 0 : 1;
}
