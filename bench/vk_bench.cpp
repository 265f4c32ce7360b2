// Vulkan provider benchmark (issue 3 figures): device copy bandwidth (the ceiling), add f32
// 2^28 as a fraction of it, upload/download bandwidth, and per-op overhead of small ops inside
// a session (2000 chained adds of 1000 elements, as tools/peer_bench.py `overhead` does).
// Host clock around the work plus synchronize(); 3 warm-ups; medians of >= 20 samples; large
// ops are timed 10 per sample inside one session so the fence wait is amortised.
//   tenferro_bench_vk [--quick] [--device N]      --quick: small sizes + result checks (CI)
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "harness.hpp"
#include "tenferro/ops.hpp"
#include "tenferro/runtime.hpp"

using namespace tenferro;
using tenferro::bench::measure;
using tenferro::bench::Options;
using tenferro::bench::Record;

namespace {

Tensor host_f32(std::int64_t n, float base) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = base + static_cast<float>(i % 1000) * 0.001f;
  return host_tensor<float>({n}, v);
}

bool check_add(Backend& be, const Tensor& x, const Tensor& y, const Tensor& hx, const Tensor& hy) {
  Tensor z = download(be, add(be, x, y));
  auto vz = to_vector<float>(z), vx = to_vector<float>(hx), vy = to_vector<float>(hy);
  for (std::size_t i = 0; i < vz.size(); ++i)
    if (vz[i] != vx[i] + vy[i]) {
      std::fprintf(stderr, "add mismatch at %zu: %g != %g\n", i, double(vz[i]), double(vx[i] + vy[i]));
      return false;
    }
  return true;
}

Record make_record(const std::string& op, const std::string& shape) {
  Record r;
  r.op = op;
  r.dtype = "f32";
  r.shape = shape;
  r.backend = "vulkan";
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  int device = -1;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    else if (!std::strcmp(argv[i], "--device") && i + 1 < argc) device = std::atoi(argv[++i]);
  }
  if (!vulkan_available()) {
    std::fprintf(stderr, "tenferro_bench_vk: no Vulkan device\n");
    return 2;
  }
  Backend& be = get_backend("vulkan", device);
  std::fprintf(stderr, "device: %s\n", be.device_name().c_str());
  const std::int64_t n = quick ? (1 << 16) : (std::int64_t{1} << 28);
  const int per_sample = quick ? 2 : 10;
  Options opt{3, quick ? 5 : 20};
  std::vector<Record> rows;

  Tensor hx = host_f32(n, 1.0f), hy = host_f32(n, 2.0f);
  // Upload / download bandwidth (staging or direct mapping, whichever the device uses).
  Tensor x, y;
  {
    Record r = make_record("upload", "[" + std::to_string(n) + "]");
    r.t = measure([&] { x = upload(be, hx); be.synchronize(); }, opt);
    r.bytes = 4.0 * static_cast<double>(n);
    rows.push_back(r);
    y = upload(be, hy);
    Record d = make_record("download", r.shape);
    d.t = measure([&] { Tensor h = download(be, x); }, opt);
    d.bytes = r.bytes;
    rows.push_back(d);
  }
  if (!check_add(be, x, y, hx, hy)) return 1;

  Tensor out = be.allocate(DType::F32, {n});
  auto timed = [&](auto&& op) {
    return measure([&] {
      with_session(be, [&] {
        for (int k = 0; k < per_sample; ++k) op();
      });
      be.synchronize();
    }, opt);
  };
  Record copy = make_record("copy", "[" + std::to_string(n) + "]");
  copy.t = timed([&] { copy_into(be, x, out); });
  copy.t.median_us /= per_sample, copy.t.p10_us /= per_sample, copy.t.p90_us /= per_sample;
  copy.bytes = 8.0 * static_cast<double>(n);
  rows.push_back(copy);
  const double copy_gbps = copy.rate();

  Record addr = make_record("add", copy.shape);
  addr.t = timed([&] { Tensor z = add(be, x, y); });
  addr.t.median_us /= per_sample, addr.t.p10_us /= per_sample, addr.t.p90_us /= per_sample;
  addr.bytes = 12.0 * static_cast<double>(n);
  addr.ceiling = copy_gbps;
  addr.ceiling_name = "device copy (same run)";
  rows.push_back(addr);

  // Small-op overhead: 2000 chained adds of 1000 elements in one session.
  Tensor s = upload(be, host_f32(1000, 0.5f)), one = upload(be, host_f32(1000, 1.0f));
  const int chain = quick ? 50 : 2000;
  Record ov = make_record("overhead_small_add", "[1000]");
  ov.t = measure([&] {
    with_session(be, [&] {
      Tensor z = s;
      for (int k = 0; k < chain; ++k) z = add(be, z, one);
    });
    be.synchronize();
  }, Options{2, quick ? 3 : 7});
  ov.t.median_us /= chain, ov.t.p10_us /= chain, ov.t.p90_us /= chain;
  ov.flops = 1000.0;  // reported as a rate only for completeness; the figure is median_us
  rows.push_back(ov);

  for (const Record& r : rows) std::printf("%s\n", r.json().c_str());
  std::fprintf(stderr, "\n%-22s %12s %12s %10s\n", "case", "median_us", "GB/s", "%copy");
  for (const Record& r : rows)
    std::fprintf(stderr, "%-22s %12.2f %12.1f %10.1f\n", r.op.c_str(), r.t.median_us,
                 r.bytes > 0 ? r.rate() : 0.0, r.pct());
  return 0;
}
