#include "ref.hpp"

#include <cmath>
#include <cstring>
#include <sstream>

namespace tenferro::test {

RefTensor::RefTensor(DType d, Shape s) : dtype(d), shape(std::move(s)) {
  const auto n = static_cast<std::size_t>(shape_numel(shape));
  v.assign(n, c64(0, 0));
  iv.assign(n, 0);
}

namespace {
// Rounds through memory: GCC 12 at -O2 folds the complex<double> -> float -> double round
// trip to the identity (seen on 12.2.0), so the rounding must not be visible to the optimizer.
double to_f32(double x) {
  volatile float f = static_cast<float>(x);
  return f;
}
}  // namespace

c64 round_to(DType d, c64 x) {
  switch (d) {
    case DType::F32: return c64(to_f32(x.real()), 0.0);
    case DType::F64: return c64(x.real(), 0.0);
    case DType::C32: return c64(to_f32(x.real()), to_f32(x.imag()));
    case DType::C64: return x;
    case DType::I32:
    case DType::I64:
    case DType::Bool: return c64(static_cast<double>(wrap_to(d, static_cast<std::int64_t>(x.real()))), 0.0);
  }
  return x;
}

std::int64_t wrap_to(DType d, std::int64_t x) {
  if (d == DType::I32) return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(x)));
  if (d == DType::Bool) return x != 0;
  return x;
}

void RefTensor::set(std::int64_t i, c64 value) {
  const auto k = static_cast<std::size_t>(i);
  if (exact()) {
    set_int(i, static_cast<std::int64_t>(value.real()));
    return;
  }
  v[k] = round_to(dtype, value);
  iv[k] = 0;
}

void RefTensor::set_int(std::int64_t i, std::int64_t value) {
  const auto k = static_cast<std::size_t>(i);
  const std::int64_t w = wrap_to(dtype, value);
  iv[k] = w;
  v[k] = c64(static_cast<double>(w), 0.0);
}

std::int64_t RefTensor::index(const Shape& idx) const {
  std::int64_t lin = 0, mul = 1;
  for (std::size_t a = 0; a < shape.size(); ++a) {
    lin += idx[a] * mul;
    mul *= shape[a];
  }
  return lin;
}

namespace {
template <class T> void read_elems(const std::byte* base, const Layout& l, RefTensor& out) {
  const T* p = reinterpret_cast<const T*>(base);
  for (std::int64_t i = 0; i < out.numel(); ++i) {
    const T x = p[l.offset_of(i)];
    if constexpr (std::is_same_v<T, bool>) {
      out.set_int(i, x ? 1 : 0);
    } else if constexpr (std::is_integral_v<T>) {
      out.set_int(i, x);
    } else if constexpr (std::is_floating_point_v<T>) {
      out.v[static_cast<std::size_t>(i)] = c64(static_cast<double>(x), 0.0);
    } else {
      out.v[static_cast<std::size_t>(i)] = c64(x.real(), x.imag());
    }
  }
}

template <class T> void write_elems(std::byte* base, const RefTensor& r) {
  T* p = reinterpret_cast<T*>(base);
  for (std::int64_t i = 0; i < r.numel(); ++i) {
    const auto k = static_cast<std::size_t>(i);
    if constexpr (std::is_same_v<T, bool>) {
      p[i] = r.iv[k] != 0;
    } else if constexpr (std::is_integral_v<T>) {
      p[i] = static_cast<T>(r.iv[k]);
    } else if constexpr (std::is_floating_point_v<T>) {
      p[i] = static_cast<T>(r.v[k].real());
    } else {
      using R = typename T::value_type;
      p[i] = T(static_cast<R>(r.v[k].real()), static_cast<R>(r.v[k].imag()));
    }
  }
}
}  // namespace

RefTensor read(Backend& be, const TensorView& t) {
  RefTensor out(t.dtype(), t.shape());
  if (t.numel() == 0) return out;
  TensorView src = t;
  if (t.storage()->host_data() == nullptr) src = be.download(t);
  // Host mapping: checked access to the storage bytes (the whole storage of the view).
  HostMapping m = map_read(src);
  visit_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    read_elems<T>(m.raw(), src.layout(), out);
  });
  return out;
}

Tensor to_host(const RefTensor& ref) {
  Tensor t = host_tensor_zeros(ref.dtype, ref.shape);
  if (ref.numel() == 0) return t;
  visit_dtype(ref.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    write_elems<T>(t.storage()->host_data(), ref);
  });
  return t;
}

std::string layout_name(LayoutCase lc) {
  switch (lc) {
    case LayoutCase::compact: return "compact";
    case LayoutCase::transposed: return "transposed";
    case LayoutCase::broadcast: return "broadcast";
    case LayoutCase::offset: return "offset";
    case LayoutCase::negative_stride: return "negative_stride";
  }
  return "?";
}

namespace {
std::int64_t broadcast_axis(const Shape& s) {
  for (std::size_t a = 0; a < s.size(); ++a)
    if (s[a] > 1) return static_cast<std::int64_t>(a);
  return -1;
}
}  // namespace

RefTensor random_ref(DType d, const Shape& shape, std::mt19937_64& rng, LayoutCase lc, RandomSpec spec) {
  RefTensor r(d, shape);
  std::uniform_real_distribution<double> u(spec.lo, spec.hi);
  auto draw = [&]() -> c64 {
    for (;;) {
      c64 x;
      if (d == DType::Bool) {
        x = c64(static_cast<double>(rng() & 1), 0);
      } else if (is_integer(d) || spec.integral) {
        std::uniform_int_distribution<std::int64_t> ui(static_cast<std::int64_t>(std::ceil(spec.lo)),
                                                       static_cast<std::int64_t>(std::floor(spec.hi)));
        x = c64(static_cast<double>(ui(rng)), is_complex(d) ? static_cast<double>(ui(rng)) : 0.0);
      } else {
        x = c64(u(rng), is_complex(d) ? u(rng) : 0.0);
      }
      if (!spec.nonzero || x != c64(0, 0)) return x;
    }
  };
  const std::int64_t bax = lc == LayoutCase::broadcast ? broadcast_axis(shape) : -1;
  for (std::int64_t i = 0; i < r.numel(); ++i) {
    if (bax >= 0) {
      // Copy from the element with index 0 along the broadcast axis.
      std::int64_t stride = 1;
      for (std::int64_t a = 0; a < bax; ++a) stride *= shape[static_cast<std::size_t>(a)];
      const std::int64_t coord = (i / stride) % shape[static_cast<std::size_t>(bax)];
      if (coord != 0) {
        const auto src = static_cast<std::size_t>(i - coord * stride);
        r.v[static_cast<std::size_t>(i)] = r.v[src];
        r.iv[static_cast<std::size_t>(i)] = r.iv[src];
        continue;
      }
    }
    r.set(i, draw());
  }
  return r;
}

TensorView place(Backend& be, const RefTensor& ref, LayoutCase lc) {
  const std::int64_t rank = static_cast<std::int64_t>(ref.shape.size());
  auto on_backend = [&](const Tensor& host) -> Tensor {
    return be.is_host() ? host : be.upload(host);
  };
  switch (lc) {
    case LayoutCase::compact: return on_backend(to_host(ref));
    case LayoutCase::transposed: {
      // Physical tensor holds the axes reversed; the view transposes them back.
      Axes rev(static_cast<std::size_t>(rank));
      for (std::int64_t a = 0; a < rank; ++a) rev[static_cast<std::size_t>(a)] = rank - 1 - a;
      Shape pshape(ref.shape.rbegin(), ref.shape.rend());
      RefTensor phys(ref.dtype, pshape);
      for (std::int64_t i = 0; i < ref.numel(); ++i) {
        Shape idx(static_cast<std::size_t>(rank));
        std::int64_t rest = i;
        for (std::int64_t a = 0; a < rank; ++a) {
          idx[static_cast<std::size_t>(a)] = rest % ref.shape[static_cast<std::size_t>(a)];
          rest /= ref.shape[static_cast<std::size_t>(a)];
        }
        Shape pidx(idx.rbegin(), idx.rend());
        const auto j = static_cast<std::size_t>(phys.index(pidx));
        phys.v[j] = ref.v[static_cast<std::size_t>(i)];
        phys.iv[j] = ref.iv[static_cast<std::size_t>(i)];
      }
      return on_backend(to_host(phys)).transpose(rev);
    }
    case LayoutCase::broadcast: {
      const std::int64_t bax = broadcast_axis(ref.shape);
      if (bax < 0) return on_backend(to_host(ref));
      Shape pshape = ref.shape;
      pshape[static_cast<std::size_t>(bax)] = 1;
      RefTensor phys(ref.dtype, pshape);
      for (std::int64_t i = 0; i < phys.numel(); ++i) {
        // Same colex decomposition; coordinate on bax is 0 in both.
        Shape idx(static_cast<std::size_t>(rank));
        std::int64_t rest = i;
        for (std::int64_t a = 0; a < rank; ++a) {
          idx[static_cast<std::size_t>(a)] = rest % pshape[static_cast<std::size_t>(a)];
          rest /= pshape[static_cast<std::size_t>(a)];
        }
        const auto j = static_cast<std::size_t>(ref.index(idx));
        phys.v[static_cast<std::size_t>(i)] = ref.v[j];
        phys.iv[static_cast<std::size_t>(i)] = ref.iv[j];
      }
      Axes dims(static_cast<std::size_t>(rank));
      for (std::int64_t a = 0; a < rank; ++a) dims[static_cast<std::size_t>(a)] = a;
      return on_backend(to_host(phys)).broadcast_in_dim(ref.shape, dims);
    }
    case LayoutCase::offset: {
      // Embedded at [1, 1, ...] in a tensor 2 larger per axis, surrounded by garbage (7s). The
      // zero axes of an empty one stay unpadded (at 0), so that its parent is empty as well.
      Shape pshape = ref.shape, starts(static_cast<std::size_t>(rank), 1), limits = ref.shape,
            steps(static_cast<std::size_t>(rank), 1);
      for (std::size_t a = 0; a < pshape.size(); ++a) {
        if (pshape[a] == 0) {
          starts[a] = 0;
          continue;
        }
        pshape[a] += 2;
        limits[a] += 1;
      }
      RefTensor phys(ref.dtype, pshape);
      for (std::int64_t i = 0; i < phys.numel(); ++i) phys.set(i, c64(7, 7));
      for (std::int64_t i = 0; i < ref.numel(); ++i) {
        Shape idx(static_cast<std::size_t>(rank));
        std::int64_t rest = i;
        for (std::int64_t a = 0; a < rank; ++a) {
          idx[static_cast<std::size_t>(a)] = rest % ref.shape[static_cast<std::size_t>(a)] + 1;
          rest /= ref.shape[static_cast<std::size_t>(a)];
        }
        const auto j = static_cast<std::size_t>(phys.index(idx));
        phys.v[j] = ref.v[static_cast<std::size_t>(i)];
        phys.iv[j] = ref.iv[static_cast<std::size_t>(i)];
      }
      return on_backend(to_host(phys)).slice(starts, limits, steps);
    }
    case LayoutCase::negative_stride: {
      // Physical tensor reversed along every axis; the view reverses back.
      RefTensor phys(ref.dtype, ref.shape);
      for (std::int64_t i = 0; i < ref.numel(); ++i) {
        Shape idx(static_cast<std::size_t>(rank));
        std::int64_t rest = i;
        for (std::int64_t a = 0; a < rank; ++a) {
          const std::int64_t e = ref.shape[static_cast<std::size_t>(a)];
          idx[static_cast<std::size_t>(a)] = e - 1 - rest % e;
          rest /= e;
        }
        const auto j = static_cast<std::size_t>(phys.index(idx));
        phys.v[j] = ref.v[static_cast<std::size_t>(i)];
        phys.iv[j] = ref.iv[static_cast<std::size_t>(i)];
      }
      Axes all(static_cast<std::size_t>(rank));
      for (std::int64_t a = 0; a < rank; ++a) all[static_cast<std::size_t>(a)] = a;
      return on_backend(to_host(phys)).reverse(all);
    }
  }
  return {};
}

Tol ulp_tol(DType d, double ulps) {
  const double eps = (d == DType::F32 || d == DType::C32) ? 1.1920929e-7 : 2.220446049250313e-16;
  if (!is_inexact(d)) return {0, 0};
  return {ulps * eps, 0};
}

std::string compare(const RefTensor& want, const RefTensor& got, Tol tol) {
  std::ostringstream os;
  if (want.dtype != got.dtype) {
    os << "dtype " << dtype_name(got.dtype) << ", expected " << dtype_name(want.dtype);
    return os.str();
  }
  if (want.shape != got.shape) {
    os << "shape " << got.shape << ", expected " << want.shape;
    return os.str();
  }
  for (std::int64_t i = 0; i < want.numel(); ++i) {
    const auto k = static_cast<std::size_t>(i);
    bool ok;
    if (want.exact()) {
      ok = want.iv[k] == got.iv[k];
    } else {
      const c64 w = want.v[k], g = got.v[k];
      auto part_ok = [&](double wp, double gp) {
        if (std::isnan(wp)) return std::isnan(gp);
        if (std::isinf(wp)) return wp == gp;
        if (!std::isfinite(gp)) return false;
        return true;
      };
      ok = part_ok(w.real(), g.real()) && part_ok(w.imag(), g.imag());
      if (ok && std::isfinite(w.real()) && std::isfinite(w.imag())) {
        const double err = std::abs(g - w);
        ok = err <= tol.atol + tol.rtol * std::max(std::abs(w), 1.0);
      }
    }
    if (!ok) {
      os.precision(17);
      os << "element " << i << " of " << want.numel() << " (shape " << want.shape << "): got ";
      if (want.exact()) os << got.iv[k] << ", expected " << want.iv[k];
      else os << got.v[k] << ", expected " << want.v[k] << " (rtol " << tol.rtol << ", atol " << tol.atol << ")";
      return os.str();
    }
  }
  return "";
}

std::vector<Shape> standard_shapes() {
  return {{}, {1}, {7}, {0}, {3, 0}, {1, 1, 4}, {5, 3}, {4, 1, 3}, {3, 4, 2, 2}};
}

}  // namespace tenferro::test
