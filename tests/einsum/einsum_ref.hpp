// The einsum reference shared by the einsum tests: a loop over every assignment of every label
// in complex<double>, independent of the planner and the backends.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "ref.hpp"
#include "tenferro/backend/backend.hpp"

namespace tenferro::test {

// inputs/output: one code point per axis (ellipsis already written out). An operand axis of
// extent 1 whose label is larger elsewhere broadcasts (index clamped to 0).
inline RefTensor einsum_reference(const std::vector<std::u32string>& inputs, const std::u32string& output,
                                  const std::vector<RefTensor>& ops, DType dtype) {
  std::u32string labels;
  std::vector<std::int64_t> ext;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    for (std::size_t ax = 0; ax < inputs[i].size(); ++ax) {
      const auto pos = labels.find(inputs[i][ax]);
      const std::int64_t e = ops[i].shape[ax];
      if (pos == std::u32string::npos) {
        labels += inputs[i][ax];
        ext.push_back(e);
      } else {
        ext[pos] = std::max(ext[pos], e);
      }
    }
  Shape out_shape;
  for (char32_t c : output) out_shape.push_back(ext[labels.find(c)]);
  RefTensor out(dtype, out_shape);
  std::vector<c64> acc(static_cast<std::size_t>(out.numel()), c64(0, 0));
  // Every assignment of every label; none where a label is empty (the other extents may then
  // multiply past int64).
  std::int64_t total = std::count(ext.begin(), ext.end(), 0) > 0 ? 0 : 1;
  if (total > 0)
    for (auto e : ext) total *= e;
  std::vector<std::int64_t> idx(labels.size(), 0);
  for (std::int64_t t = 0; t < total; ++t) {
    std::int64_t r = t;
    for (std::size_t l = 0; l < labels.size(); ++l) {
      idx[l] = r % ext[l];
      r /= ext[l];
    }
    c64 prod(1, 0);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      Shape at;
      for (std::size_t ax = 0; ax < inputs[i].size(); ++ax) {
        const std::int64_t v = idx[labels.find(inputs[i][ax])];
        at.push_back(ops[i].shape[ax] == 1 ? 0 : v);
      }
      prod *= ops[i].v[static_cast<std::size_t>(ops[i].index(at))];
    }
    Shape oat;
    for (char32_t c : output) oat.push_back(idx[labels.find(c)]);
    acc[static_cast<std::size_t>(out.index(oat))] += prod;
  }
  for (std::size_t k = 0; k < acc.size(); ++k) out.v[k] = acc[k];
  return out;
}

inline Tol einsum_tol(DType d) {
  return (d == DType::F32 || d == DType::C32) ? Tol{2e-4, 2e-4} : Tol{1e-10, 1e-10};
}

/// True when `be` runs an einsum of n_ops operands in dtype d.
inline bool einsum_runs_on(Backend& be, DType d, std::size_t n_ops) {
  return be.supports(OpId::transpose, d) && be.supports(OpId::reduce_sum, d) &&
         (n_ops < 2 || be.supports(OpId::dot_general, d));
}

/// Subscripts, the terms spelled out for einsum_reference, and the operand shapes.
struct EinsumCase {
  std::string subscripts;                // UTF-8 for einsum
  std::vector<std::u32string> inputs;    // expanded terms for the reference
  std::u32string output;
  std::vector<Shape> shapes;
};

}  // namespace tenferro::test
