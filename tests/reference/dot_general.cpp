#include "dot_general.hpp"

#include <algorithm>
#include <cmath>

namespace tenferro::test {

namespace {
Axes free_axes(std::size_t rank, const Axes& batch, const Axes& contract) {
  Axes f;
  for (std::int64_t a = 0; a < static_cast<std::int64_t>(rank); ++a)
    if (std::count(batch.begin(), batch.end(), a) == 0 && std::count(contract.begin(), contract.end(), a) == 0)
      f.push_back(a);
  return f;
}
std::int64_t prod(const Shape& s, const Axes& axes) {
  std::int64_t n = 1;
  for (std::int64_t a : axes) n *= s[static_cast<std::size_t>(a)];
  return n;
}
}  // namespace

Shape ref_dot_general_shape(const Shape& lhs, const Shape& rhs, const DotGeneralConfig& cfg) {
  Shape out;
  for (std::int64_t a : free_axes(lhs.size(), cfg.lhs_batching_dims, cfg.lhs_contracting_dims))
    out.push_back(lhs[static_cast<std::size_t>(a)]);
  for (std::int64_t a : free_axes(rhs.size(), cfg.rhs_batching_dims, cfg.rhs_contracting_dims))
    out.push_back(rhs[static_cast<std::size_t>(a)]);
  for (std::int64_t a : cfg.lhs_batching_dims) out.push_back(lhs[static_cast<std::size_t>(a)]);
  return out;
}

DotReference ref_dot_general(const RefTensor& lhs, const RefTensor& rhs, const DotGeneralConfig& cfg,
                             bool lhs_conj, bool rhs_conj) {
  const Axes lf = free_axes(lhs.shape.size(), cfg.lhs_batching_dims, cfg.lhs_contracting_dims);
  const Axes rf = free_axes(rhs.shape.size(), cfg.rhs_batching_dims, cfg.rhs_contracting_dims);
  DotReference r{RefTensor(lhs.dtype, ref_dot_general_shape(lhs.shape, rhs.shape, cfg)), {}, 1};
  r.scale.assign(static_cast<std::size_t>(r.value.numel()), 0.0);
  r.k = prod(lhs.shape, cfg.lhs_contracting_dims);
  const std::size_t nc = cfg.lhs_contracting_dims.size();
  Shape li(lhs.shape.size()), ri(rhs.shape.size()), cidx(nc);
  for (std::int64_t o = 0; o < r.value.numel(); ++o) {
    // Output coordinate -> lhs free, rhs free and batch coordinates.
    std::int64_t rest = o;
    std::size_t ax = 0;
    auto next = [&]() {
      const std::int64_t e = r.value.shape[ax++];
      const std::int64_t c = rest % e;
      rest /= e;
      return c;
    };
    for (std::int64_t a : lf) li[static_cast<std::size_t>(a)] = next();
    for (std::int64_t a : rf) ri[static_cast<std::size_t>(a)] = next();
    for (std::size_t j = 0; j < cfg.lhs_batching_dims.size(); ++j) {
      const std::int64_t c = next();
      li[static_cast<std::size_t>(cfg.lhs_batching_dims[j])] = c;
      ri[static_cast<std::size_t>(cfg.rhs_batching_dims[j])] = c;
    }
    c64 acc(0, 0);
    double scale = 0;
    for (std::int64_t k = 0; k < r.k; ++k) {
      std::int64_t kr = k;
      for (std::size_t j = 0; j < nc; ++j) {
        const auto la = static_cast<std::size_t>(cfg.lhs_contracting_dims[j]);
        const std::int64_t c = kr % lhs.shape[la];
        kr /= lhs.shape[la];
        li[la] = c;
        ri[static_cast<std::size_t>(cfg.rhs_contracting_dims[j])] = c;
      }
      c64 x = lhs.v[static_cast<std::size_t>(lhs.index(li))];
      c64 y = rhs.v[static_cast<std::size_t>(rhs.index(ri))];
      if (lhs_conj) x = std::conj(x);
      if (rhs_conj) y = std::conj(y);
      acc += x * y;
      scale += std::abs(x) * std::abs(y);
    }
    r.value.v[static_cast<std::size_t>(o)] = acc;
    r.scale[static_cast<std::size_t>(o)] = scale;
  }
  return r;
}

}  // namespace tenferro::test
