// A scalar as one element of a dtype, in the element's bytes: what the GPU providers' fill
// kernels write (Bool is one byte 0/1). 16 bytes hold any dtype's element.
#pragma once
#include <array>
#include <cstring>
#include <type_traits>

#include "tenferro/dtype.hpp"

namespace tenferro::detail {

inline std::array<unsigned char, 16> element_bytes(const Scalar& value, DType d) {
  std::array<unsigned char, 16> raw{};
  visit_dtype(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = value.as<T>();
    if constexpr (std::is_same_v<T, bool>) {
      raw[0] = v ? 1 : 0;
    } else {
      std::memcpy(raw.data(), &v, sizeof(T));
    }
  });
  return raw;
}

}  // namespace tenferro::detail
