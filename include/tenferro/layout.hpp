// Column-major strided layouts (SEMANTICS.md "Tensors and layout"), CuTe-style: a layout is a
// function from a colexicographic coordinate to an element offset. Strides and offsets count
// elements, never bytes; strides may be negative or zero (broadcast).
#pragma once
#include <cstdint>
#include <iosfwd>
#include <optional>

#include <vector>

#include "tenferro/error.hpp"
#include "tenferro/small_vector.hpp"

namespace tenferro {

/// Extents, strides and axis lists: inline up to rank 8, so copying a layout allocates nothing.
using Shape = SmallVector<std::int64_t, 8>;
using Strides = SmallVector<std::int64_t, 8>;
using Axes = SmallVector<std::int64_t, 8>;

/// Product of extents; throws Error{invalid_argument} on a negative extent or int64 overflow.
std::int64_t shape_numel(const Shape& shape, const char* op = "shape");
/// Product of non-negative extents, or nullopt where it overflows int64 (0 if any extent is 0).
std::optional<std::int64_t> numel_if_fits(const Shape& shape);
/// a * b for non-negative a and b, or INT64_MAX where that overflows. A product of extents
/// passes int64 only where a tensor holding them is empty (every tensor's element count is
/// checked), so a saturated count comes with an empty tensor and sizes no work.
constexpr std::int64_t mul_sat(std::int64_t a, std::int64_t b) {
  std::int64_t p = 0;
  return __builtin_mul_overflow(a, b, &p) ? INT64_MAX : p;
}
/// Compact column-major strides [1, d0, d0*d1, ...] (extents 0 count as 1). Never overflows:
/// for an empty shape whose other extents' product passes int64, the strides stop growing.
Strides compact_strides(const Shape& shape);

struct Layout {
  Shape shape;
  Strides strides;
  std::int64_t offset = 0;

  static Layout compact(const Shape& shape) { return Layout{shape, compact_strides(shape), 0}; }
  std::int64_t rank() const { return static_cast<std::int64_t>(shape.size()); }
  std::int64_t numel() const;
  /// True when the layout visits offset, offset+1, ... in colex order (size-1 axes' strides
  /// are ignored). @post is_compact() implies element i lives at offset + i.
  bool is_compact() const;
  /// Element offset of the colex linear index i (0 <= i < numel()).
  std::int64_t offset_of(std::int64_t linear) const;
  /// Smallest and largest element offset reached; for an empty layout min > max.
  std::int64_t min_offset() const;
  std::int64_t max_offset() const;
  /// Smallest and largest element offset of a non-empty layout, each step checked: false when
  /// one overflows int64 (strides too large for the shape), lo and hi then meaningless.
  bool offset_range(std::int64_t& lo, std::int64_t& hi) const;
  bool operator==(const Layout&) const = default;
};

/// Merges axes i, i+1 with strides[i+1] == strides[i]*shape[i] and drops extent-1 axes.
/// @post for every i: coalesce(L).offset_of(i) == L.offset_of(i); result rank <= L.rank().
/// Rank 0 results for numel 1; an empty layout coalesces to shape [0].
Layout coalesce(const Layout& l);
/// Coalesces several equally shaped layouts jointly (axes merged only where all agree), as
/// elementwise kernels need. @pre all shapes equal.
std::vector<Layout> coalesce_jointly(const std::vector<Layout>& ls);


}  // namespace tenferro
