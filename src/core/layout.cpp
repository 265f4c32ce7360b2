// Layout algebra: numel, compact strides, colex offsets, coalescing.
#include "tenferro/layout.hpp"

#include <algorithm>
#include <ostream>

#include "tenferro/error.hpp"

namespace tenferro {

std::optional<std::int64_t> numel_if_fits(const Shape& shape) {
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return 0;
  std::int64_t n = 1;
  for (std::int64_t e : shape)
    if (__builtin_mul_overflow(n, e, &n)) return std::nullopt;
  return n;
}

std::int64_t shape_numel(const Shape& shape, const char* op) {
  for (std::size_t i = 0; i < shape.size(); ++i) {
    TENFERRO_CHECK(shape[i] >= 0, invalid_argument, op, "shape", "extent ", shape[i], " at axis ", i,
                   " is negative");
    if (shape[i] == 0) return 0;
  }
  const std::optional<std::int64_t> n = numel_if_fits(shape);
  TENFERRO_CHECK(n.has_value(), invalid_argument, op, "shape", "element count of ", shape, " overflows int64");
  return *n;
}

Strides compact_strides(const Shape& shape) {
  Strides s(shape.size());
  std::int64_t acc = 1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    s[i] = acc;
    // Only an empty shape (a zero extent beside huge ones, e.g. [0, 2^62, 2^62]) has a product
    // of the other extents past int64; its strides address nothing, and stop growing there.
    std::int64_t next = 0;
    if (!__builtin_mul_overflow(acc, shape[i] > 0 ? shape[i] : 1, &next)) acc = next;
  }
  return s;
}

std::int64_t Layout::numel() const {
  // Zero first: [2^62, 2^62, 0] is empty, though its leading product overflows.
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return 0;
  std::int64_t n = 1;
  for (std::int64_t e : shape) n *= e;
  return n;
}

bool Layout::is_compact() const {
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return true;
  std::int64_t expect = 1;
  bool fits = true;  // expect is the product of the extents so far (else no later stride can be)
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1) continue;
    if (!fits || strides[i] != expect) return false;
    fits = !__builtin_mul_overflow(expect, shape[i], &expect);
  }
  return true;
}

std::int64_t Layout::offset_of(std::int64_t linear) const {
  std::int64_t off = offset;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    off += (linear % shape[i]) * strides[i];
    linear /= shape[i];
  }
  return off;
}

bool Layout::offset_range(std::int64_t& lo, std::int64_t& hi) const {
  lo = hi = offset;
  bool wraps = false;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    std::int64_t span = 0;
    wraps = __builtin_mul_overflow(shape[i] - 1, strides[i], &span) ||
            __builtin_add_overflow(strides[i] < 0 ? lo : hi, span, strides[i] < 0 ? &lo : &hi) || wraps;
  }
  return !wraps;
}

std::int64_t Layout::min_offset() const {
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return offset;  // empty: min > max
  std::int64_t lo = 0, hi = 0;
  offset_range(lo, hi);
  return lo;
}

std::int64_t Layout::max_offset() const {
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return offset - 1;
  std::int64_t lo = 0, hi = 0;
  offset_range(lo, hi);
  return hi;
}

std::vector<Layout> coalesce_jointly(const std::vector<Layout>& ls) {
  const std::size_t n = ls.size();
  std::vector<Layout> out(n);
  if (n == 0) return out;
  const Shape& shape = ls[0].shape;
  bool empty = false;
  for (std::int64_t e : shape) empty |= e == 0;
  for (std::size_t j = 0; j < n; ++j) out[j].offset = ls[j].offset;
  if (empty) {
    for (auto& l : out) {
      l.shape = {0};
      l.strides = {1};
    }
    return out;
  }
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1) continue;
    bool merge = !out[0].shape.empty();
    for (std::size_t j = 0; merge && j < n; ++j) {
      const Layout& o = out[j];
      merge = o.strides.back() * o.shape.back() == ls[j].strides[i];
    }
    for (std::size_t j = 0; j < n; ++j) {
      if (merge) {
        out[j].shape.back() *= shape[i];
      } else {
        out[j].shape.push_back(shape[i]);
        out[j].strides.push_back(ls[j].strides[i]);
      }
    }
  }
  return out;
}

Layout coalesce(const Layout& l) { return coalesce_jointly({l})[0]; }

std::ostream& operator<<(std::ostream& os, const std::vector<long>& s) {
  os << "[";
  for (std::size_t i = 0; i < s.size(); ++i) os << (i ? ", " : "") << s[i];
  return os << "]";
}

}  // namespace tenferro
