// tenferro_bench_cpu: CPU backend against the machine's ceilings and OpenBLAS.
//   memcpy       2^24 f64, bytes read + written; multi-threaded (one std::thread per CPU thread, the ceiling) and
//                single-threaded std::memcpy
//   add          tenferro::add on 2^24 f64 (3 x 8 bytes per element); again with glibc told
//                to keep freed pages (diagnostic: page-fault cost of the fresh output)
//   reduce_sum   tenferro::reduce_sum over all of 2^24 f64 (8 bytes per element)
//   gemm         tenferro::dot_general 1024^3 f64 (lhs dim 1 with rhs dim 0) vs cblas_dgemm on
//                the same buffers (2 n^3 FLOPs)
// Every result is checked against a naive computation; a mismatch or an error makes the exit
// status non-zero. Output: JSON lines (bench/harness.hpp), then a table.
//   --quick            small sizes, few reps (the CTest smoke test `bench_smoke`)
//   --reps N --warmups N
#include <cblas.h>

#include <malloc.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "harness.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"
#include "tenferro/options.hpp"

namespace tb = tenferro::bench;
using tenferro::Tensor;

namespace {

int threads() { return tenferro::cpu_threads(); }

double* data(const Tensor& t) { return reinterpret_cast<double*>(t.storage()->host_data()); }

Tensor filled(std::int64_t rows, std::int64_t cols, double scale, std::uint64_t seed) {
  Tensor t = tenferro::cpu_backend().allocate(tenferro::DType::F64,
                                               cols == 1 ? tenferro::Shape{rows} : tenferro::Shape{rows, cols});
  double* p = data(t);
  std::uint64_t s = seed;
  for (std::int64_t i = 0; i < t.numel(); ++i) {  // xorshift: values in [0, scale)
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    p[i] = scale * static_cast<double>(s >> 11) * 0x1.0p-53;
  }
  return t;
}

void parallel_memcpy(double* dst, const double* src, std::int64_t n) {
  const std::int64_t nt = threads(), ch = (n + nt - 1) / nt;
  std::vector<std::thread> team;
  for (std::int64_t t = 1; t < nt; ++t)
    team.emplace_back([=] {
      const std::int64_t b = std::min(n, t * ch), e = std::min(n, b + ch);
      if (b < e) std::memcpy(dst + b, src + b, static_cast<std::size_t>(e - b) * sizeof(double));
    });
  std::memcpy(dst, src, static_cast<std::size_t>(std::min(n, ch)) * sizeof(double));
  for (std::thread& t : team) t.join();
}

struct Row {
  std::string name, unit;
  double ours = 0, peer = 0;
  std::string peer_name, target;
  double target_ratio = 0;
  bool ok = true;
  std::string note;
};

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  tb::Options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") quick = true;
    else if (a == "--reps" && i + 1 < argc) opt.reps = std::stoi(argv[++i]);
    else if (a == "--warmups" && i + 1 < argc) opt.warmups = std::stoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: %s [--quick] [--reps N] [--warmups N]\n", argv[0]);
      return 2;
    }
  }
  if (quick) opt = tb::Options{1, 3};
  const std::int64_t n = quick ? (1 << 12) : (1 << 24);
  const std::int64_t g = quick ? 64 : 1024;
  const int nt = threads();
  const std::string shape1 = "[" + std::to_string(n) + "]";
  const std::string shape_g = "[" + std::to_string(g) + "," + std::to_string(g) + "," + std::to_string(g) + "]";
  tenferro::Backend& be = tenferro::cpu_backend();
  int failures = 0;
  std::vector<Row> table;

  auto record = [&](const tb::Record& r) {
    std::printf("%s\n", r.json().c_str());
    std::fflush(stdout);
    return r;
  };
  auto guarded = [&](const std::string& what, const std::function<void()>& body) {
    try {
      body();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "FAILED %s: %s\n", what.c_str(), e.what());
      table.push_back(Row{what, "", 0, 0, "", "", 0, false, e.what()});
      ++failures;
    }
  };
  auto check = [&](bool ok, const std::string& what, const std::string& detail) {
    if (ok) return true;
    std::fprintf(stderr, "MISMATCH %s: %s\n", what.c_str(), detail.c_str());
    ++failures;
    return false;
  };

  const Tensor a = filled(n, 1, 1.0, 1), b = filled(n, 1, 1.0, 2);
  Tensor dst = filled(n, 1, 0.0, 3);

  // ---- memcpy: the bandwidth ceiling ----------------------------------------------------
  const double copy_bytes = 2.0 * 8.0 * static_cast<double>(n);
  const tb::Record mt = record({"memcpy_parallel", "f64", shape1, "compact", "cpu", nt,
                                tb::measure([&] { parallel_memcpy(data(dst), data(a), n); }, opt),
                                copy_bytes, 0, 0, ""});
  check(std::memcmp(data(dst), data(a), static_cast<std::size_t>(n) * 8) == 0, "memcpy_parallel", "copy differs");
  const double ceiling = mt.rate();
  const tb::Record st = record({"memcpy_single", "f64", shape1, "compact", "cpu", 1,
                                tb::measure([&] { std::memcpy(data(dst), data(b), static_cast<std::size_t>(n) * 8); }, opt),
                                copy_bytes, 0, ceiling, "memcpy_parallel"});
  table.push_back(Row{"memcpy (1 thread)", "GB/s", st.rate(), ceiling, "parallel memcpy", "(reference)", 0, true, ""});
  table.push_back(Row{"memcpy (" + std::to_string(nt) + " threads)", "GB/s", ceiling, ceiling, "itself", "(ceiling)", 0, true, ""});

  // ---- add ------------------------------------------------------------------------------
  guarded("add", [&] {
    Tensor c;
    const tb::Record r = record({"add", "f64", shape1, "compact", "cpu", nt,
                                 tb::measure([&] { c = tenferro::add(be, a, b); }, opt),
                                 3.0 * 8.0 * static_cast<double>(n), 0, ceiling, "memcpy_parallel"});
    bool ok = c.numel() == n;
    for (std::int64_t i = 0; ok && i < n; ++i) ok = data(c)[i] == data(a)[i] + data(b)[i];
    check(ok, "add", "result differs from a[i] + b[i]");
    table.push_back(Row{"add f64 " + shape1, "GB/s", r.rate(), ceiling, "parallel memcpy", ">= 70%", 0.7, ok, ""});
  });

  // add again with glibc told to keep freed memory (no mmap/munmap per 128 MiB output): shows
  // how much of the add time above is page faults on the fresh output, not the kernel. This
  // setting stays on for the rows below (the GEMM peer writes into a preallocated C anyway).
  guarded("add_warm_alloc", [&] {
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
    Tensor c;
    const tb::Record r = record({"add_warm_alloc", "f64", shape1, "compact", "cpu", nt,
                                 tb::measure([&] { c = Tensor(); c = tenferro::add(be, a, b); }, opt),
                                 3.0 * 8.0 * static_cast<double>(n), 0, ceiling, "memcpy_parallel"});
    bool ok = c.numel() == n;
    for (std::int64_t i = 0; ok && i < n; ++i) ok = data(c)[i] == data(a)[i] + data(b)[i];
    check(ok, "add_warm_alloc", "result differs from a[i] + b[i]");
    table.push_back(Row{"add f64 " + shape1 + " warm alloc", "GB/s", r.rate(), ceiling, "parallel memcpy",
                        "(diagnostic)", 0, ok, ""});
  });

  // ---- reduce_sum -----------------------------------------------------------------------
  guarded("reduce_sum", [&] {
    Tensor s;
    const tb::Record r = record({"reduce_sum", "f64", shape1, "compact", "cpu", nt,
                                 tb::measure([&] { s = tenferro::reduce_sum(be, a, {0}); }, opt),
                                 8.0 * static_cast<double>(n), 0, ceiling, "memcpy_parallel"});
    long double want = 0, mag = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      want += data(a)[i];
      mag += std::fabs(data(a)[i]);
    }
    // Documented kernel bound: (40 + log2 n) eps sum|x|; long double reference error is far below.
    const double bound = (40.0 + std::log2(static_cast<double>(n))) * 0x1.0p-52 * static_cast<double>(mag);
    const double got = s.numel() == 1 ? data(s)[0] : NAN;
    const bool ok = std::fabs(got - static_cast<double>(want)) <= bound;
    check(ok, "reduce_sum", "got " + std::to_string(got) + ", expected " + std::to_string(static_cast<double>(want)));
    table.push_back(Row{"reduce_sum f64 " + shape1, "GB/s", r.rate(), ceiling, "parallel memcpy", ">= 70%", 0.7, ok, ""});
  });

  // ---- GEMM -----------------------------------------------------------------------------
  const Tensor A = filled(g, g, 1.0, 4), B = filled(g, g, 1.0, 5);
  Tensor C2 = filled(g, g, 0.0, 6);
  const double flops = 2.0 * static_cast<double>(g) * static_cast<double>(g) * static_cast<double>(g);
  const int gi = static_cast<int>(g);
  const tb::Record blas = record({"gemm_openblas", "f64", shape_g, "compact", "openblas", nt,
                                  tb::measure([&] {
                                    openblas_set_num_threads(nt);  // the peer on its own threads
                                    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, gi, gi, gi, 1.0, data(A),
                                                gi, data(B), gi, 0.0, data(C2), gi);
                                    openblas_set_num_threads(1);  // tenferro's calls: one thread each
                                  }, opt),
                                  0, flops, 0, ""});
  // Naive check of sampled entries (all of them with --quick): C[i,j] = sum_k A[i,k] B[k,j].
  auto gemm_ok = [&](const double* C, const std::string& what) {
    const std::int64_t step = quick ? 1 : 37;
    for (std::int64_t i = 0; i < g; i += step)
      for (std::int64_t j = 0; j < g; j += step) {
        double want = 0;
        for (std::int64_t k = 0; k < g; ++k) want += data(A)[i + k * g] * data(B)[k + j * g];
        const double got = C[i + j * g];
        if (!(std::fabs(got - want) <= 4.0 * static_cast<double>(g) * 0x1.0p-52 * static_cast<double>(g)))
          return check(false, what, "C[" + std::to_string(i) + "," + std::to_string(j) + "] = " +
                                        std::to_string(got) + ", expected " + std::to_string(want));
      }
    return true;
  };
  gemm_ok(data(C2), "gemm_openblas");
  guarded("dot_general", [&] {
    tenferro::DotGeneralConfig cfg;
    cfg.lhs_contracting_dims = {1};
    cfg.rhs_contracting_dims = {0};
    Tensor C;
    const tb::Record r = record({"dot_general", "f64", shape_g, "compact", "cpu", nt,
                                 tb::measure([&] { C = tenferro::dot_general(be, A, B, cfg); }, opt),
                                 0, flops, blas.rate(), "gemm_openblas"});
    const bool ok = C.numel() == g * g && gemm_ok(data(C), "dot_general");
    table.push_back(Row{"dot_general f64 " + shape_g, "GFLOP/s", r.rate(), blas.rate(), "cblas_dgemm", ">= 90%", 0.9, ok, ""});
  });

  // ---- table ----------------------------------------------------------------------------
  std::printf("\n%-34s %10s %10s  %-16s %7s  %-10s %s\n", "case", "ours", "peer", "peer is", "ratio", "target", "status");
  for (const Row& r : table) {
    if (!r.note.empty()) {
      std::printf("%-34s %10s %10s  %-16s %7s  %-10s FAILED: %s\n", r.name.c_str(), "-", "-", "-", "-", "-", r.note.c_str());
      continue;
    }
    const double ratio = r.peer > 0 ? r.ours / r.peer : 0;
    const char* status = !r.ok                ? "WRONG RESULT"
                         : r.target_ratio == 0 ? ""
                         : quick               ? "(not judged)"
                         : ratio >= r.target_ratio ? "met"
                                                   : "not met";
    std::printf("%-34s %10.2f %10.2f  %-16s %6.1f%%  %-10s %s\n", r.name.c_str(), r.ours, r.peer, r.peer_name.c_str(),
                100.0 * ratio, r.target.c_str(), status);
  }
  std::string load = "?";
  if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
    char buf[64] = {};
    if (std::fgets(buf, sizeof buf, f)) load = std::string(buf, std::strcspn(buf, "\n"));
    std::fclose(f);
  }
  std::printf("(load average at the end: %s)\n", load.c_str());
  std::printf("(%s; %d threads; %d warmups, %d reps; medians)\n", quick ? "quick mode: sizes too small to judge speed" : "full sizes",
              nt, opt.warmups, opt.reps);
  if (failures) std::printf("%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
