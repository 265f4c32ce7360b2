// libFuzzer harness of the op vocabulary, differential: the input is decoded into a few random
// op calls (gather, scatter, pad, slice, dynamic_slice, dot_general, the four reductions,
// transpose, broadcast_in_dim, cast, convert, einsum), each run on the CPU backend and on the
// Vulkan backend (lavapipe in CI) on the same strided views: transposed, sliced with steps and
// offsets, reversed (negative strides), broadcast (stride 0). Shapes are of rank <= 6 with
// extents <= 4; most calls are valid by construction, about one in eight is made invalid on
// purpose (an axis out of range or repeated, an extent or a dtype that does not fit).
//
// A finding (abort with a description of the call) is: results that differ (integers, bools
// and the ops that only move or convert values: exactly; the accumulating ops: within the
// eval default tolerances, on values whose sums are exact in every order), one backend
// failing where the other succeeds (except a gap the Vulkan backend declares through
// supports()), different error kinds, an error kind that only a bug gives (internal,
// out_of_memory, backend_failure, device_lost, host_access, runtime_state), an exception that
// is not tenferro::Error, a Vulkan validation message (TENFERRO_VK_VALIDATION is set to 1
// unless the environment sets it), or whatever the sanitizers and libFuzzer catch.
//
// TENFERRO_FUZZ_STATS=1 prints, at exit, how many calls of each op succeeded or failed by kind
// ("(spoilt)": made invalid on purpose); TENFERRO_FUZZ_STATS=2 also prints the error of every
// call that was not. TENFERRO_FUZZ_TRACE=1 prints every call before it runs (to see which call
// a sanitizer stopped).
#include <fuzzer/FuzzedDataProvider.h>
#include <sanitizer/common_interface_defs.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <typeinfo>
#include <vector>

#include "tenferro/backend/backend.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/ops.hpp"
#include "tenferro/runtime.hpp"
#include "vulkan/provider.hpp"

namespace {

using namespace tenferro;

Backend* g_cpu = nullptr;
Backend* g_vk = nullptr;
bool g_validation = false;

constexpr std::int64_t kMaxElements = 4096;   // of any logical tensor and of any result
constexpr std::int64_t kMaxPhysical = 16384;  // of the storage under a view

// ---- decoding -----------------------------------------------------------------------------

// Values come from a small generator seeded by the input, so that a few bytes describe the
// contents of a tensor and the fuzzer's mutations act on the structure of the calls.
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return n ? static_cast<std::size_t>(next() % n) : 0; }
};

struct Gen {
  FuzzedDataProvider& fdp;
  Rng rng{0};
  bool invalid = false;  // this call was made invalid on purpose

  // (An input that runs out of bytes reads zeros: then no percent() holds and nothing is
  // spoilt, so short inputs make plain, valid calls.)
  int range(int lo, int hi) { return fdp.ConsumeIntegralInRange<int>(lo, hi); }
  bool percent(int p) { return fdp.ConsumeIntegralInRange<int>(0, 99) >= 100 - p; }
  template <class T> T pick(std::initializer_list<T> xs) {
    return *(xs.begin() + fdp.ConsumeIntegralInRange<std::size_t>(0, xs.size() - 1));
  }
  // One in `one_in` calls turns invalid at this point (each call has a few such points).
  bool spoil(int one_in) {
    if (fdp.ConsumeIntegralInRange<int>(0, one_in - 1) != one_in - 1) return false;
    invalid = true;
    return true;
  }
  std::vector<std::int64_t> permutation(std::size_t n, bool shuffle = true) {
    std::vector<std::int64_t> p(n);
    std::iota(p.begin(), p.end(), 0);
    if (shuffle)
      for (std::size_t i = n; i > 1; --i) std::swap(p[i - 1], p[static_cast<std::size_t>(range(0, static_cast<int>(i) - 1))]);
    return p;
  }
};

// Value pools. The accumulating ops get values whose sums and products are exact in any
// order for the sizes made here, so both backends must agree to the last bit there; the ops
// that only move or convert values also get the edge cases.
enum class Pool {
  exact,    // small dyadic values: sums of up to 4096 products of two stay exact in f32
  pow2,     // 0, +-1, +-2, +-0.5 (products of up to 120 of them are exact in f32)
  sign,     // 0, +-1 (products of any count)
  special,  // anything: NaN, infinities, -0, huge, subnormal, near the integer limits
};

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kExact[] = {0, 1, -1, 2, -2, 0.5, -0.5, 1.5, -1.5, 3, -3, 0.25, 4, -4};
constexpr double kPow2[] = {0, 1, -1, 2, -2, 0.5, -0.5};
constexpr double kSign[] = {0, 1, -1};
constexpr double kSpecial[] = {kNaN, kInf, -kInf, -0.0, 1e30, -1e30, 3.0e38, -3.4e38, 1e-40, -1e-310, 1e300,
                               2147483647.9, -2147483648.5, 2147483648.0, -2147483649.0, 9.2e18, -9.3e18,
                               16777217.0, 2.5, -2.5, 0.1, 65504.0, 1e-7};
constexpr std::int64_t kIntSpecial[] = {std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max(),
                                        std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(),
                                        std::int64_t{1} << 31, std::int64_t{1} << 53, -(std::int64_t{1} << 40), 255, -256};

template <std::size_t N> double from(Rng& r, const double (&xs)[N]) { return xs[r.below(N)]; }

double real_value(Rng& r, Pool p) {
  switch (p) {
    case Pool::exact: return from(r, kExact);
    case Pool::pow2: return from(r, kPow2);
    case Pool::sign: return from(r, kSign);
    case Pool::special:
      // Mostly ordinary values, so that the edge cases sit among others.
      return r.below(4) == 0 ? from(r, kSpecial) : from(r, kExact);
  }
  return 0;
}
// Accumulating ops may still see NaN, infinities and -0 now and then: their results do not
// depend on the order of the terms.
double accumulating_value(Rng& r, Pool p, bool nonfinite) {
  if (nonfinite && p != Pool::special && r.below(64) == 0) {
    static constexpr double kNonFinite[] = {kNaN, kInf, -kInf, -0.0};
    return from(r, kNonFinite);
  }
  return real_value(r, p);
}
std::int64_t int_value(Rng& r, Pool p) {
  if (p == Pool::special && r.below(4) == 0) return kIntSpecial[r.below(std::size(kIntSpecial))];
  if (p == Pool::sign) return static_cast<std::int64_t>(r.below(3)) - 1;
  return static_cast<std::int64_t>(r.below(9)) - 4;
}

void fill(Rng& r, const Tensor& t, Pool pool, bool nonfinite = true) {
  const HostMapping m = map_write(t);
  visit_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (T& x : m.write<T>()) {
      if constexpr (std::is_same_v<T, bool>) {
        x = r.below(2) != 0;
      } else if constexpr (std::is_integral_v<T>) {
        x = static_cast<T>(int_value(r, pool));  // (i32 wraps the i64 specials: more edges)
      } else if constexpr (std::is_floating_point_v<T>) {
        x = static_cast<T>(accumulating_value(r, pool, nonfinite));
      } else {
        using R = typename T::value_type;
        const double re = accumulating_value(r, pool, nonfinite);
        x = T(static_cast<R>(re), static_cast<R>(accumulating_value(r, pool, nonfinite)));
      }
    }
  });
}

std::int64_t numel_of(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (std::int64_t e : shape) n *= e;
  return n;
}

// [a, b, c], as the library's messages print shapes.
std::string list(const auto& v) { return detail::cat(Shape(v.begin(), v.end())); }

// ---- operands: the same view on both backends ---------------------------------------------

struct Operand {
  TensorView cpu, vk;
  std::string desc;
  const TensorView& on(int side) const { return side == 0 ? cpu : vk; }
};

// A view of logical shape `shape` and dtype d over a larger compact storage: each axis may be
// broadcast (stride 0), taken with a step of 1..3 from an offset, reversed, and the storage
// may hold the axes in another order. The storage is uploaded whole to the Vulkan backend and
// the same view taken there.
using Filler = std::function<void(const Tensor&)>;
Operand make_operand(Gen& g, DType d, const std::vector<std::int64_t>& shape, Pool pool, const Filler& filler = {}) {
  const std::size_t r = shape.size();
  std::vector<bool> bcast(r, false), rev(r, false);
  std::vector<std::int64_t> step(r, 1), start(r, 0), tail(r, 0);
  std::vector<std::int64_t> kept;  // logical axes that the storage holds
  for (std::size_t a = 0; a < r; ++a) {
    if (g.percent(8)) {
      bcast[a] = true;
      continue;
    }
    kept.push_back(static_cast<std::int64_t>(a));
    if (g.percent(30)) {
      step[a] = g.range(1, 3);
      start[a] = g.range(0, 2);
      tail[a] = g.range(0, 1);
    }
    rev[a] = g.percent(15);
  }
  std::vector<std::int64_t> order = g.permutation(kept.size(), g.percent(40));  // storage axis j holds kept[order[j]]
  const auto storage_extent = [&](std::int64_t a) {
    const std::int64_t e = shape[static_cast<std::size_t>(a)];
    return start[a] + (e > 0 ? (e - 1) * step[a] + 1 : 0) + tail[a];
  };
  std::vector<std::int64_t> phys;
  for (std::int64_t j : order) phys.push_back(storage_extent(kept[static_cast<std::size_t>(j)]));
  if (numel_of(phys) > kMaxPhysical) {  // too large a storage: plain steps
    std::fill(step.begin(), step.end(), 1);
    std::fill(start.begin(), start.end(), 0);
    std::fill(tail.begin(), tail.end(), 0);
    phys.clear();
    for (std::int64_t j : order) phys.push_back(storage_extent(kept[static_cast<std::size_t>(j)]));
  }
  const Tensor host = host_empty(d, Shape(phys));
  if (filler) {
    filler(host);
  } else {
    fill(g.rng, host, pool);
  }
  const Tensor dev = upload(*g_vk, host);

  Shape starts, limits, steps;
  for (std::int64_t j : order) {
    const std::int64_t a = kept[static_cast<std::size_t>(j)];
    const std::int64_t e = shape[static_cast<std::size_t>(a)];
    starts.push_back(start[a]);
    limits.push_back(start[a] + (e > 0 ? (e - 1) * step[a] + 1 : 0));
    steps.push_back(step[a]);
  }
  Axes to_kept(kept.size());  // view axis i (the i-th kept axis) is storage axis j with order[j] == i
  for (std::size_t j = 0; j < order.size(); ++j) to_kept[static_cast<std::size_t>(order[j])] = static_cast<std::int64_t>(j);
  Axes reversed, dims;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (rev[static_cast<std::size_t>(kept[i])]) reversed.push_back(static_cast<std::int64_t>(i));
    dims.push_back(kept[i]);
  }
  const auto view = [&](const TensorView& base) {
    TensorView v = base.slice(starts, limits, steps).transpose(to_kept);
    if (!reversed.empty()) v = v.reverse(reversed);
    if (kept.size() != r) v = v.broadcast_in_dim(Shape(shape), dims);
    return v;
  };
  Operand o{view(host), view(dev), ""};
  std::ostringstream os;
  os << dtype_name(d) << list(shape) << "{strides " << list(o.cpu.strides()) << " offset " << o.cpu.offset()
     << " storage " << list(phys) << "}";
  o.desc = os.str();
  return o;
}

std::vector<std::int64_t> shape_of_rank(Gen& g, int rank, bool zeros = true) {
  std::vector<std::int64_t> s;
  for (int a = 0; a < rank; ++a) {
    std::int64_t e = zeros && g.percent(4) ? 0 : g.range(1, 4);
    if (numel_of(s) * e > kMaxElements) e = 1;
    s.push_back(e);
  }
  return s;
}
std::vector<std::int64_t> random_shape(Gen& g, int max_rank = 6) { return shape_of_rank(g, g.range(0, max_rank)); }

DType any_dtype(Gen& g) { return g.pick({DType::F32, DType::F64, DType::I32, DType::I64, DType::Bool, DType::C32, DType::C64}); }
DType float_dtype(Gen& g) { return g.pick({DType::F32, DType::F64, DType::C32, DType::C64}); }

// An axis list made invalid: an entry out of range (negative too) or repeated, or one dropped.
void spoil_axes(Gen& g, Axes& axes, std::int64_t rank) {
  switch (g.range(0, 3)) {
    case 0: axes.push_back(rank + g.range(0, 2)); break;
    case 1: axes.push_back(-1); break;
    case 2:
      if (!axes.empty()) axes.push_back(axes[0]);
      else axes.push_back(rank);
      break;
    default:
      if (!axes.empty()) axes.pop_back();
      else axes.push_back(0);
      break;
  }
}

// ---- running and comparing ----------------------------------------------------------------

struct Outcome {
  bool ok = false;
  ErrorKind kind{};
  std::string message;
  Tensor host;  // the result on the host when ok
};

struct Call {
  Call() = default;
  Call(std::string op_, OpId id_, DType dtype_, std::string desc_)
      : op(std::move(op_)), id(id_), dtype(dtype_), desc(std::move(desc_)) {}
  std::string op;
  OpId id{};  // for the Vulkan backend's declared gaps
  DType dtype{};
  std::string desc;
  bool accumulates = false;  // sums or products: the float tolerance applies
  bool spoilt = false;       // made invalid on purpose (for the statistics)
  std::vector<Operand> inputs;  // (printed with a finding under TENFERRO_FUZZ_TRACE=1)
  std::function<Tensor(Backend&, int side)> run;
};

std::map<std::string, std::map<std::string, std::uint64_t>> g_stats;
bool g_want_stats = false;
bool g_verbose_stats = false;  // TENFERRO_FUZZ_STATS=2: also every error of a call not spoilt on purpose
bool g_trace = false;          // TENFERRO_FUZZ_TRACE=1: every call before it runs

void print_stats() {
  for (const auto& [op, kinds] : g_stats) {
    std::fprintf(stderr, "fuzz_ops: %-18s", op.c_str());
    for (const auto& [k, n] : kinds) std::fprintf(stderr, " %s=%llu", k.c_str(), static_cast<unsigned long long>(n));
    std::fprintf(stderr, "\n");
  }
}

// The call running now, printed when a sanitizer stops the process inside it.
const Call* g_current = nullptr;
void print_current() {
  if (g_current) std::fprintf(stderr, "\nfuzz_ops: the call running: %s %s\n", g_current->op.c_str(), g_current->desc.c_str());
}

// The values of a host view in colex order (complex as (re,im)).
std::string values(const TensorView& v) {
  return visit_dtype(v.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::ostringstream os;
    os.precision(17);
    os << '[';
    const std::vector<T> xs = to_vector<T>(v);
    for (std::size_t i = 0; i < xs.size(); ++i) {
      if constexpr (std::is_arithmetic_v<T>) os << (i ? ", " : "") << +xs[i];
      else os << (i ? ", " : "") << xs[i];
    }
    os << ']';
    return os.str();
  });
}

[[noreturn]] void finding(const Call& c, const std::string& what) {
  std::fprintf(stderr, "\nfuzz_ops FINDING: %s\n  call: %s %s\n", what.c_str(), c.op.c_str(), c.desc.c_str());
  if (g_trace)
    for (std::size_t i = 0; i < c.inputs.size(); ++i)
      std::fprintf(stderr, "  input %zu (colex): %s\n", i, values(c.inputs[i].cpu).c_str());
  std::abort();
}

Outcome run_on(Backend& be, int side, const Call& c) {
  Outcome o;
  try {
    Tensor t = c.run(be, side);
    if (!be.is_host()) {
      be.synchronize();
      t = download(be, t);
    }
    o.ok = true;
    o.host = t;
  } catch (const Error& e) {
    o.kind = e.kind();
    o.message = e.what();
  } catch (const std::exception& e) {
    finding(c, std::string(be.name()) + " threw a " + typeid(e).name() + ", not a tenferro::Error: " + e.what());
  }
  return o;
}

bool same_real(double g, double w, double rtol) {
  if (std::isnan(w) || std::isnan(g)) return std::isnan(w) && std::isnan(g);
  if (std::isinf(w) || std::isinf(g)) return g == w;
  return std::abs(g - w) <= rtol * std::max(std::abs(w), 1.0);
}

// "" when the two host tensors agree, else the first difference.
std::string compare(const Tensor& cpu, const Tensor& vk, double rtol) {
  if (cpu.dtype() != vk.dtype())
    return "dtype: cpu " + std::string(dtype_name(cpu.dtype())) + ", vulkan " + std::string(dtype_name(vk.dtype()));
  if (cpu.shape() != vk.shape()) return "shape: cpu " + list(cpu.shape()) + ", vulkan " + list(vk.shape());
  return visit_dtype(cpu.dtype(), [&](auto tag) -> std::string {
    using T = typename decltype(tag)::type;
    const std::vector<T> a = to_vector<T>(cpu), b = to_vector<T>(vk);
    for (std::size_t i = 0; i < a.size(); ++i) {
      bool same;
      std::ostringstream os;
      if constexpr (std::is_same_v<T, bool> || std::is_integral_v<T>) {
        same = a[i] == b[i];
        os << +a[i] << " vs " << +b[i];
      } else if constexpr (std::is_floating_point_v<T>) {
        same = same_real(a[i], b[i], rtol);
        os.precision(17);
        os << a[i] << " vs " << b[i];
      } else {
        same = same_real(a[i].real(), b[i].real(), rtol) && same_real(a[i].imag(), b[i].imag(), rtol);
        os.precision(17);
        os << a[i] << " vs " << b[i];
      }
      if (!same) return "element " + std::to_string(i) + " (colex): cpu " + os.str() + " (vulkan second)";
    }
    return "";
  });
}

bool expected_kind(ErrorKind k) { return is_validation_kind(k) || k == ErrorKind::unsupported || k == ErrorKind::numerical_failure; }

void check(const Call& c) {
  const std::uint64_t messages = g_validation ? vk::validation_message_count() : 0;
  g_current = &c;
  if (g_trace) std::fprintf(stderr, "fuzz_ops: running %s %s\n", c.op.c_str(), c.desc.c_str());
  const Outcome a = run_on(*g_cpu, 0, c);
  const Outcome b = run_on(*g_vk, 1, c);
  g_current = nullptr;
  if (g_validation && vk::validation_message_count() != messages)
    finding(c, "Vulkan validation message(s) (printed above as [vulkan validation])");
  if (g_want_stats) {
    const std::string key = a.ok ? "ok" : std::string(error_kind_name(a.kind));
    g_stats[c.op][key + (c.spoilt ? "(spoilt)" : "")]++;
    if (!a.ok && !c.spoilt && g_verbose_stats) std::fprintf(stderr, "fuzz_ops: %s %s: %s\n", c.op.c_str(), c.desc.c_str(), a.message.c_str());
  }
  if (!a.ok && !expected_kind(a.kind)) finding(c, "cpu raised " + std::string(error_kind_name(a.kind)) + ": " + a.message);
  if (!b.ok && !expected_kind(b.kind)) finding(c, "vulkan raised " + std::string(error_kind_name(b.kind)) + ": " + b.message);
  if (a.ok && !b.ok) {
    // A gap the Vulkan backend declares (supports() false) is not a difference.
    if (b.kind == ErrorKind::unsupported && !g_vk->supports(c.id, c.dtype)) return;
    finding(c, "cpu succeeded, vulkan raised " + std::string(error_kind_name(b.kind)) + ": " + b.message);
  }
  if (!a.ok && b.ok) finding(c, "vulkan succeeded, cpu raised " + std::string(error_kind_name(a.kind)) + ": " + a.message);
  if (!a.ok) {
    if (a.kind != b.kind)
      finding(c, "error kinds differ: cpu " + std::string(error_kind_name(a.kind)) + " (" + a.message + "), vulkan " +
                     std::string(error_kind_name(b.kind)) + " (" + b.message + ")");
    return;
  }
  const DType rd = a.host.dtype();
  const double rtol = !c.accumulates ? 0.0 : (rd == DType::F32 || rd == DType::C32) ? 1e-5 : 1e-12;
  const std::string diff = compare(a.host, b.host, rtol);
  if (!diff.empty()) finding(c, "results differ: " + diff);
}

// Integer values in [lo, hi] (index tensors).
Filler ints_in(Gen& g, std::int64_t lo, std::int64_t hi) {
  Rng* r = &g.rng;
  return [r, lo, hi](const Tensor& t) {
    const HostMapping m = map_write(t);
    visit_dtype(t.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (T& x : m.write<T>()) {
        const std::int64_t v = lo + static_cast<std::int64_t>(r->below(static_cast<std::size_t>(hi - lo + 1)));
        if constexpr (std::is_same_v<T, bool>) {
          x = v != 0;
        } else if constexpr (std::is_arithmetic_v<T>) {
          x = static_cast<T>(v);
        } else {
          x = T(static_cast<typename T::value_type>(v), 0);
        }
      }
    });
  };
}

// One value everywhere (scatter's replace: duplicate indices write in an unspecified order).
Filler constant(Gen& g, Pool pool) {
  Rng* r = &g.rng;
  return [r, pool](const Tensor& t) {
    Rng one{r->next()};
    const std::uint64_t seed = one.s;
    const HostMapping m = map_write(t);
    visit_dtype(t.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (T& x : m.write<T>()) {
        Rng same{seed};
        if constexpr (std::is_same_v<T, bool>) {
          x = same.below(2) != 0;
        } else if constexpr (std::is_integral_v<T>) {
          x = static_cast<T>(int_value(same, pool));
        } else if constexpr (std::is_floating_point_v<T>) {
          x = static_cast<T>(real_value(same, pool));
        } else {
          using R = typename T::value_type;
          const double re = real_value(same, pool);
          x = T(static_cast<R>(re), static_cast<R>(real_value(same, pool)));
        }
      }
    });
  };
}

// Finite values only: complex products (reduce_prod, scatter's mul) of Inf or NaN depend on the
// order of the factors, which the contract leaves open (docs/reliability.md, fuzzing).
Filler finite(Gen& g, Pool pool) {
  Rng* r = &g.rng;
  return [r, pool](const Tensor& t) { fill(*r, t, pool, false); };
}

DType index_dtype(Gen& g) {
  if (g.spoil(40)) return g.pick({DType::F32, DType::Bool, DType::F64});
  return g.pick({DType::I32, DType::I64});
}

// ---- the op calls -------------------------------------------------------------------------

Call gen_transpose(Gen& g) {
  const DType d = any_dtype(g);
  const auto shape = random_shape(g);
  const Operand x = make_operand(g, d, shape, Pool::special);
  Axes perm(g.permutation(shape.size()));
  if (g.spoil(8)) spoil_axes(g, perm, static_cast<std::int64_t>(shape.size()));
  Call c{"transpose", OpId::transpose, d, x.desc + " perm " + list(perm)};
  c.inputs = {x};
  c.run = [x, perm](Backend& be, int side) { return transpose_copy(be, x.on(side), perm); };
  return c;
}

Call gen_broadcast(Gen& g) {
  const DType d = any_dtype(g);
  const auto out = random_shape(g);
  const std::size_t r = static_cast<std::size_t>(g.range(0, static_cast<int>(out.size())));
  std::vector<std::int64_t> dims = g.permutation(out.size());
  dims.resize(r);
  if (g.percent(70)) std::sort(dims.begin(), dims.end());
  std::vector<std::int64_t> in;
  for (std::int64_t k : dims) in.push_back(g.percent(20) ? 1 : out[static_cast<std::size_t>(k)]);
  if (!in.empty() && g.spoil(16)) in[0] = out[static_cast<std::size_t>(dims[0])] + 1;
  Axes ax(dims);
  if (g.spoil(16)) spoil_axes(g, ax, static_cast<std::int64_t>(out.size()));
  const Operand x = make_operand(g, d, in, Pool::special);
  const Shape shape(out);
  Call c{"broadcast_in_dim", OpId::broadcast_in_dim, d, x.desc + " shape " + list(out) + " dims " + list(ax)};
  c.inputs = {x};
  c.run = [x, shape, ax](Backend& be, int side) { return broadcast_in_dim_copy(be, x.on(side), shape, ax); };
  return c;
}

Call gen_cast(Gen& g) {
  const DType from = any_dtype(g);
  DType to = any_dtype(g);
  const bool checked = g.percent(25);  // convert: the promotion lattice, else unsupported
  if (checked && !g.spoil(4))
    for (int tries = 0; tries < 8 && !convert_allowed(from, to); ++tries) to = any_dtype(g);
  const Operand x = make_operand(g, from, random_shape(g), Pool::special);
  Call c{checked ? "convert" : "cast", checked ? OpId::convert : OpId::cast, from,
         x.desc + " to " + std::string(dtype_name(to))};
  c.inputs = {x};
  c.run = [x, to, checked](Backend& be, int side) { return checked ? convert(be, x.on(side), to) : cast(be, x.on(side), to); };
  return c;
}

Call gen_slice(Gen& g) {
  const DType d = any_dtype(g);
  const auto shape = random_shape(g);
  SliceConfig cfg;
  for (std::int64_t e : shape) {
    const std::int64_t start = g.range(0, static_cast<int>(e));
    cfg.start_indices.push_back(start);
    cfg.limit_indices.push_back(g.range(static_cast<int>(start), static_cast<int>(e)));
    cfg.strides.push_back(g.range(1, 3));
  }
  if (g.spoil(8)) {
    const std::size_t a = static_cast<std::size_t>(g.range(0, static_cast<int>(shape.size())));
    if (a == shape.size()) {
      cfg.strides.push_back(1);
    } else {
      switch (g.range(0, 3)) {
        case 0: cfg.start_indices[a] = cfg.limit_indices[a] + 1; break;
        case 1: cfg.limit_indices[a] = shape[a] + 1; break;
        case 2: cfg.strides[a] = g.pick<std::int64_t>({0, -1}); break;
        default: cfg.start_indices[a] = -1; break;
      }
    }
  }
  const Operand x = make_operand(g, d, shape, Pool::special);
  Call c{"slice", OpId::slice, d,
         x.desc + " start " + list(cfg.start_indices) + " limit " + list(cfg.limit_indices) + " strides " + list(cfg.strides)};
  c.inputs = {x};
  c.run = [x, cfg](Backend& be, int side) { return slice_copy(be, x.on(side), cfg); };
  return c;
}

Call gen_dynamic_slice(Gen& g) {
  const DType d = any_dtype(g);
  const auto shape = random_shape(g);
  std::vector<std::int64_t> sizes;
  std::int64_t hi = 0;
  for (std::int64_t e : shape) {
    sizes.push_back(g.range(0, static_cast<int>(e)));
    hi = std::max(hi, e);
  }
  std::int64_t n_starts = static_cast<std::int64_t>(shape.size());
  if (g.spoil(10)) {
    if (g.percent(50) || shape.empty()) n_starts += 1;
    else sizes[0] = shape[0] + 1;
  }
  const Operand x = make_operand(g, d, shape, Pool::special);
  // Starts are clamped into range: values past both ends.
  const Operand starts = make_operand(g, index_dtype(g), {n_starts}, Pool::exact, ints_in(g, -3, hi + 3));
  const Shape sz(sizes);
  Call c{"dynamic_slice", OpId::dynamic_slice, d, x.desc + " starts " + starts.desc + " sizes " + list(sizes)};
  c.inputs = {x, starts};
  c.run = [x, starts, sz](Backend& be, int side) { return dynamic_slice(be, x.on(side), starts.on(side), sz); };
  return c;
}

Call gen_pad(Gen& g) {
  const DType d = any_dtype(g);
  const auto shape = random_shape(g);
  PadConfig cfg;
  std::int64_t out_numel = 1;
  for (std::int64_t e : shape) {
    std::int64_t lo = g.range(-2, 3), hi = g.range(-2, 3), in = g.range(0, 2);
    if (g.percent(50)) in = 0;
    // Crops no deeper than the padded extent (else the result extent is negative).
    const std::int64_t base = e + std::max<std::int64_t>(e - 1, 0) * in;
    if (base + lo + hi < 0) hi = -lo - base;
    cfg.edge_padding_low.push_back(lo);
    cfg.edge_padding_high.push_back(hi);
    cfg.interior_padding.push_back(in);
    out_numel *= base + lo + hi;
  }
  if (out_numel > 4 * kMaxElements)
    for (std::size_t a = 0; a < shape.size(); ++a) cfg.edge_padding_low[a] = cfg.edge_padding_high[a] = cfg.interior_padding[a] = 0;
  if (!shape.empty() && g.spoil(10)) {
    switch (g.range(0, 2)) {
      case 0: cfg.interior_padding[0] = -1; break;
      case 1: cfg.edge_padding_low[0] = -(shape[0] + 3); break;
      default: cfg.edge_padding_high.push_back(0); break;
    }
  }
  const Operand x = make_operand(g, d, shape, Pool::special);
  std::optional<Operand> value;
  if (g.percent(50)) {
    const bool wrong = g.spoil(10);
    value = make_operand(g, wrong && g.percent(50) ? (d == DType::F32 ? DType::F64 : DType::F32) : d,
                         wrong ? std::vector<std::int64_t>{1} : std::vector<std::int64_t>{}, Pool::special);
  }
  Call c{"pad", OpId::pad, d,
         x.desc + " low " + list(cfg.edge_padding_low) + " high " + list(cfg.edge_padding_high) + " interior " +
             list(cfg.interior_padding) + (value ? " value " + value->desc : "")};
  c.inputs = {x};
  if (value) c.inputs.push_back(*value);
  c.run = [x, cfg, value](Backend& be, int side) {
    return pad(be, x.on(side), cfg, value ? value->on(side) : TensorView{});
  };
  return c;
}

Call gen_reduce(Gen& g) {
  const OpId op = g.pick({OpId::reduce_sum, OpId::reduce_prod, OpId::reduce_max, OpId::reduce_min});
  const bool ordered = op == OpId::reduce_max || op == OpId::reduce_min;
  DType d = ordered ? g.pick({DType::F32, DType::F64, DType::I32, DType::I64})
                    : g.pick({DType::F32, DType::F64, DType::I32, DType::I64, DType::C32, DType::C64});
  if (g.spoil(20)) d = g.pick({DType::Bool, DType::C32});
  const auto shape = random_shape(g);
  std::vector<std::int64_t> axes;
  std::int64_t reduced = 1;
  for (std::int64_t a : g.permutation(shape.size()))
    if (g.percent(50) && shape[static_cast<std::size_t>(a)] > 0) {  // (an empty reduced axis is invalid_argument)
      axes.push_back(a);
      reduced *= shape[static_cast<std::size_t>(a)];
    }
  Axes ax(axes);
  if (g.spoil(10)) spoil_axes(g, ax, static_cast<std::int64_t>(shape.size()));
  const Pool pool = ordered ? Pool::special : op == OpId::reduce_sum ? Pool::exact : reduced <= 120 ? Pool::pow2 : Pool::sign;
  const Operand x = make_operand(g, d, shape, pool, is_complex(d) && op == OpId::reduce_prod ? finite(g, pool) : Filler{});
  Call c{std::string(op_name(op)), op, d, x.desc + " axes " + list(ax)};
  c.inputs = {x};
  c.accumulates = !ordered;
  c.run = [x, ax, op](Backend& be, int side) { return reduce(be, op, x.on(side), ax); };
  return c;
}

Call gen_dot_general(Gen& g) {
  DType d = float_dtype(g);
  if (g.spoil(20)) d = g.pick({DType::I32, DType::I64, DType::Bool});
  // Labels: batch, contracting, lhs free, rhs free; at most 6 in all.
  const int nb = g.range(0, 2), nc = g.range(0, 2), nl = g.range(0, 2 - (nb + nc > 3)), nr = g.range(0, 2 - (nb + nc > 3));
  std::vector<std::int64_t> ext(static_cast<std::size_t>(nb + nc + nl + nr));
  for (auto& e : ext) e = g.percent(3) ? 0 : g.range(1, 4);
  std::vector<int> lhs_labels, rhs_labels;  // label ids in axis order
  for (int i = 0; i < nb + nc; ++i) {
    lhs_labels.push_back(i);
    rhs_labels.push_back(i);
  }
  for (int i = 0; i < nl; ++i) lhs_labels.push_back(nb + nc + i);
  for (int i = 0; i < nr; ++i) rhs_labels.push_back(nb + nc + nl + i);
  const auto shuffle = [&](std::vector<int>& v) {
    const auto p = g.permutation(v.size(), g.percent(60));
    std::vector<int> out;
    for (std::int64_t k : p) out.push_back(v[static_cast<std::size_t>(k)]);
    v = out;
  };
  shuffle(lhs_labels);
  shuffle(rhs_labels);
  const auto pos = [](const std::vector<int>& labels, int id) {
    return static_cast<std::int64_t>(std::find(labels.begin(), labels.end(), id) - labels.begin());
  };
  DotGeneralConfig cfg;
  for (int i = 0; i < nb; ++i) {
    cfg.lhs_batching_dims.push_back(pos(lhs_labels, i));
    cfg.rhs_batching_dims.push_back(pos(rhs_labels, i));
  }
  for (int i = nb; i < nb + nc; ++i) {
    cfg.lhs_contracting_dims.push_back(pos(lhs_labels, i));
    cfg.rhs_contracting_dims.push_back(pos(rhs_labels, i));
  }
  std::vector<std::int64_t> ls, rs;
  for (int id : lhs_labels) ls.push_back(ext[static_cast<std::size_t>(id)]);
  for (int id : rhs_labels) rs.push_back(ext[static_cast<std::size_t>(id)]);
  DType rd = d;
  if (g.spoil(12)) {
    switch (g.range(0, 3)) {
      case 0:
        if (!rs.empty()) rs[0] += 1;
        else rs.push_back(2);
        break;
      case 1: spoil_axes(g, cfg.lhs_contracting_dims, static_cast<std::int64_t>(ls.size())); break;
      case 2: spoil_axes(g, cfg.rhs_batching_dims, static_cast<std::int64_t>(rs.size())); break;
      default: rd = d == DType::F32 ? DType::F64 : DType::F32; break;
    }
  }
  const Operand lhs = make_operand(g, d, ls, Pool::exact), rhs = make_operand(g, rd, rs, Pool::exact);
  const bool lc = g.percent(25), rc = g.percent(25);
  Call c{"dot_general", OpId::dot_general, d,
         lhs.desc + " . " + rhs.desc + " batch " + list(cfg.lhs_batching_dims) + "/" + list(cfg.rhs_batching_dims) +
             " contract " + list(cfg.lhs_contracting_dims) + "/" + list(cfg.rhs_contracting_dims) + " conj " +
             std::to_string(lc) + std::to_string(rc)};
  c.inputs = {lhs, rhs};
  c.accumulates = true;
  c.run = [lhs, rhs, cfg, lc, rc](Backend& be, int side) { return dot_general(be, lhs.on(side), rhs.on(side), cfg, lc, rc); };
  return c;
}

// The shared structure of gather and scatter (StableHLO): the operand, its batching,
// collapsed (inserted) and indexed axes, the index tensor's shape and vector axis, the window
// sizes and where the window axes sit in the result (gather) or the updates (scatter).
struct IndexPlan {
  std::vector<std::int64_t> operand_shape;
  Axes batching, collapsed, index_map, index_batching, offset_dims;
  std::int64_t index_vector_dim = 0;
  std::vector<std::int64_t> indices_shape, result_shape;
  Shape slice_sizes;
};

IndexPlan index_plan(Gen& g) {
  IndexPlan p;
  const int r = g.range(1, 4);
  p.operand_shape = shape_of_rank(g, r, false);  // (extent 0: below, on a window axis)
  const auto order = g.permutation(static_cast<std::size_t>(r));
  std::vector<std::int64_t> rest;
  if (r >= 2 && g.percent(20)) p.batching.push_back(order[0]);
  for (std::int64_t a = 0; a < r; ++a)
    if (std::find(p.batching.begin(), p.batching.end(), a) == p.batching.end()) rest.push_back(a);
  // The indexed axes, in a random order.
  const auto pick = g.permutation(rest.size());
  const int k = std::min<int>(g.percent(5) ? 0 : g.range(1, 3), static_cast<int>(rest.size()));
  for (int i = 0; i < k; ++i) p.index_map.push_back(rest[static_cast<std::size_t>(pick[static_cast<std::size_t>(i)])]);
  for (std::int64_t a : rest)
    if (g.percent(30)) p.collapsed.push_back(a);
  p.slice_sizes = Shape(static_cast<std::size_t>(r), 1);
  std::vector<std::int64_t> window;  // window extents, in operand order
  const bool empty_axis = g.percent(4);  // the first window axis of extent 0 (window 0)
  for (std::int64_t a : rest) {
    if (std::find(p.collapsed.begin(), p.collapsed.end(), a) != p.collapsed.end()) continue;
    if (empty_axis && window.empty()) p.operand_shape[static_cast<std::size_t>(a)] = 0;
    const std::int64_t e = p.operand_shape[static_cast<std::size_t>(a)];
    const std::int64_t s = e == 0 ? 0 : g.percent(5) ? 0 : g.range(1, static_cast<int>(e));
    p.slice_sizes[static_cast<std::size_t>(a)] = s;
    window.push_back(s);
  }
  // Batch axes of the indices: free ones, and one per operand batching axis (same extent).
  std::vector<std::int64_t> batch;
  std::vector<int> batch_of_operand;  // index in `batch` of each operand batching axis
  const int free = g.range(0, 2);
  for (int i = 0; i < free; ++i) batch.push_back(g.percent(4) ? 0 : g.range(1, 3));
  for (std::int64_t a : p.batching) {
    const std::size_t at = static_cast<std::size_t>(g.range(0, static_cast<int>(batch.size())));
    for (int& b : batch_of_operand)
      if (b >= static_cast<int>(at)) ++b;
    batch.insert(batch.begin() + static_cast<std::ptrdiff_t>(at), p.operand_shape[static_cast<std::size_t>(a)]);
    batch_of_operand.push_back(static_cast<int>(at));
  }
  const bool implicit = k == 1 && g.percent(30);
  p.indices_shape = batch;
  if (implicit) {
    p.index_vector_dim = static_cast<std::int64_t>(batch.size());
  } else {
    p.index_vector_dim = g.range(0, static_cast<int>(batch.size()));
    p.indices_shape.insert(p.indices_shape.begin() + p.index_vector_dim, k);
  }
  for (int b : batch_of_operand) p.index_batching.push_back(b >= p.index_vector_dim && !implicit ? b + 1 : b);
  const std::size_t out_rank = batch.size() + window.size();
  auto offs = g.permutation(out_rank);
  offs.resize(window.size());
  std::sort(offs.begin(), offs.end());
  p.offset_dims = Axes(offs);
  p.result_shape.assign(out_rank, 0);
  std::size_t wi = 0, bi = 0;
  for (std::size_t i = 0; i < out_rank; ++i)
    p.result_shape[i] = std::binary_search(offs.begin(), offs.end(), static_cast<std::int64_t>(i)) ? window[wi++] : batch[bi++];
  // Made invalid: a window past its axis, a collapsed axis with a window of 2, an index axis
  // repeated or out of range, the vector axis out of range, an offset axis out of range.
  if (g.spoil(10)) {
    switch (g.range(0, 4)) {
      case 0: p.slice_sizes[0] = p.operand_shape[0] + 1; break;
      case 1:
        if (!p.collapsed.empty()) p.slice_sizes[static_cast<std::size_t>(p.collapsed[0])] = 2;
        else p.collapsed.push_back(r);
        break;
      case 2: spoil_axes(g, p.index_map, r); break;
      case 3: p.index_vector_dim = static_cast<std::int64_t>(p.indices_shape.size()) + 1; break;
      default: spoil_axes(g, p.offset_dims, static_cast<std::int64_t>(out_rank)); break;
    }
  }
  return p;
}

std::string plan_desc(const IndexPlan& p) {
  return " batching " + list(p.batching) + " collapsed " + list(p.collapsed) + " index_map " + list(p.index_map) +
         " index_batching " + list(p.index_batching) + " index_vector_dim " + std::to_string(p.index_vector_dim) +
         " slice_sizes " + list(p.slice_sizes) + " offset_dims " + list(p.offset_dims);
}

std::int64_t max_extent(const std::vector<std::int64_t>& s) {
  std::int64_t m = 0;
  for (std::int64_t e : s) m = std::max(m, e);
  return m;
}

Call gen_gather(Gen& g) {
  const DType d = any_dtype(g);
  const IndexPlan p = index_plan(g);
  const Operand operand = make_operand(g, d, p.operand_shape, Pool::special);
  // Windows are clamped into the operand: starts past both ends too.
  const Operand indices =
      make_operand(g, index_dtype(g), p.indices_shape, Pool::exact, ints_in(g, -2, max_extent(p.operand_shape) + 2));
  GatherConfig cfg;
  cfg.offset_dims = p.offset_dims;
  cfg.collapsed_slice_dims = p.collapsed;
  cfg.operand_batching_dims = p.batching;
  cfg.start_indices_batching_dims = p.index_batching;
  cfg.start_index_map = p.index_map;
  cfg.index_vector_dim = p.index_vector_dim;
  cfg.slice_sizes = p.slice_sizes;
  Call c{"gather", OpId::gather, d, operand.desc + " indices " + indices.desc + plan_desc(p)};
  c.inputs = {operand, indices};
  c.run = [operand, indices, cfg](Backend& be, int side) { return gather(be, operand.on(side), indices.on(side), cfg); };
  return c;
}

Call gen_scatter(Gen& g) {
  ScatterConfig cfg;
  cfg.combiner = g.pick({ScatterCombiner::add, ScatterCombiner::replace, ScatterCombiner::mul, ScatterCombiner::max,
                         ScatterCombiner::min});
  cfg.out_of_bounds = g.percent(30) ? OutOfBounds::skip : OutOfBounds::clamp;
  const bool ordered = cfg.combiner == ScatterCombiner::max || cfg.combiner == ScatterCombiner::min;
  DType d = ordered ? g.pick({DType::F32, DType::F64, DType::I32, DType::I64})
            : cfg.combiner == ScatterCombiner::replace ? any_dtype(g)
                                                       : g.pick({DType::F32, DType::F64, DType::I32, DType::I64, DType::C32, DType::C64});
  if (g.spoil(20)) d = g.pick({DType::Bool, DType::C64});
  const IndexPlan p = index_plan(g);
  std::vector<std::int64_t> updates_shape = p.result_shape;
  if (!updates_shape.empty() && g.spoil(12)) updates_shape[0] += 1;
  const Operand operand = make_operand(g, d, p.operand_shape, ordered ? Pool::special : Pool::exact);
  const Operand indices =
      make_operand(g, index_dtype(g), p.indices_shape, Pool::exact, ints_in(g, -2, max_extent(p.operand_shape) + 2));
  const std::int64_t n_updates = numel_of(updates_shape);
  const Pool pool = ordered ? Pool::special
                    : cfg.combiner == ScatterCombiner::add ? Pool::exact
                    : n_updates <= 120 ? Pool::pow2
                                       : Pool::sign;
  const Operand updates = make_operand(g, d, updates_shape, pool,
                                       cfg.combiner == ScatterCombiner::replace ? constant(g, Pool::special)
                                       : cfg.combiner == ScatterCombiner::mul && is_complex(d) ? finite(g, pool)
                                                                                         : Filler{});
  cfg.update_window_dims = p.offset_dims;
  cfg.inserted_window_dims = p.collapsed;
  cfg.input_batching_dims = p.batching;
  cfg.scatter_indices_batching_dims = p.index_batching;
  cfg.scatter_dims_to_operand_dims = p.index_map;
  cfg.index_vector_dim = p.index_vector_dim;
  Call c{"scatter", OpId::scatter, d,
         std::string(combiner_name(cfg.combiner)) + (cfg.out_of_bounds == OutOfBounds::skip ? " skip " : " clamp ") +
             operand.desc + " indices " + indices.desc + " updates " + updates.desc + plan_desc(p)};
  c.inputs = {operand, indices, updates};
  c.accumulates = cfg.combiner == ScatterCombiner::add || cfg.combiner == ScatterCombiner::mul;
  c.run = [operand, indices, updates, cfg](Backend& be, int side) {
    return scatter(be, operand.on(side), indices.on(side), updates.on(side), cfg);
  };
  return c;
}

Call gen_einsum(Gen& g) {
  static const char* const kLabels[] = {"a", "b", "c", "d", "e", "f", "A", "z", "\xce\xb1" /* alpha */};
  const int n = g.pick({1, 2, 2, 2, 3, 3, 4});
  const int nlabels = g.range(1, 6);
  std::vector<std::int64_t> ext(static_cast<std::size_t>(nlabels));
  std::int64_t work = 1;
  for (auto& e : ext) {
    e = g.percent(3) ? 0 : g.range(1, 3);
    if (work * e > kMaxElements) e = 1;
    work *= std::max<std::int64_t>(e, 1);
  }
  const std::size_t label_base = g.percent(15) ? 3 : 0;  // some subscripts with A, z, alpha
  const auto label = [&](int id) { return std::string(kLabels[(label_base + static_cast<std::size_t>(id)) % std::size(kLabels)]); };
  // The ellipsis: up to 2 axes; each operand holds a trailing part of them, extent 1 broadcasting.
  const bool ell = g.percent(15);
  std::vector<std::int64_t> ell_ext;
  if (ell)
    for (int i = g.range(0, 2); i > 0; --i) ell_ext.push_back(work * 3 > kMaxElements ? 1 : g.range(1, 3));
  DType d = n == 1 && g.percent(20) ? g.pick({DType::I32, DType::I64}) : float_dtype(g);
  if (n > 1 && g.spoil(25)) d = g.pick({DType::I32, DType::Bool});
  std::string subs;
  std::vector<int> used(static_cast<std::size_t>(nlabels), 0);
  std::vector<std::vector<std::int64_t>> shapes;
  for (int t = 0; t < n; ++t) {
    if (t) subs += ",";
    std::vector<std::int64_t> shape;
    const int rank = g.range(0, std::min(4, nlabels + 1));
    const int ell_at = ell ? g.range(0, rank) : -1;
    for (int i = 0; i <= rank; ++i) {
      if (i == ell_at) {
        subs += "...";
        const std::size_t m = static_cast<std::size_t>(g.range(0, static_cast<int>(ell_ext.size())));
        for (std::size_t k = ell_ext.size() - m; k < ell_ext.size(); ++k) shape.push_back(g.percent(25) ? 1 : ell_ext[k]);
      }
      if (i == rank) break;
      const int id = g.range(0, nlabels - 1);
      subs += label(id);
      used[static_cast<std::size_t>(id)] = 1;
      shape.push_back(ext[static_cast<std::size_t>(id)]);
    }
    shapes.push_back(shape);
  }
  if (g.percent(60)) {  // explicit output: labels used, each once, in a random order
    subs += "->";
    const auto order = g.permutation(static_cast<std::size_t>(nlabels));
    const int ell_at = ell ? g.range(0, nlabels) : -1;
    for (int i = 0; i <= nlabels; ++i) {
      if (i == ell_at) subs += "...";
      if (i == nlabels) break;
      const int id = static_cast<int>(order[static_cast<std::size_t>(i)]);
      if (used[static_cast<std::size_t>(id)] && g.percent(70)) subs += label(id);
    }
  }
  if (g.spoil(10)) {
    switch (g.range(0, 3)) {
      case 0:  // an extent that conflicts
        for (auto& s : shapes)
          if (!s.empty()) {
            s.back() += 1;
            break;
          }
        break;
      case 1: shapes[0].push_back(2); break;  // one more axis than labels
      case 2: subs.insert(static_cast<std::size_t>(g.range(0, static_cast<int>(subs.size()))), g.pick<const char*>({"-", ">", ".", ",", "->"})); break;
      default: subs += subs.find("->") == std::string::npos ? "->q" : "q"; break;  // an output label no input has
    }
  }
  std::vector<Operand> ops;
  const Pool pool = n >= 3 ? Pool::pow2 : Pool::exact;
  for (const auto& s : shapes) ops.push_back(make_operand(g, d, s, pool));
  EinsumOptions opts;
  opts.cache = false;  // (every input would add to the plan cache)
  if (n >= 3 && g.percent(30)) {  // a given path: any order of pairwise steps
    opts.use_path = true;
    for (int m = n; m > 1; --m) {
      const int i = g.range(0, m - 1);
      int j = g.range(0, m - 2);
      if (j >= i) ++j;
      opts.path.emplace_back(i, j);
    }
  }
  std::string desc = "\"" + subs + "\"";
  for (const auto& o : ops) desc += " " + o.desc;
  if (opts.use_path) {
    desc += " path";
    for (const auto& [i, j] : opts.path) desc += " (" + std::to_string(i) + "," + std::to_string(j) + ")";
  }
  Call c{"einsum", OpId::dot_general, d, desc};
  c.inputs = ops;
  c.accumulates = true;
  c.run = [ops, subs, opts](Backend& be, int side) {
    std::vector<TensorView> views;
    for (const auto& o : ops) views.push_back(o.on(side));
    return einsum(be, subs, views, opts);
  };
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("TENFERRO_VK_VALIDATION", "1", 0);  // (an explicit TENFERRO_VK_VALIDATION=0 runs without)
  const char* stats = std::getenv("TENFERRO_FUZZ_STATS");
  g_want_stats = stats && (std::string(stats) == "1" || std::string(stats) == "2");
  g_verbose_stats = stats && std::string(stats) == "2";
  const char* trace = std::getenv("TENFERRO_FUZZ_TRACE");
  g_trace = trace && std::string(trace) == "1";
  if (g_want_stats) std::atexit(print_stats);
  __sanitizer_set_death_callback(print_current);
  g_cpu = &cpu_backend();
  if (!vulkan_available()) {
    std::fprintf(stderr, "fuzz_ops: no Vulkan device (lavapipe: mesa-vulkan-drivers); the harness compares CPU and Vulkan\n");
    std::exit(1);
  }
  g_vk = &get_backend("vulkan");
  g_validation = vk::validation_active(*g_vk);
  const char* want = std::getenv("TENFERRO_VK_VALIDATION");
  if (want && std::string(want) == "1" && !g_validation) {
    std::fprintf(stderr, "fuzz_ops: TENFERRO_VK_VALIDATION=1 but the validation layer is not active "
                         "(vulkan-validationlayers)\n");
    std::exit(1);
  }
  std::fprintf(stderr, "fuzz_ops: cpu against %s, validation %s\n", g_vk->device_name().c_str(), g_validation ? "on" : "off");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider fdp(data, size);
  // A few calls per input: each starts with its value seed and its op.
  for (int calls = 0; calls < 3 && fdp.remaining_bytes() > 0; ++calls) {
    Gen g{fdp};
    g.rng.s = fdp.ConsumeIntegral<std::uint64_t>();
    Call c;
    switch (fdp.ConsumeIntegralInRange<int>(0, 10)) {
      case 0: c = gen_gather(g); break;
      case 1: c = gen_scatter(g); break;
      case 2: c = gen_pad(g); break;
      case 3: c = gen_slice(g); break;
      case 4: c = gen_dynamic_slice(g); break;
      case 5: c = gen_dot_general(g); break;
      case 6: c = gen_reduce(g); break;
      case 7: c = gen_transpose(g); break;
      case 8: c = gen_broadcast(g); break;
      case 9: c = gen_cast(g); break;
      default: c = gen_einsum(g); break;
    }
    c.spoilt = g.invalid;
    check(c);
  }
  return 0;
}
