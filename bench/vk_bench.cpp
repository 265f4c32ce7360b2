// Vulkan provider benchmark: device copy bandwidth (the ceiling), add f32 2^28 (and div,
// correctly rounded in software; exp, sin, reduce_sum, c32 exp / mul, scatter-add) as a fraction
// of it, upload/download bandwidth, and per-op overhead of small ops inside a session (2000
// chained adds of 1000 elements, as ../shared/tools/peer_bench.py `overhead` does).
// Host clock around the work plus synchronize(); 3 warm-ups; medians of >= 20 samples; large
// ops are timed 10 per sample inside one session so the fence wait is amortised.
// overhead_small_add_record is the host time to record the chain alone (see below); the
// <case>_gpu records are GPU timestamp times per dispatch (Backend::profile_begin/end).
//   tenferro_bench_vk [--quick] [--device N] [--chain N]
//     --quick: small sizes + result checks (CI); --chain: length of the small-add chain
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <ctime>
#include <vector>

#include "harness.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"
#include "tenferro/runtime.hpp"

using namespace tenferro;
using tenferro::bench::measure;
using tenferro::bench::run_for;
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
  int device = -1, chain_arg = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    else if (!std::strcmp(argv[i], "--device") && i + 1 < argc) device = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--chain") && i + 1 < argc) chain_arg = std::atoi(argv[++i]);
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
  // Time per op: per_sample ops in one session per sample.
  auto timed = [&](auto&& op) {
    auto t = measure([&] {
      with_session(be, [&] {
        for (int k = 0; k < per_sample; ++k) op();
      });
      be.synchronize();
    }, opt);
    t.median_us /= per_sample, t.p10_us /= per_sample, t.p90_us /= per_sample;
    return t;
  };
  // GPU warm-up: >= 300 ms of back-to-back copies first. After the host-side upload/download
  // phase the H200 ran the first copies at 40% of their later speed (copy 1276 us first, 519 us
  // after add), which made the copy ceiling and add's ratio meaningless.
  run_for(0.3, 1, [&] {
    with_session(be, [&] {
      for (int k = 0; k < per_sample; ++k) copy_into(be, x, out);
    });
    be.synchronize();
  });
  Record copy = make_record("copy", "[" + std::to_string(n) + "]");
  copy.t = timed([&] { copy_into(be, x, out); });
  copy.bytes = 8.0 * static_cast<double>(n);
  rows.push_back(copy);
  const double copy_gbps = copy.rate();

  // A binary op on x, y (12 bytes per element) against the copy ceiling. div: f32 division is
  // correctly rounded in software (shaders/elementwise/ops.glsl op_div): still memory-bound?
  auto binary_row = [&](const char* name, auto&& op) {
    Record r = make_record(name, copy.shape);
    r.t = timed(op);
    r.bytes = 12.0 * static_cast<double>(n);
    r.ceiling = copy_gbps;
    r.ceiling_name = "device copy (same run)";
    rows.push_back(r);
    return r;
  };
  const Record addr = binary_row("add", [&] { Tensor z = add(be, x, y); });
  const Record divr = binary_row("div", [&] { Tensor z = div(be, x, y); });
  // f32 ops of the families that compute in f64 where the device flushes f32 subnormals (the "w"
  // variants, docs/accuracy.md; TENFERRO_VK_F32_VIA_F64 compares the two): exp and sin through
  // the shader math library (8 bytes per element) and a whole-tensor sum (4).
  auto stream_row = [&](const char* name, double bytes_per_element, auto&& op) {
    Record r = make_record(name, copy.shape);
    r.t = timed(op);
    r.bytes = bytes_per_element * static_cast<double>(n);
    r.ceiling = copy_gbps;
    r.ceiling_name = "device copy (same run)";
    rows.push_back(r);
  };
  stream_row("exp", 8.0, [&] { Tensor z = exp(be, x); });
  stream_row("sin", 8.0, [&] { Tensor z = sin(be, y); });
  stream_row("reduce_sum", 4.0, [&] { Tensor z = reduce_sum(be, x, {0}); });
  // c32 (n / 2 elements: 8 bytes per f32 element in and out for exp, 12 for mul) and scatter-add
  // of n / 4 f32 updates at spread, partly repeated targets (the result a fresh copy of x: 8 bytes
  // per element, plus 16 per update); mul_c64 on the same values in c64 (24 bytes per f32
  // element). Rows named <op>_c32 / _c64 / scatter_add; `dtype` stays f32.
  {
    SliceConfig half{{0}, {n / 2}, {1}};
    Tensor xc = convert(be, slice_copy(be, x, half), DType::C32);
    stream_row("exp_c32", 8.0, [&] { Tensor z = exp(be, xc); });
    stream_row("mul_c32", 12.0, [&] { Tensor z = mul(be, xc, xc); });
    {
      Tensor xz = convert(be, xc, DType::C64);
      stream_row("mul_c64", 24.0, [&] { Tensor z = mul(be, xz, xz); });
      stream_row("add_c32", 12.0, [&] { Tensor z = add(be, xc, xc); });
    }
    const std::int64_t m = n / 4;
    std::vector<std::int32_t> iv(static_cast<std::size_t>(m));
    for (std::int64_t i = 0; i < m; ++i) iv[static_cast<std::size_t>(i)] = static_cast<std::int32_t>((i * 7919) % n);
    Tensor idx = upload(be, host_tensor<std::int32_t>({m, 1}, iv));
    SliceConfig quarter{{0}, {m}, {1}};
    Tensor upd = slice_copy(be, y, quarter);
    ScatterConfig sc;
    sc.inserted_window_dims = {0};
    sc.scatter_dims_to_operand_dims = {0};
    sc.index_vector_dim = 1;
    sc.combiner = ScatterCombiner::add;
    stream_row("scatter_add", 8.0 + 16.0 / 4.0, [&] { Tensor z = scatter(be, x, idx, upd, sc); });
  }

  // Copy again, after add (warm clocks): on the H200 the copy row's samples were bimodal (p10
  // 520 us, median 1337 us) while add was steady; copy_again and copy_fresh (a new output per
  // copy, like add) tell an ordering/warm-up effect from one of the repeated output buffer.
  Record copy2 = make_record("copy_again", copy.shape);
  copy2.t = timed([&] { copy_into(be, x, out); });
  copy2.bytes = copy.bytes;
  rows.push_back(copy2);
  Record copy3 = make_record("copy_fresh", copy.shape);
  copy3.t = timed([&] {
    Tensor o = be.allocate(DType::F32, {n});
    copy_into(be, x, o);
  });
  copy3.bytes = copy.bytes;
  rows.push_back(copy3);

  // Small-op overhead: 2000 chained adds of 1000 elements in one session. Besides the total
  // (record + submit + GPU + synchronize), the host time to *record* the chain (the loop inside
  // the session, before end_session() submits the tail and synchronize() waits) is reported as
  // overhead_small_add_record: total - record ~ GPU time not hidden behind recording.
  Tensor s = upload(be, host_f32(1000, 0.5f)), one = upload(be, host_f32(1000, 1.0f));
  const int chain = chain_arg > 0 ? chain_arg : quick ? 50 : 2000;
  const Options ov_opt{2, quick ? 3 : 7};
  std::vector<double> record_us, record_cpu_us;  // wall and this thread's CPU time
  auto thread_cpu_us = [] {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) * 1e-3;
  };
  Record ov = make_record("overhead_small_add", "[1000]");
  ov.t = measure([&] {
    with_session(be, [&] {
      const auto t0 = std::chrono::steady_clock::now();
      const double c0 = thread_cpu_us();
      Tensor z = s;
      for (int k = 0; k < chain; ++k) z = add(be, z, one);
      record_cpu_us.push_back(thread_cpu_us() - c0);
      record_us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    });
    be.synchronize();
  }, ov_opt);
  ov.t.median_us /= chain, ov.t.p10_us /= chain, ov.t.p90_us /= chain;
  ov.flops = 1000.0;  // reported as a rate only for completeness; the figure is median_us
  rows.push_back(ov);
  {
    record_us.erase(record_us.begin(), record_us.begin() + ov_opt.warmups);
    std::sort(record_us.begin(), record_us.end());
    Record rec = make_record("overhead_small_add_record", "[1000]");
    rec.t = {tenferro::bench::percentile(record_us, 0.5) / chain, tenferro::bench::percentile(record_us, 0.1) / chain,
             tenferro::bench::percentile(record_us, 0.9) / chain, ov_opt.reps};
    rec.flops = 1000.0;
    rows.push_back(rec);
    record_cpu_us.erase(record_cpu_us.begin(), record_cpu_us.begin() + ov_opt.warmups);
    std::sort(record_cpu_us.begin(), record_cpu_us.end());
    std::fprintf(stderr, "small-add chain: record %.2f us/op wall, %.2f us/op CPU of the recording thread\n",
                 rec.t.median_us, tenferro::bench::percentile(record_cpu_us, 0.5) / chain);
  }

  // The same chain on a 10 x 10 x 10 view transposed (2, 1, 0) at every step: rank-3 strided
  // operands, whose layout the kernel reads from a parameter block in device memory instead of
  // push constants (diagnostic: the cost of that read against overhead_small_add).
  {
    Tensor s3 = upload(be, host_f32(1000, 0.5f)), one3 = upload(be, host_f32(1000, 1.0f));
    const TensorView c3 = s3.reshape({10, 10, 10}), o3 = one3.reshape({10, 10, 10});
    Record st = make_record("overhead_strided_add", "[10,10,10]");
    st.layout = "transposed";
    st.t = measure([&] {
      with_session(be, [&] {
        Tensor z = add(be, c3.transpose({2, 1, 0}), o3);
        for (int k = 1; k < chain; ++k) z = add(be, z.transpose({2, 1, 0}), o3);
      });
      be.synchronize();
    }, ov_opt);
    st.t.median_us /= chain, st.t.p10_us /= chain, st.t.p90_us /= chain;
    st.flops = 1000.0;
    rows.push_back(st);
  }

  // GPU-side view (Backend::profile_begin/end, timestamps around every dispatch): one more
  // session of each case, reported as <case>_gpu records whose median_us is the GPU time per
  // dispatch, plus the GPU idle share of the session's span (host/submission overhead).
  auto profiled = [&](const std::string& name, const std::string& shape, double bytes, double flops, int count,
                      auto&& body) {
    be.synchronize();
    be.profile_begin();
    with_session(be, [&] { body(); });
    const ProfileReport rep = be.profile_end();
    if (!rep.supported || rep.dispatches == 0) return;
    Record r = make_record(name + "_gpu", shape);
    const double per = rep.busy_us / count;
    r.t = {per, per, per, 1};
    r.bytes = bytes;
    r.flops = flops;
    rows.push_back(r);
    std::fprintf(stderr, "GPU profile, %s (%d ops):\n%s", name.c_str(), count, format_profile(rep).c_str());
  };
  profiled("copy", copy.shape, copy.bytes, 0, per_sample, [&] {
    for (int k = 0; k < per_sample; ++k) copy_into(be, x, out);
  });
  profiled("add", copy.shape, addr.bytes, 0, per_sample, [&] {
    for (int k = 0; k < per_sample; ++k) Tensor z = add(be, x, y);
  });
  profiled("div", copy.shape, divr.bytes, 0, per_sample, [&] {
    for (int k = 0; k < per_sample; ++k) Tensor z = div(be, x, y);
  });
  profiled("overhead_small_add", "[1000]", 0, 1000.0, chain, [&] {
    Tensor z = s;
    for (int k = 0; k < chain; ++k) z = add(be, z, one);
  });

  for (const Record& r : rows) std::printf("%s\n", r.json().c_str());
  std::fprintf(stderr, "\n%-22s %12s %12s %10s\n", "case", "median_us", "GB/s", "%copy");
  for (const Record& r : rows)
    std::fprintf(stderr, "%-22s %12.2f %12.1f %10.1f\n", r.op.c_str(), r.t.median_us,
                 r.bytes > 0 ? r.rate() : 0.0, r.pct());
  return 0;
}
