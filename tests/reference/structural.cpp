// Reference structural ops: each op is one loop over the output (or input) colex index space.
#include "structural.hpp"

#include <algorithm>

namespace tenferro::test::structural_ref {

namespace {
std::size_t uz(std::int64_t v) { return static_cast<std::size_t>(v); }
}  // namespace

Shape unravel(std::int64_t i, const Shape& shape) {
  Shape idx(shape.size());
  for (std::size_t a = 0; a < shape.size(); ++a) {
    idx[a] = i % shape[a];
    i /= shape[a];
  }
  return idx;
}

void copy_elem(RefTensor& dst, std::int64_t di, const RefTensor& src, std::int64_t si) {
  dst.v[uz(di)] = src.v[uz(si)];
  dst.iv[uz(di)] = src.iv[uz(si)];
}

RefTensor zero_scalar(DType d) { return RefTensor(d, {}); }

RefTensor transpose(const RefTensor& x, const Axes& perm) {
  Shape shape(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) shape[i] = x.shape[uz(perm[i])];
  RefTensor out(x.dtype, shape);
  for (std::int64_t o = 0; o < out.numel(); ++o) {
    const Shape idx = unravel(o, shape);
    Shape xi(x.shape.size());
    for (std::size_t i = 0; i < perm.size(); ++i) xi[uz(perm[i])] = idx[i];
    copy_elem(out, o, x, x.index(xi));
  }
  return out;
}

RefTensor reshape(const RefTensor& x, const Shape& shape) {
  RefTensor out = x;
  out.shape = shape;
  return out;
}

RefTensor broadcast_in_dim(const RefTensor& x, const Shape& shape, const Axes& dims) {
  RefTensor out(x.dtype, shape);
  for (std::int64_t o = 0; o < out.numel(); ++o) {
    const Shape idx = unravel(o, shape);
    Shape xi(x.shape.size());
    for (std::size_t j = 0; j < dims.size(); ++j) xi[j] = x.shape[j] == 1 ? 0 : idx[uz(dims[j])];
    copy_elem(out, o, x, x.index(xi));
  }
  return out;
}

RefTensor extract_diagonal(const RefTensor& x, std::int64_t a, std::int64_t b) {
  Shape shape = x.shape;
  shape.erase(shape.begin() + b);
  RefTensor out(x.dtype, shape);
  for (std::int64_t o = 0; o < out.numel(); ++o) {
    Shape xi = unravel(o, shape);
    const std::int64_t ai = a < b ? a : a - 1;  // axis a's position once b is removed
    xi.insert(xi.begin() + b, xi[uz(ai)]);
    copy_elem(out, o, x, x.index(xi));
  }
  return out;
}

RefTensor embed_diagonal(const RefTensor& x, std::int64_t a, std::int64_t b) {
  Shape shape = x.shape;
  shape.insert(shape.begin() + b, x.shape[uz(a)]);
  RefTensor out(x.dtype, shape);  // zero elsewhere
  for (std::int64_t i = 0; i < x.numel(); ++i) {
    Shape oi = unravel(i, x.shape);
    oi.insert(oi.begin() + b, oi[uz(a)]);
    copy_elem(out, out.index(oi), x, i);
  }
  return out;
}

namespace {
RefTensor triangular(const RefTensor& x, std::int64_t k, bool lower) {
  RefTensor out(x.dtype, x.shape);
  for (std::int64_t i = 0; i < x.numel(); ++i) {
    const Shape idx = unravel(i, x.shape);
    // In double: exact for the small row/col values, and no overflow for extreme k.
    const double boundary = static_cast<double>(idx[1]) - static_cast<double>(k);
    const double row = static_cast<double>(idx[0]);
    if (lower ? row >= boundary : row <= boundary) copy_elem(out, i, x, i);
  }
  return out;
}
}  // namespace

RefTensor tril(const RefTensor& x, std::int64_t k) { return triangular(x, k, true); }
RefTensor triu(const RefTensor& x, std::int64_t k) { return triangular(x, k, false); }

RefTensor slice(const RefTensor& x, const Shape& starts, const Shape& limits, const Shape& strides) {
  Shape shape(x.shape.size());
  for (std::size_t a = 0; a < shape.size(); ++a)
    shape[a] = std::max<std::int64_t>(0, (limits[a] - starts[a] + strides[a] - 1) / strides[a]);
  RefTensor out(x.dtype, shape);
  for (std::int64_t o = 0; o < out.numel(); ++o) {
    Shape xi = unravel(o, shape);
    for (std::size_t a = 0; a < shape.size(); ++a) xi[a] = starts[a] + xi[a] * strides[a];
    copy_elem(out, o, x, x.index(xi));
  }
  return out;
}

namespace {
std::vector<std::int64_t> clamp_starts(const std::vector<std::int64_t>& starts, const Shape& extents,
                                       const Shape& sizes) {
  std::vector<std::int64_t> c(starts.size());
  for (std::size_t a = 0; a < starts.size(); ++a) c[a] = std::clamp<std::int64_t>(starts[a], 0, extents[a] - sizes[a]);
  return c;
}
}  // namespace

RefTensor dynamic_slice(const RefTensor& x, const std::vector<std::int64_t>& starts, const Shape& sizes) {
  const auto s = clamp_starts(starts, x.shape, sizes);
  RefTensor out(x.dtype, sizes);
  for (std::int64_t o = 0; o < out.numel(); ++o) {
    Shape xi = unravel(o, sizes);
    for (std::size_t a = 0; a < xi.size(); ++a) xi[a] += s[a];
    copy_elem(out, o, x, x.index(xi));
  }
  return out;
}

RefTensor dynamic_update_slice(const RefTensor& operand, const RefTensor& update,
                               const std::vector<std::int64_t>& starts) {
  const auto s = clamp_starts(starts, operand.shape, update.shape);
  RefTensor out = operand;
  for (std::int64_t u = 0; u < update.numel(); ++u) {
    Shape oi = unravel(u, update.shape);
    for (std::size_t a = 0; a < oi.size(); ++a) oi[a] += s[a];
    copy_elem(out, out.index(oi), update, u);
  }
  return out;
}

RefTensor pad(const RefTensor& x, const Shape& low, const Shape& high, const Shape& interior,
              const RefTensor& value) {
  Shape shape(x.shape.size());
  for (std::size_t a = 0; a < shape.size(); ++a) {
    const std::int64_t n = x.shape[a];
    shape[a] = low[a] + high[a] + n + (n > 0 ? (n - 1) * interior[a] : 0);
  }
  RefTensor out(x.dtype, shape);
  for (std::int64_t o = 0; o < out.numel(); ++o) copy_elem(out, o, value, 0);
  for (std::int64_t i = 0; i < x.numel(); ++i) {
    Shape oi = unravel(i, x.shape);
    bool inside = true;
    for (std::size_t a = 0; a < oi.size(); ++a) {
      oi[a] = low[a] + oi[a] * (interior[a] + 1);
      inside = inside && oi[a] >= 0 && oi[a] < shape[a];
    }
    if (inside) copy_elem(out, out.index(oi), x, i);
  }
  return out;
}

RefTensor concatenate(const std::vector<RefTensor>& inputs, std::int64_t axis) {
  Shape shape = inputs[0].shape;
  shape[uz(axis)] = 0;
  for (const RefTensor& t : inputs) shape[uz(axis)] += t.shape[uz(axis)];
  RefTensor out(inputs[0].dtype, shape);
  std::int64_t at = 0;
  for (const RefTensor& t : inputs) {
    for (std::int64_t i = 0; i < t.numel(); ++i) {
      Shape oi = unravel(i, t.shape);
      oi[uz(axis)] += at;
      copy_elem(out, out.index(oi), t, i);
    }
    at += t.shape[uz(axis)];
  }
  return out;
}

RefTensor reverse(const RefTensor& x, const Axes& axes) {
  RefTensor out(x.dtype, x.shape);
  for (std::int64_t o = 0; o < out.numel(); ++o) {
    Shape xi = unravel(o, x.shape);
    for (std::int64_t a : axes) xi[uz(a)] = x.shape[uz(a)] - 1 - xi[uz(a)];
    copy_elem(out, o, x, x.index(xi));
  }
  return out;
}

}  // namespace tenferro::test::structural_ref
