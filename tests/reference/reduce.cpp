// Reference reductions: one pass over the colex index space of x, accumulating into the
// output element whose index is x's index without the reduced axes.
#include "reduce.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace tenferro::reference {

namespace {
bool contains(const Axes& axes, std::int64_t a) { return std::find(axes.begin(), axes.end(), a) != axes.end(); }
}  // namespace

ReduceResult reduce(OpId op, const test::RefTensor& x, const Axes& axes) {
  const std::size_t rank = x.shape.size();
  Shape out_shape;
  std::int64_t count = 1;
  for (std::size_t a = 0; a < rank; ++a) {
    if (contains(axes, static_cast<std::int64_t>(a))) count *= x.shape[a];
    else out_shape.push_back(x.shape[a]);
  }
  ReduceResult r{test::RefTensor(x.dtype, out_shape), {}, count};
  const auto n_out = static_cast<std::size_t>(r.value.numel());
  const bool is_sum = op == OpId::reduce_sum, is_prod = op == OpId::reduce_prod,
             is_max = op == OpId::reduce_max;
  // Accumulators: exact wrapping uint64 for integers, complex<double> otherwise.
  std::vector<std::uint64_t> iacc(n_out, is_prod ? 1u : 0u);
  std::vector<c64> acc(n_out, is_prod ? c64(1, 0) : c64(0, 0));
  std::vector<c64> comp(n_out, c64(0, 0));  // compensation terms of the sums
  std::vector<bool> started(n_out, false);
  r.scale.assign(n_out, is_prod ? 1.0 : 0.0);

  // Output stride of each input axis (0 for reduced axes): the output index of input index i
  // is its multi-index with the reduced coordinates dropped.
  Strides ostride(rank, 0);
  for (std::size_t a = 0, mul = 1; a < rank; ++a) {
    if (contains(axes, static_cast<std::int64_t>(a))) continue;
    ostride[a] = static_cast<std::int64_t>(mul);
    mul *= static_cast<std::size_t>(x.shape[a]);
  }
  for (std::int64_t i = 0; i < x.numel(); ++i) {
    std::int64_t o = 0, rest = i;
    for (std::size_t a = 0; a < rank; ++a) {
      o += (rest % x.shape[a]) * ostride[a];
      rest /= x.shape[a];
    }
    const auto k = static_cast<std::size_t>(o), s = static_cast<std::size_t>(i);
    const c64 v = x.v[s];
    if (x.exact()) {
      const auto u = static_cast<std::uint64_t>(x.iv[s]);
      if (is_sum) iacc[k] += u;
      else if (is_prod) iacc[k] *= u;
      else if (!started[k]) iacc[k] = u;
      else {
        const auto cur = static_cast<std::int64_t>(iacc[k]);
        iacc[k] = static_cast<std::uint64_t>(is_max ? std::max(cur, x.iv[s]) : std::min(cur, x.iv[s]));
      }
    } else if (is_sum) {
      // Neumaier-compensated per part, so the oracle stays exact enough to judge f64 kernels.
      auto add = [](double& sum, double& c, double y) {
        const double t = sum + y;
        c += std::abs(sum) >= std::abs(y) ? (sum - t) + y : (y - t) + sum;
        sum = t;
      };
      double re = acc[k].real(), im = acc[k].imag(), cr = comp[k].real(), ci = comp[k].imag();
      add(re, cr, v.real());
      add(im, ci, v.imag());
      acc[k] = c64(re, im);
      comp[k] = c64(cr, ci);
      r.scale[k] += std::abs(v.real()) + std::abs(v.imag());
    } else if (is_prod) {
      acc[k] *= v;
      r.scale[k] *= std::abs(v);
    } else {
      const double cur = acc[k].real(), y = v.real();
      if (!started[k] || std::isnan(y)) acc[k] = y;
      else if (!std::isnan(cur)) acc[k] = is_max ? std::max(cur, y) : std::min(cur, y);
    }
    started[k] = true;
  }
  for (std::size_t k = 0; k < n_out; ++k) {
    if (x.exact()) r.value.set_int(static_cast<std::int64_t>(k), static_cast<std::int64_t>(iacc[k]));
    else {
      // Infinite sums make the compensation NaN; it only refines finite sums.
      const c64 c = comp[k];
      r.value.v[k] = acc[k] + c64(std::isfinite(c.real()) ? c.real() : 0.0, std::isfinite(c.imag()) ? c.imag() : 0.0);
    }
  }
  if (!is_sum && !is_prod) r.scale.assign(n_out, 0.0);
  return r;
}

}  // namespace tenferro::reference
