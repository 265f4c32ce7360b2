// tenferro._tenferro: the nanobind extension behind the Python package `tenferro`
// (python/tenferro/__init__.py, docs/python.md).
//
// A Python Tensor is a tenferro::TensorView. Axis k of a Python tensor is axis k of the view,
// and element (i0, ..., in-1) lives at offset + sum(ik * stride_k) in both NumPy and tenferro,
// so a NumPy array's shape and (element) strides map onto a view unchanged, without copies.
// What differs is only which memory order is "compact": tenferro's owned tensors are
// column-major, so results come back to NumPy as Fortran-ordered arrays, and reshape (C order
// in NumPy) is done by reversing the axes, reshaping column-major and reversing back.
//
// Every op runs on the backend that owns its operands' storage (the storage's domain); this
// module keeps the map from domain to Backend for every backend it opened.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/complex.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <complex>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "tenferro/backend/backend.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/slicing.hpp"
#include "tenferro/ops.hpp"
#include "tenferro/options.hpp"
#include "tenferro/runtime.hpp"

namespace nb = nanobind;
using namespace tenferro;

namespace {

// ---- backends by domain ------------------------------------------------------------------

/// The backend a tensor lives on, through the core's registry (register_backend).
Backend& backend_of(const TensorView& t, const char* op) {
  TENFERRO_CHECK(t.defined(), invalid_argument, op, "x", "undefined tensor");
  const DomainId d = t.domain();
  if (d == kHostDomain) return cpu_backend();
  Backend* be = registered_backend(d);
  TENFERRO_CHECK(be != nullptr, host_access, op, "x", "tensor of an unknown runtime (domain ", d, ")");
  return *be;
}

/// tenferro.Device: the Backend and its name ("cpu", "vulkan:0").
struct PyDevice {
  Backend* be = nullptr;
  std::string name() const {
    if (be->is_host()) return "cpu";
    return be->name() + ":" + std::to_string(be->placement().ordinal);
  }
};

PyDevice parse_device(const std::string& spec) {
  std::string kind = spec;
  int ordinal = -1;
  if (auto colon = spec.find(':'); colon != std::string::npos) {
    kind = spec.substr(0, colon);
    const std::string num = spec.substr(colon + 1);
    TENFERRO_CHECK(!num.empty() && num.size() < 9 && std::all_of(num.begin(), num.end(), ::isdigit),
                   invalid_argument, "device", "device", "bad device '", spec, "': expected cpu, vulkan or vulkan:N");
    ordinal = std::stoi(num);
  }
  if (kind == "cpu") {
    TENFERRO_CHECK(ordinal <= 0, invalid_argument, "device", "device", "the CPU device has ordinal 0, got '", spec, "'");
    return PyDevice{&cpu_backend()};
  }
  return PyDevice{&get_backend(kind, ordinal)};
}

Backend& device_arg(const nb::handle& h) {
  if (h.is_none()) return default_backend();
  if (nb::isinstance<PyDevice>(h)) return *nb::cast<PyDevice&>(h).be;
  if (nb::isinstance<nb::str>(h)) return *parse_device(nb::cast<std::string>(h)).be;
  TENFERRO_FAIL(invalid_argument, "device", "device", "expected a tenferro.Device, a string or None");
}

// ---- dtypes: NumPy dtype objects <-> DType ------------------------------------------------

// Module-lifetime Python objects are held as handles to references that are never released: the
// C++ static destructors run after the interpreter is finalized, when a release that frees an
// object would call into Python without a thread state (a fatal error at exit).
nb::handle g_np_dtypes[kNumDTypes];  // np.dtype per DType, set at import

const char* numpy_name(DType d) {
  switch (d) {
    case DType::F32: return "float32";
    case DType::F64: return "float64";
    case DType::I32: return "int32";
    case DType::I64: return "int64";
    case DType::Bool: return "bool";
    case DType::C32: return "complex64";
    case DType::C64: return "complex128";
  }
  return "?";
}

DType dtype_from_name(const std::string& n, const char* op) {
  for (DType d : kAllDTypes)
    if (n == numpy_name(d)) return d;
  if (auto d = parse_dtype(n)) return *d;
  TENFERRO_FAIL(unsupported, op, "dtype", "dtype '", n,
                "' is not one of float32 float64 int32 int64 bool complex64 complex128");
}

nb::handle g_np_dtype_fn;  // numpy.dtype

/// A dtype argument: a NumPy dtype, a type (np.float32, float, complex) or a name.
DType dtype_arg(nb::handle h, const char* op) {
  if (nb::isinstance<nb::str>(h)) return dtype_from_name(nb::cast<std::string>(h), op);
  nb::object d = g_np_dtype_fn(h);
  return dtype_from_name(nb::cast<std::string>(d.attr("name")), op);
}

// ---- host storage over Python-owned memory (NumPy arrays, DLPack capsules) -----------------

class PyHostStorage final : public Storage {
 public:
  PyHostStorage(std::byte* base, std::size_t nbytes, nb::object owner, bool read_only)
      : Storage(nbytes, kHostDomain, Placement{}), base_(base), owner_(std::move(owner)), read_only_(read_only) {}
  ~PyHostStorage() override {
    nb::gil_scoped_acquire gil;
    owner_.reset();
  }
  std::byte* host_data() override { return base_; }
  /// The memory of a read-only NumPy array: x[key] = value refuses to write it.
  bool read_only() const { return read_only_; }

 private:
  std::byte* base_;
  nb::object owner_;
  bool read_only_;
};

/// A view over host memory at `data` with element strides; the storage spans exactly the
/// elements reached. `owner` keeps the memory alive.
TensorView wrap_host(std::byte* data, DType dt, const std::vector<std::int64_t>& shape,
                     const std::vector<std::int64_t>& strides, nb::object owner, bool read_only = false) {
  Layout l;
  const std::int64_t es = static_cast<std::int64_t>(dtype_size(dt));
  std::int64_t lo = 0, hi = 0;
  bool empty = false;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    l.shape.push_back(shape[k]);
    l.strides.push_back(strides[k]);
    if (shape[k] == 0) empty = true;
    else if (strides[k] < 0) lo += (shape[k] - 1) * strides[k];
    else hi += (shape[k] - 1) * strides[k];
  }
  if (empty) {
    lo = hi = 0;
  }
  l.offset = -lo;
  std::byte* base = data + lo * es;
  const std::size_t nbytes = static_cast<std::size_t>((hi - lo + 1) * es);
  return TensorView(std::make_shared<PyHostStorage>(base, nbytes, std::move(owner), read_only), dt, l);
}

// ---- tensors to NumPy / DLPack --------------------------------------------------------------

nb::dlpack::dtype dl_dtype(DType d) {
  switch (d) {
    case DType::F32: return nb::dtype<float>();
    case DType::F64: return nb::dtype<double>();
    case DType::I32: return nb::dtype<std::int32_t>();
    case DType::I64: return nb::dtype<std::int64_t>();
    case DType::Bool: return nb::dtype<bool>();
    case DType::C32: return nb::dtype<std::complex<float>>();
    case DType::C64: return nb::dtype<std::complex<double>>();
  }
  return nb::dtype<float>();
}

DType dtype_from_dl(nb::dlpack::dtype t, const char* op) {
  using C = nb::dlpack::dtype_code;
  const auto code = static_cast<C>(t.code);
  TENFERRO_CHECK(t.lanes == 1, unsupported, op, "x", "vector dtypes are not supported");
  if (code == C::Float && t.bits == 32) return DType::F32;
  if (code == C::Float && t.bits == 64) return DType::F64;
  if (code == C::Int && t.bits == 32) return DType::I32;
  if (code == C::Int && t.bits == 64) return DType::I64;
  if (code == C::Bool && t.bits == 8) return DType::Bool;
  if (code == C::Complex && t.bits == 64) return DType::C32;
  if (code == C::Complex && t.bits == 128) return DType::C64;
  TENFERRO_FAIL(unsupported, op, "x", "element type (code ", int(t.code), ", ", int(t.bits),
                " bits) is not one of float32 float64 int32 int64 bool complex64 complex128");
}

/// The host tensor holding t's elements: t itself on the host, else a download.
TensorView host_view(const TensorView& t) {
  Backend& be = backend_of(t, "download");
  if (be.is_host()) return t;
  return download(be, t);
}

template <class Framework> nb::ndarray<Framework> to_ndarray(const TensorView& t0) {
  TensorView t = host_view(t0);
  const std::size_t r = static_cast<std::size_t>(t.rank());
  std::vector<std::size_t> shape(r);
  std::vector<std::int64_t> strides(r);
  for (std::size_t k = 0; k < r; ++k) {
    shape[k] = static_cast<std::size_t>(t.shape()[k]);
    strides[k] = t.strides()[k];
  }
  auto* keep = new std::shared_ptr<Storage>(t.storage());
  nb::capsule owner(keep, [](void* p) noexcept { delete static_cast<std::shared_ptr<Storage>*>(p); });
  std::byte* base = t.storage()->host_data();
  std::byte* data = t.numel() > 0 ? base + t.offset() * static_cast<std::int64_t>(dtype_size(t.dtype())) : base;
  return nb::ndarray<Framework>(data, r, shape.data(), owner, strides.data(), dl_dtype(t.dtype()),
                                nb::device::cpu::value, 0);
}

// ---- Python values as tensors ---------------------------------------------------------------

/// The kind of a Python scalar: 0 bool, 1 int, 2 float, 3 complex; -1 if not a scalar.
int scalar_kind(nb::handle h) {
  if (PyBool_Check(h.ptr())) return 0;
  if (PyLong_Check(h.ptr())) return 1;
  if (PyFloat_Check(h.ptr())) return 2;
  if (PyComplex_Check(h.ptr())) return 3;
  return -1;
}
int dtype_kind(DType d) {
  if (d == DType::Bool) return 0;
  if (is_integer(d)) return 1;
  if (is_real_float(d)) return 2;
  return 3;
}

/// NumPy's result_type over tenferro's seven dtypes.
DType promote(DType a, DType b) {
  if (a == b) return a;
  const int ka = dtype_kind(a), kb = dtype_kind(b);
  if (ka == 0) return b;
  if (kb == 0) return a;
  if (ka == 1 && kb == 1) return DType::I64;
  if (ka == 1 || kb == 1) {  // integer with inexact: at least double precision
    const DType f = ka == 1 ? b : a;
    return is_complex(f) ? DType::C64 : DType::F64;
  }
  const bool dbl = a == DType::F64 || a == DType::C64 || b == DType::F64 || b == DType::C64;
  const bool cplx = is_complex(a) || is_complex(b);
  return cplx ? (dbl ? DType::C64 : DType::C32) : (dbl ? DType::F64 : DType::F32);
}

/// The dtype of tensor dtype `d` combined with a Python scalar of kind k (NumPy 2: the scalar
/// is weak, it only raises the kind).
DType promote_weak(DType d, int k) {
  const int kd = dtype_kind(d);
  if (k <= kd) return d;
  if (k == 1) return DType::I64;
  if (k == 2) return DType::F64;
  return d == DType::F32 ? DType::C32 : DType::C64;
}

/// The dtype two operands meet at (the eager binary ops, where, and expressions): NumPy's result_type with a
/// Python scalar (kind k >= 0) weak; two scalars take NumPy's default dtype of the higher kind.
DType meet_dtype(int ka, DType da, int kb, DType db) {
  if (ka >= 0 && kb >= 0) {
    const int k = std::max(ka, kb);
    return k == 3 ? DType::C64 : k == 2 ? DType::F64 : k == 1 ? DType::I64 : DType::Bool;
  }
  if (ka >= 0) return promote_weak(db, ka);
  if (kb >= 0) return promote_weak(da, kb);
  return promote(da, db);
}

Scalar scalar_value(nb::handle h, DType d) {
  const int k = scalar_kind(h);
  if (k == 3) {
    const auto c = nb::cast<std::complex<double>>(h);
    return Scalar::of_complex(d, c);
  }
  if (k == 2) return Scalar::of_complex(d, c64(nb::cast<double>(h), 0.0));
  const std::int64_t v = nb::cast<std::int64_t>(h);
  return is_integer(d) || d == DType::Bool ? Scalar::of_int(d, v) : Scalar::of_complex(d, c64(double(v), 0.0));
}

Tensor full_on(Backend& be, DType d, const Shape& shape, const Scalar& v) {
  Tensor t = be.allocate(d, shape);
  if (t.numel() > 0) be.fill(t, v);
  return t;
}

TensorView convert_to(Backend& be, const TensorView& x, DType d) {
  return x.dtype() == d ? x : TensorView(convert(be, x, d));
}

// Python-side helpers (tenferro/__init__.py): asarray for anything that is not a Tensor.
nb::handle g_asarray;

TensorView& as_tensor_ref(nb::handle h) { return nb::cast<TensorView&>(h); }

/// The operand h as a tensor on `be` (NumPy arrays and sequences through asarray).
TensorView coerce(nb::handle h, Backend& be) {
  if (nb::isinstance<TensorView>(h)) return as_tensor_ref(h);
  nb::object t = g_asarray(h, nb::arg("device") = PyDevice{&be});
  return nb::cast<TensorView>(t);
}

/// NumPy broadcasting of two shapes (trailing axes aligned); shape_mismatch naming `op`.
Shape broadcast_shape(const Shape& a, const Shape& b, const char* op) {
  if (a == b) return a;
  const std::int64_t ra = std::int64_t(a.size()), rb = std::int64_t(b.size()), r = std::max(ra, rb);
  Shape out(static_cast<std::size_t>(r), 1);
  for (std::int64_t k = 0; k < r; ++k) {
    const std::int64_t ea = k - (r - ra) >= 0 ? a[std::size_t(k - (r - ra))] : 1;
    const std::int64_t eb = k - (r - rb) >= 0 ? b[std::size_t(k - (r - rb))] : 1;
    TENFERRO_CHECK(ea == eb || ea == 1 || eb == 1, shape_mismatch, op, "rhs",
                   "operands could not be broadcast together: ", std::vector<long>(a.begin(), a.end()), " and ",
                   std::vector<long>(b.begin(), b.end()));
    out[static_cast<std::size_t>(k)] = ea == 1 ? eb : ea;
  }
  return out;
}

/// x as a view of `shape` (a broadcast of x's shape; trailing axes aligned).
TensorView broadcast_view(const TensorView& x, const Shape& shape) {
  if (x.shape() == shape) return x;
  Axes dims;
  for (std::int64_t k = 0; k < x.rank(); ++k) dims.push_back(k + (std::int64_t(shape.size()) - x.rank()));
  return x.broadcast_in_dim(shape, dims);
}

/// NumPy broadcasting: both operands as views of the common shape.
void broadcast_pair(TensorView& a, TensorView& b, const char* op) {
  if (a.shape() == b.shape()) return;
  const Shape out = broadcast_shape(a.shape(), b.shape(), op);
  a = broadcast_view(a, out);
  b = broadcast_view(b, out);
}

/// Operands `ah`, `bh` of an elementwise op (tensors, array-likes or Python scalars) as tensors
/// of `be` at the dtype they meet at (meet_dtype; `inexact`: bool and integer meet at float64,
/// as true division does); a Python scalar becomes a rank-0 tensor.
std::array<TensorView, 2> meet_operands(Backend& be, nb::handle ah, nb::handle bh, bool inexact = false) {
  const int ka = nb::isinstance<TensorView>(ah) ? -1 : scalar_kind(ah);
  const int kb = nb::isinstance<TensorView>(bh) ? -1 : scalar_kind(bh);
  TensorView a = ka >= 0 ? TensorView() : coerce(ah, be), b = kb >= 0 ? TensorView() : coerce(bh, be);
  DType d = meet_dtype(ka, a.defined() ? a.dtype() : DType::Bool, kb, b.defined() ? b.dtype() : DType::Bool);
  if (inexact && !is_inexact(d)) d = DType::F64;
  a = a.defined() ? convert_to(be, a, d) : full_on(be, d, {}, scalar_value(ah, d));
  b = b.defined() ? convert_to(be, b, d) : full_on(be, d, {}, scalar_value(bh, d));
  return {a, b};
}

// The module's op codes (tenferro/__init__.py's _ADD..., _NEG..., and the reductions) and
// their ops of ops.def.
enum class Bin { add, sub, mul, truediv, pow, maximum, minimum, rem, eq, ne, lt, le, gt, ge };
constexpr OpId kBinOps[] = {OpId::add, OpId::sub, OpId::mul, OpId::div, OpId::pow, OpId::maximum, OpId::minimum,
                            OpId::rem, OpId::compare, OpId::compare, OpId::compare, OpId::compare, OpId::compare,
                            OpId::compare};
constexpr CompareDir kBinDirs[] = {CompareDir::EQ, CompareDir::EQ, CompareDir::EQ, CompareDir::EQ, CompareDir::EQ,
                                   CompareDir::EQ, CompareDir::EQ, CompareDir::EQ, CompareDir::EQ, CompareDir::NE,
                                   CompareDir::LT, CompareDir::LE, CompareDir::GT, CompareDir::GE};
enum class Un { neg, abs, conj, sign, exp, log, sqrt, sin, cos, tanh, expm1, log1p };
constexpr OpId kUnOps[] = {OpId::neg, OpId::abs, OpId::conj, OpId::sign, OpId::exp, OpId::log,
                           OpId::sqrt, OpId::sin, OpId::cos, OpId::tanh, OpId::expm1, OpId::log1p};
enum class Red { sum, prod, max, min };
constexpr OpId kRedOps[] = {OpId::reduce_sum, OpId::reduce_prod, OpId::reduce_max, OpId::reduce_min};

// op_name() views a string literal generated from ops.def, so it is NUL-terminated.
const char* op_cname(OpId op) { return op_name(op).data(); }

TensorView binary(Bin op, nb::handle lhs, nb::handle rhs) {
  const char* name = op_cname(kBinOps[int(op)]);
  const bool lt = nb::isinstance<TensorView>(lhs), rt = nb::isinstance<TensorView>(rhs);
  Backend* bep = nullptr;
  if (lt) bep = &backend_of(as_tensor_ref(lhs), name);
  else if (rt) bep = &backend_of(as_tensor_ref(rhs), name);
  else bep = &cpu_backend();
  Backend& be = *bep;
  auto [a, b] = meet_operands(be, lhs, rhs, op == Bin::truediv);
  broadcast_pair(a, b, name);
  const TensorView in[] = {a, b};
  return elementwise(be, kBinOps[int(op)], in, kBinDirs[int(op)]);
}

TensorView unary(Un op, const TensorView& x0) {
  Backend& be = backend_of(x0, "unary");
  TensorView x = x0;
  const bool analytic = op >= Un::exp;
  if (analytic && !is_inexact(x.dtype())) x = convert(be, x, DType::F64);  // NumPy: ints -> float64
  if (op == Un::conj && !is_complex(x.dtype())) return x;
  const TensorView in[] = {x};
  return elementwise(be, kUnOps[int(op)], in);
}

/// Real or imaginary part of a complex tensor as a zero-copy view of its storage.
TensorView complex_part(const TensorView& x, bool imag) {
  if (!is_complex(x.dtype())) {
    if (!imag) return x;
    Backend& be = backend_of(x, "imag");
    return full_on(be, x.dtype(), x.shape(), Scalar::of_int(x.dtype(), 0));
  }
  Layout l = x.layout();
  for (auto& s : l.strides) s *= 2;
  l.offset = 2 * l.offset + (imag ? 1 : 0);
  return TensorView(x.storage(), real_dtype(x.dtype()), l);
}

std::int64_t norm_axis(std::int64_t a, std::int64_t rank, const char* op) {
  TENFERRO_CHECK(a >= -rank && a < rank, axis_out_of_bounds, op, "axis", "axis ", a, " is out of bounds for rank ", rank);
  return a < 0 ? a + rank : a;
}

Axes axes_arg(nb::handle axis, std::int64_t rank, const char* op) {
  Axes axes;
  if (axis.is_none()) {
    for (std::int64_t k = 0; k < rank; ++k) axes.push_back(k);
    return axes;
  }
  if (PyLong_Check(axis.ptr())) {
    axes.push_back(norm_axis(nb::cast<std::int64_t>(axis), rank, op));
    return axes;
  }
  for (nb::handle a : axis) axes.push_back(norm_axis(nb::cast<std::int64_t>(a), rank, op));
  std::sort(axes.begin(), axes.end());
  TENFERRO_CHECK(std::adjacent_find(axes.begin(), axes.end()) == axes.end(), invalid_argument, op, "axis",
                 "repeated axis");
  return axes;
}

Shape shape_arg(nb::handle shape) {
  Shape s;
  if (PyLong_Check(shape.ptr())) {
    s.push_back(nb::cast<std::int64_t>(shape));
    return s;
  }
  for (nb::handle e : shape) s.push_back(nb::cast<std::int64_t>(e));
  return s;
}

TensorView reduce_op(Red op, const TensorView& x0, nb::handle axis, bool keepdims) {
  const char* name = op_cname(kRedOps[int(op)]);
  Backend& be = backend_of(x0, name);
  TensorView x = x0;
  const Axes axes = axes_arg(axis, x.rank(), name);
  // NumPy sums and multiplies booleans and 32-bit integers in int64.
  if ((op == Red::sum || op == Red::prod) && (x.dtype() == DType::Bool || x.dtype() == DType::I32))
    x = convert(be, x, DType::I64);
  TensorView r;
  bool empty_axis = false;
  for (auto a : axes) empty_axis = empty_axis || x.dim(a) == 0;
  if (empty_axis) {
    // NumPy: the sum of nothing is 0, the product 1; max and min have no identity.
    TENFERRO_CHECK(op == Red::sum || op == Red::prod, invalid_argument, name, "axes",
                   "zero-size reduction has no identity: got shape ",
                   std::vector<long>(x.shape().begin(), x.shape().end()));
    Shape s;
    for (std::int64_t k = 0; k < x.rank(); ++k)
      if (std::find(axes.begin(), axes.end(), k) == axes.end()) s.push_back(x.dim(k));
    r = full_on(be, x.dtype(), s, Scalar::of_int(x.dtype(), op == Red::sum ? 0 : 1));
  } else if (axes.empty()) {
    r = x.dtype() == x0.dtype() ? TensorView(to_contiguous(be, x)) : x;
  } else {
    r = reduce(be, kRedOps[int(op)], x, axes);
  }
  if (keepdims) {
    Shape s = x.shape();
    for (auto a : axes) s[static_cast<std::size_t>(a)] = 1;
    r = r.reshape(s);  // compact result: inserting extent-1 axes is a view
  }
  return r;
}

/// NumPy's C-order reshape on the column-major core: reversing the axes turns C order into
/// column-major order, so reshape(x, s) = rev(colmajor_reshape(rev(x), rev(s))).
TensorView reshape_c(const TensorView& x, nb::handle shape_h) {
  Shape s = shape_arg(shape_h);
  std::int64_t known = 1, infer = -1;
  for (std::size_t k = 0; k < s.size(); ++k) {
    if (s[k] == -1) {
      TENFERRO_CHECK(infer < 0, invalid_argument, "reshape", "shape", "only one extent may be -1");
      infer = static_cast<std::int64_t>(k);
    } else {
      TENFERRO_CHECK(s[k] >= 0, invalid_argument, "reshape", "shape", "negative extent ", s[k]);
      known *= s[k];
    }
  }
  if (infer >= 0) {
    TENFERRO_CHECK(known > 0 && x.numel() % known == 0, shape_mismatch, "reshape", "shape",
                   "cannot reshape ", x.numel(), " elements with an inferred extent");
    s[static_cast<std::size_t>(infer)] = x.numel() / known;
  }
  auto rev_perm = [](std::int64_t r) {
    Axes p;
    for (std::int64_t k = r - 1; k >= 0; --k) p.push_back(k);
    return p;
  };
  const TensorView xr = x.transpose(rev_perm(x.rank()));
  Shape sr(s.rbegin(), s.rend());
  TensorView y;
  try {
    y = xr.reshape(sr);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::invalid_argument) throw;
    y = reshape_copy(backend_of(x, "reshape"), xr, sr);  // the layout needs a copy
  }
  return y.transpose(rev_perm(y.rank()));
}

TensorView transpose_view(const TensorView& x, nb::handle axes_h) {
  Axes perm;
  if (axes_h.is_none()) {
    for (std::int64_t k = x.rank() - 1; k >= 0; --k) perm.push_back(k);
  } else {
    for (nb::handle a : axes_h) perm.push_back(norm_axis(nb::cast<std::int64_t>(a), x.rank(), "transpose"));
  }
  return x.transpose(perm);
}

TensorView astype(const TensorView& x, nb::handle dtype, bool copy) {
  Backend& be = backend_of(x, "cast");
  const DType d = dtype_arg(dtype, "cast");
  if (d == x.dtype()) return copy ? TensorView(to_contiguous(be, x)) : x;
  return cast(be, x, d);
}

TensorView to_device(const TensorView& x, Backend& dst) {
  Backend& src = backend_of(x, "to");
  if (&src == &dst) return x;
  if (src.is_host()) return upload(dst, x);
  Tensor h = download(src, x);
  return dst.is_host() ? TensorView(h) : TensorView(upload(dst, h));
}

// ---- lazy expressions -----------------------------------------------------------------------
// tenferro.lazy(x) makes a Tensor an Expr; the operators and the elementwise functions applied
// to an Expr build a tree instead of running, and eval() runs the tree as one fusion plan
// (ops.hpp fused(): on a Vulkan device one generated kernel; on the CPU step by step). The
// rules are the eager functions' (NumPy promotion with weak Python scalars, broadcasting), so
// the result is the eager chain's, bit for bit. A plan has no conversion step: dtype
// conversions happen at the tensors, before the plan runs (a converted copy), and an op whose
// eager form converts the value of another op (true division or exp of an integer op, a float
// scalar meeting an integer op, the sum of an int32 op) is refused (unsupported). Broadcasting
// makes views of the tensors. eval() checks the tree (shapes, dtypes, axes) before it converts
// or runs anything, then fused() checks each step as the unfused op would; a reduction may only
// be the last op.

struct ExprNode {
  enum class Kind : std::uint8_t { tensor, array, number, unary, binary, select, reduce };
  Kind kind = Kind::tensor;
  TensorView tensor;   // tensor
  nb::object obj;      // array: an array-like (asarray at eval); number: a Python scalar; reduce: the axis
  int code = 0;        // unary: Un, binary: Bin, reduce: Red
  bool keepdims = false;
  std::vector<std::shared_ptr<const ExprNode>> args;
};

/// tenferro.Expr: an immutable node of an expression tree.
struct PyExpr {
  std::shared_ptr<const ExprNode> n;
};

bool is_expr(nb::handle h) { return nb::isinstance<PyExpr>(h); }

// Python's names of the codes, for repr.
const char* const kUnPy[] = {"negative", "abs", "conj", "sign", "exp", "log",
                             "sqrt", "sin", "cos", "tanh", "expm1", "log1p"};
const char* const kBinPy[] = {"add", "subtract", "multiply", "divide", "power", "maximum", "minimum", "fmod",
                              "equal", "not_equal", "less", "less_equal", "greater", "greater_equal"};
const char* const kRedPy[] = {"sum", "prod", "max", "min"};

/// An operand as a node: an Expr's own, else a leaf (a Tensor, a Python scalar or an array-like).
std::shared_ptr<const ExprNode> expr_operand(nb::handle h) {
  if (is_expr(h)) return nb::cast<const PyExpr&>(h).n;
  auto n = std::make_shared<ExprNode>();
  if (nb::isinstance<TensorView>(h)) {
    n->tensor = as_tensor_ref(h);
  } else {
    n->kind = scalar_kind(h) >= 0 ? ExprNode::Kind::number : ExprNode::Kind::array;
    n->obj = nb::borrow(h);
  }
  return n;
}

PyExpr expr_node(ExprNode::Kind kind, int code, std::initializer_list<nb::handle> args) {
  auto n = std::make_shared<ExprNode>();
  n->kind = kind;
  n->code = code;
  for (nb::handle a : args) n->args.push_back(expr_operand(a));
  return PyExpr{std::move(n)};
}

PyExpr expr_unary(Un op, const PyExpr& x) {
  auto n = std::make_shared<ExprNode>();
  n->kind = ExprNode::Kind::unary;
  n->code = int(op);
  n->args.push_back(x.n);
  return PyExpr{std::move(n)};
}

PyExpr expr_reduce(Red op, const PyExpr& x, nb::handle axis, bool keepdims) {
  auto n = std::make_shared<ExprNode>();
  n->kind = ExprNode::Kind::reduce;
  n->code = int(op);
  n->obj = nb::borrow(axis);
  n->keepdims = keepdims;
  n->args.push_back(x.n);
  return PyExpr{std::move(n)};
}

/// binary(), or the Expr node when an operand is an Expr (the operators and tenferro.add etc.).
nb::object binary_or_expr(Bin op, nb::handle a, nb::handle b) {
  if (is_expr(a) || is_expr(b)) return nb::cast(expr_node(ExprNode::Kind::binary, int(op), {a, b}));
  return nb::cast(binary(op, a, b), nb::rv_policy::move);
}

std::string expr_repr(const ExprNode& n) {
  switch (n.kind) {
    case ExprNode::Kind::tensor: {
      std::string s = std::string(numpy_name(n.tensor.dtype())) + "[";
      for (std::size_t k = 0; k < n.tensor.shape().size(); ++k)
        s += (k ? ", " : "") + std::to_string(n.tensor.shape()[k]);
      return s + "]";
    }
    case ExprNode::Kind::array:
    case ExprNode::Kind::number: return nb::cast<std::string>(nb::repr(n.obj));
    case ExprNode::Kind::reduce:
      return std::string(kRedPy[n.code]) + "(" + expr_repr(*n.args[0]) + ", axis=" +
             nb::cast<std::string>(nb::repr(n.obj)) + (n.keepdims ? ", keepdims=True)" : ")");
    default: break;
  }
  std::string s = n.kind == ExprNode::Kind::unary    ? kUnPy[n.code]
                  : n.kind == ExprNode::Kind::binary ? kBinPy[n.code]
                                                     : "where";
  s += "(";
  for (std::size_t k = 0; k < n.args.size(); ++k) s += (k ? ", " : "") + expr_repr(*n.args[k]);
  return s + ")";
}

/// One eval(): the tree's fusion plan, its inputs (materialized only after the whole tree is
/// checked) and the backend of its first tensor.
class ExprEval {
 public:
  explicit ExprEval(const ExprNode& root) : be_(backend_of_first(root)) {}

  TensorView run(const ExprNode& root) {
    if (root.kind != ExprNode::Kind::reduce) {
      const Val v = visit(root);
      if (v.kind != Val::Kind::step) return to_contiguous(be_, leaf_value(v));  // lazy(x) alone: a copy
      return run_plan(v.shape);
    }
    const Red red = Red(root.code);
    const OpId op = kRedOps[root.code];
    const char* name = op_cname(op);
    const Val v = visit(*root.args[0]);
    const Axes axes = axes_arg(root.obj, std::int64_t(v.shape.size()), name);
    bool empty_axis = false;
    for (auto a : axes) empty_axis = empty_axis || v.shape[std::size_t(a)] == 0;
    // A tensor alone, no axes or an empty one: the eager reduction of the elementwise value.
    if (v.kind != Val::Kind::step) return reduce_op(red, leaf_value(v), root.obj, root.keepdims);
    if (axes.empty() || empty_axis) return reduce_op(red, run_plan(v.shape), root.obj, root.keepdims);
    if ((red == Red::sum || red == Red::prod) && (v.d == DType::Bool || v.d == DType::I32))
      TENFERRO_FAIL(unsupported, name, "x", "x is the ", numpy_name(v.d), " value of an op of the expression, which ",
                    name, " takes as int64 (as NumPy does); an expression converts dtypes only at its tensors: "
                    "astype them first, or eval() the part");
    plan_.reduce = op;
    plan_.reduce_axes = axes;
    TensorView r = run_plan(v.shape);
    if (root.keepdims) {
      Shape s = v.shape;
      for (auto a : axes) s[static_cast<std::size_t>(a)] = 1;
      r = r.reshape(s);  // compact result: inserting extent-1 axes is a view
    }
    return r;
  }

 private:
  /// A node's value: a leaf (a tensor or a number, an input of the plan once its dtype is
  /// known) or a step of the plan.
  struct Val {
    enum class Kind : std::uint8_t { tensor, number, step } kind = Kind::step;
    const ExprNode* node = nullptr;  // tensor, number
    TensorView t;                    // tensor (an array-like's on the CPU until materialized)
    bool move = false;               // tensor: an array-like, moved to the plan's device
    int step = 0;                    // step
    DType d = DType::F64;            // tensor, step
    Shape shape;                     // tensor, step (a number: rank 0)
  };
  /// An input of the plan: a tensor converted to `d` (and broadcast), or a number's rank-0 tensor.
  struct Input {
    TensorView t;
    bool move = false;
    std::optional<Scalar> number;
    DType d;
  };

  static Backend& backend_of_first(const ExprNode& root) {
    const TensorView* t = first_tensor(root);
    return t ? backend_of(*t, "eval") : cpu_backend();
  }
  static const TensorView* first_tensor(const ExprNode& n) {
    if (n.kind == ExprNode::Kind::tensor) return &n.tensor;
    for (const auto& a : n.args)
      if (const TensorView* t = first_tensor(*a)) return t;
    return nullptr;
  }

  Val visit(const ExprNode& n) {
    if (auto it = done_.find(&n); it != done_.end()) return it->second;
    Val v;
    switch (n.kind) {
      case ExprNode::Kind::tensor:
      case ExprNode::Kind::array:
        v.kind = Val::Kind::tensor;
        v.node = &n;
        v.move = n.kind == ExprNode::Kind::array;
        v.t = v.move ? coerce(n.obj, cpu_backend()) : n.tensor;
        v.d = v.t.dtype();
        v.shape = v.t.shape();
        break;
      case ExprNode::Kind::number:
        v.kind = Val::Kind::number;
        v.node = &n;
        break;
      case ExprNode::Kind::reduce: {
        const char* name = op_cname(kRedOps[n.code]);
        TENFERRO_FAIL(invalid_argument, name, "x", name,
                      " is an operand of another op in the expression: a reduction must be its last op "
                      "(eval() it first)");
      }
      case ExprNode::Kind::unary: v = unary_step(Un(n.code), visit(*n.args[0])); break;
      case ExprNode::Kind::binary: v = binary_step(Bin(n.code), visit(*n.args[0]), visit(*n.args[1])); break;
      case ExprNode::Kind::select:
        v = select_step(visit(*n.args[0]), visit(*n.args[1]), visit(*n.args[2]));
        break;
    }
    done_[&n] = v;
    return v;
  }

  static int kind_of(const Val& v) { return v.kind == Val::Kind::number ? scalar_kind(v.node->obj) : -1; }

  /// The plan argument of v as dtype d: a leaf becomes an input (converted to d later); a step
  /// of another dtype would need a conversion inside the plan, which has none.
  int arg(const Val& v, DType d, const char* op, const char* arg_name) {
    if (v.kind == Val::Kind::step) {
      TENFERRO_CHECK(v.d == d, unsupported, op, arg_name, arg_name, " is the ", numpy_name(v.d),
                     " value of an op of the expression, which ", op, " takes as ", numpy_name(d),
                     " (eagerly a conversion); an expression converts dtypes only at its tensors: astype them "
                     "first, or eval() the part");
      return v.step;
    }
    const auto key = std::make_pair(v.node, d);
    if (auto it = args_.find(key); it != args_.end()) return it->second;
    Input in{v.t, v.move, std::nullopt, d};
    if (v.kind == Val::Kind::number) in.number = scalar_value(v.node->obj, d);
    inputs_.push_back(std::move(in));
    const int a = -static_cast<int>(inputs_.size());
    args_[key] = a;
    return a;
  }

  Val step(OpId op, std::vector<int> args, CompareDir dir, DType d, Shape shape) {
    plan_.steps.push_back(FusionStep{op, std::move(args), dir});
    Val v;
    v.step = static_cast<int>(plan_.steps.size()) - 1;
    v.d = d;
    v.shape = std::move(shape);
    return v;
  }

  /// unary()'s rules: integers to float64 for the analytic ops; conj of a real is the operand.
  Val unary_step(Un op, const Val& x) {
    if (op == Un::conj && !is_complex(x.d)) return x;
    const DType d = op >= Un::exp && !is_inexact(x.d) ? DType::F64 : x.d;
    const OpId id = kUnOps[int(op)];
    const int a = arg(x, d, op_cname(id), "x");
    return step(id, {a}, CompareDir::EQ, op == Un::abs && is_complex(d) ? real_dtype(d) : d, x.shape);
  }

  /// binary()'s rules: the operands meet at one dtype (true division of integers in float64),
  /// then broadcast.
  Val binary_step(Bin op, const Val& a, const Val& b) {
    const char* name = op_cname(kBinOps[int(op)]);
    DType d = meet_dtype(kind_of(a), a.d, kind_of(b), b.d);
    if (op == Bin::truediv && !is_inexact(d)) d = DType::F64;
    Shape shape = broadcast_shape(a.shape, b.shape, name);
    const int ia = arg(a, d, name, "lhs"), ib = arg(b, d, name, "rhs");
    const OpId id = kBinOps[int(op)];
    return step(id, {ia, ib}, kBinDirs[int(op)], id == OpId::compare ? DType::Bool : d, std::move(shape));
  }

  /// _where's rules: the condition as bool, the two values at one dtype, all broadcast.
  Val select_step(const Val& c, const Val& a, const Val& b) {
    const DType d = meet_dtype(kind_of(a), a.d, kind_of(b), b.d);
    Shape shape = broadcast_shape(a.shape, b.shape, "select");
    shape = broadcast_shape(c.shape, shape, "select");
    const int ic = arg(c, DType::Bool, "select", "pred");
    const int ia = arg(a, d, "select", "on_true"), ib = arg(b, d, "select", "on_false");
    return step(OpId::select, {ic, ia, ib}, CompareDir::EQ, d, std::move(shape));
  }

  /// A leaf alone (no step): its tensor on the plan's device.
  TensorView leaf_value(const Val& v) { return v.move ? to_device(v.t, be_) : v.t; }

  /// The inputs on the plan's device, converted and broadcast to `shape` (rank 0 stays rank 0),
  /// then the plan.
  TensorView run_plan(const Shape& shape) {
    std::vector<TensorView> ins;
    ins.reserve(inputs_.size());
    for (const Input& in : inputs_) {
      if (in.number) {
        ins.push_back(full_on(be_, in.d, {}, *in.number));
        continue;
      }
      TensorView t = convert_to(be_, in.move ? to_device(in.t, be_) : in.t, in.d);
      ins.push_back(t.rank() > 0 ? broadcast_view(t, shape) : t);
    }
    return fused(be_, plan_, ins);
  }

  Backend& be_;
  FusionPlan plan_;
  std::vector<Input> inputs_;
  std::map<std::pair<const ExprNode*, DType>, int> args_;  // (leaf, dtype) -> plan argument
  std::map<const ExprNode*, Val> done_;                     // a shared subexpression is one step
};

TensorView eval_expr(const PyExpr& e) { return ExprEval(*e.n).run(*e.n); }

// ---- contractions -------------------------------------------------------------------------

/// Promotes every operand to the common dtype (contractions need one dtype; integers and
/// booleans go to float64 as NumPy's BLAS path would not, but the core contracts inexact
/// dtypes only).
std::vector<TensorView> common_dtype(Backend& be, std::vector<TensorView> ops) {
  if (ops.empty()) return ops;
  DType d = ops[0].dtype();
  for (auto& t : ops) d = promote(d, t.dtype());
  for (auto& t : ops) t = convert_to(be, t, d);
  return ops;
}

TensorView tensordot(nb::handle a_h, nb::handle b_h, nb::handle axes) {
  Backend& be = nb::isinstance<TensorView>(a_h) ? backend_of(as_tensor_ref(a_h), "tensordot")
                                                 : backend_of(as_tensor_ref(b_h), "tensordot");
  auto ops = common_dtype(be, {coerce(a_h, be), coerce(b_h, be)});
  const TensorView& a = ops[0];
  const TensorView& b = ops[1];
  DotGeneralConfig cfg;
  if (PyLong_Check(axes.ptr())) {
    const std::int64_t n = nb::cast<std::int64_t>(axes);
    TENFERRO_CHECK(n >= 0 && n <= a.rank() && n <= b.rank(), invalid_argument, "tensordot", "axes",
                   "axes=", n, " exceeds an operand's rank");
    for (std::int64_t k = 0; k < n; ++k) {
      cfg.lhs_contracting_dims.push_back(a.rank() - n + k);
      cfg.rhs_contracting_dims.push_back(k);
    }
  } else {
    TENFERRO_CHECK(nb::len(axes) == 2, invalid_argument, "tensordot", "axes", "expected an int or a pair of axis lists");
    nb::handle la = axes[0], lb = axes[1];
    if (PyLong_Check(la.ptr())) {
      cfg.lhs_contracting_dims.push_back(norm_axis(nb::cast<std::int64_t>(la), a.rank(), "tensordot"));
    } else {
      for (nb::handle e : la) cfg.lhs_contracting_dims.push_back(norm_axis(nb::cast<std::int64_t>(e), a.rank(), "tensordot"));
    }
    if (PyLong_Check(lb.ptr())) {
      cfg.rhs_contracting_dims.push_back(norm_axis(nb::cast<std::int64_t>(lb), b.rank(), "tensordot"));
    } else {
      for (nb::handle e : lb) cfg.rhs_contracting_dims.push_back(norm_axis(nb::cast<std::int64_t>(e), b.rank(), "tensordot"));
    }
  }
  return dot_general(be, a, b, cfg);
}

/// opt_einsum / cotengra paths (tuples of operand positions; the contracted operands are
/// removed and the result appended) as the core's pairwise Path: a k-tuple becomes k - 1
/// pairwise steps.
Path path_arg(nb::handle path, std::size_t n) {
  Path out;
  std::size_t live = n;
  for (nb::handle step : path) {
    std::vector<int> pos;
    for (nb::handle p : step) pos.push_back(nb::cast<int>(p));
    TENFERRO_CHECK(pos.size() >= 2 || (pos.size() == 1 && live == 1), invalid_argument, "einsum", "path",
                   "a path step names at least two operands (a single operand only when it is the last)");
    if (pos.size() == 1) continue;
    for (int p : pos)
      TENFERRO_CHECK(p >= 0 && std::size_t(p) < live, invalid_argument, "einsum", "path", "position ", p,
                     " out of range: ", live, " operands");
    std::vector<int> sorted = pos;
    std::sort(sorted.begin(), sorted.end());
    TENFERRO_CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end(), invalid_argument, "einsum",
                   "path", "a path step names an operand twice");
    // Contract pos[0] with pos[1], then the result (appended last) with each further
    // position, shifted down past the operands already removed.
    out.emplace_back(pos[0], pos[1]);
    live -= 1;
    std::vector<int> removed = {pos[0], pos[1]};
    for (std::size_t k = 2; k < pos.size(); ++k) {
      const int p = pos[k];
      int q = p;
      for (int r : removed) q -= (p > r ? 1 : 0);
      out.emplace_back(q, static_cast<int>(live) - 1);
      removed.push_back(p);
      live -= 1;
    }
  }
  return out;
}

/// The path (opt_einsum / cotengra format) or the planner's method of einsum and
/// einsum_program.
EinsumOptions einsum_options(nb::handle path, const std::string& method, std::size_t n_operands) {
  EinsumOptions opts;
  if (!path.is_none()) {
    opts.path = path_arg(path, n_operands);
    opts.use_path = true;
  } else if (method == "optimal") {
    opts.plan.method = PathMethod::optimal;
  } else if (method == "greedy") {
    opts.plan.method = PathMethod::greedy;
  } else if (method == "random-greedy" || method == "random_greedy") {
    opts.plan.method = PathMethod::random_greedy;
  } else {
    TENFERRO_CHECK(method == "auto", invalid_argument, "einsum", "optimize", "unknown path method '", method,
                   "' (auto, optimal, greedy, random-greedy or a path)");
  }
  return opts;
}

/// The backend of the first tensor operand (the CPU for NumPy arrays and scalars only).
Backend& einsum_backend(const std::vector<nb::handle>& hs) {
  for (nb::handle h : hs)
    if (nb::isinstance<TensorView>(h)) return backend_of(as_tensor_ref(h), "einsum");
  return cpu_backend();
}

/// Every operand on `be`, promoted to the common dtype.
std::vector<TensorView> einsum_operands(const std::vector<nb::handle>& hs, Backend& be) {
  std::vector<TensorView> ops;
  for (nb::handle h : hs) ops.push_back(coerce(h, be));
  return common_dtype(be, std::move(ops));
}

TensorView einsum_py(const std::string& subscripts, nb::handle operands_h, nb::handle path,
                     const std::string& method) {
  std::vector<nb::handle> hs;
  for (nb::handle h : operands_h) hs.push_back(h);
  TENFERRO_CHECK(!hs.empty(), invalid_argument, "einsum", "operands", "no operands");
  Backend& be = einsum_backend(hs);
  const std::vector<TensorView> ops = einsum_operands(hs, be);
  const EinsumOptions opts = einsum_options(path, method, ops.size());
  nb::gil_scoped_release rel;
  return einsum(be, subscripts, ops, opts);
}

/// A planned einsum for fixed operand shapes (make_plan). Each device and dtype it is called
/// with gets its tenferro::EinsumProgram on first use (recorded on a Vulkan device), so later
/// calls do no parsing, planning, lowering or recording.
struct PlannedEinsum {
  std::shared_ptr<const EinsumPlan> plan;
  std::string subscripts;
  std::vector<Shape> shapes;
  struct Programs {
    std::mutex mutex;  // a program runs on one thread at a time (calls release the GIL)
    std::vector<std::unique_ptr<tenferro::EinsumProgram>> list;
  };
  std::shared_ptr<Programs> programs = std::make_shared<Programs>();

  TensorView run(nb::args operands) const {
    TENFERRO_CHECK(operands.size() == plan->spec.num_inputs(), invalid_argument, "einsum", "operands",
                   "the program takes ", plan->spec.num_inputs(), " operands, got ", operands.size());
    std::vector<nb::handle> hs;
    for (nb::handle h : operands) hs.push_back(h);
    Backend& be = einsum_backend(hs);
    const std::vector<TensorView> ops = einsum_operands(hs, be);
    nb::gil_scoped_release rel;
    std::lock_guard guard(programs->mutex);
    const DType d = ops[0].dtype();
    tenferro::EinsumProgram* prog = nullptr;
    for (const auto& p : programs->list)
      if (&p->backend() == &be && p->dtype() == d) prog = p.get();
    if (!prog) {
      EinsumOptions opts;
      opts.path = plan->path;
      opts.use_path = true;
      for (std::size_t i = 1; i < ops.size(); ++i)  // the program's own dtype check names the program
        TENFERRO_CHECK(ops[i].dtype() == d, dtype_mismatch, "einsum", "operands", "operand ", i, " has dtype ",
                       dtype_name(ops[i].dtype()), " but operand 0 has ", dtype_name(d));
      programs->list.push_back(std::make_unique<tenferro::EinsumProgram>(be, subscripts, shapes, d, opts));
      prog = programs->list.back().get();
    }
    return (*prog)(ops);
  }
};

PlannedEinsum einsum_program(const std::string& subscripts, nb::handle shapes_h, nb::handle path,
                             const std::string& method) {
  std::vector<Shape> shapes;
  for (nb::handle s : shapes_h) shapes.push_back(shape_arg(s));
  const EinsumOptions opts = einsum_options(path, method, shapes.size());
  return PlannedEinsum{make_plan(subscripts, shapes, opts), subscripts, shapes};
}

/// einsum sliced to a memory limit (tenferro/slicing.hpp) over `devices` (None: the operands'
/// device), taking the slices k with k % stride == first (a process's share): the result, or
/// with `info` a (result, slicing dict) pair.
nb::object einsum_sliced_py(const std::string& subscripts, nb::handle operands_h, nb::handle path,
                            const std::string& method, std::uint64_t memory_limit, nb::handle devices_h,
                            std::int64_t first, std::int64_t stride) {
  std::vector<nb::handle> hs;
  for (nb::handle h : operands_h) hs.push_back(h);
  TENFERRO_CHECK(!hs.empty(), invalid_argument, "einsum", "operands", "no operands");
  std::vector<Backend*> devs;
  if (!devices_h.is_none())
    for (nb::handle d : devices_h) devs.push_back(&device_arg(d));
  if (devs.empty()) devs.push_back(&einsum_backend(hs));
  const std::vector<TensorView> ops = einsum_operands(hs, *devs[0]);
  std::vector<Shape> shapes;
  for (const TensorView& t : ops) shapes.push_back(t.shape());
  const auto plan = make_plan(subscripts, shapes, einsum_options(path, method, ops.size()));
  const SlicePlan sp = plan_slices(plan->spec, plan->path, ops[0].dtype(), memory_limit);
  SliceRun run;
  run.first = first;
  run.stride = stride;
  Tensor r;
  {
    nb::gil_scoped_release rel;
    r = execute_sliced(devs, sp, ops, run);
  }
  nb::dict info;
  nb::list labels, chunks;
  for (std::size_t k = 0; k < sp.labels.size(); ++k) {
    labels.append(sp.labels[k]);
    chunks.append(sp.chunks[k]);
  }
  info["slices"] = sp.slices;
  info["labels"] = labels;
  info["chunks"] = chunks;
  info["overhead"] = sp.overhead;
  info["slice_bytes"] = sp.slice_bytes;
  info["unsliced_bytes"] = sp.unsliced_bytes;
  info["memory_limit"] = sp.memory_limit;
  return nb::make_tuple(TensorView(r), info);
}

// ---- sessions -----------------------------------------------------------------------------

thread_local std::vector<Backend*> t_sessions;

struct Session {
  Backend* be;
  bool open = false;
};

// ---- errors ------------------------------------------------------------------------------

nb::object g_error_cls;

}  // namespace

NB_MODULE(_tenferro, m) {
  m.doc() = "tenferro: column-major strided tensors, einsum, CPU and Vulkan backends (docs/python.md)";

  {
    PyObject* cls = PyErr_NewExceptionWithDoc(
        "tenferro.Error",
        "A tenferro error: .kind (the ErrorKind name, e.g. 'shape_mismatch'), .op (the op at fault) "
        "and .argument (the argument at fault, '' when none).",
        PyExc_RuntimeError, nullptr);
    g_error_cls = nb::steal(cls);
    m.attr("Error") = g_error_cls;
  }
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const Error& e) {
      nb::object inst = g_error_cls(nb::str(e.what()));
      inst.attr("kind") = nb::str(std::string(error_kind_name(e.kind())).c_str());
      inst.attr("op") = nb::str(e.op().c_str());
      inst.attr("argument") = nb::str(e.arg().c_str());
      PyErr_SetObject(g_error_cls.ptr(), inst.ptr());
    }
  });

  {
    nb::module_ np = nb::module_::import_("numpy");
    g_np_dtype_fn = nb::object(np.attr("dtype")).release();
    for (DType d : kAllDTypes) g_np_dtypes[int(d)] = g_np_dtype_fn(numpy_name(d)).release();
  }

  nb::class_<PyDevice>(m, "Device", "A backend device: 'cpu' or 'vulkan:N'.")
      .def_prop_ro("name", &PyDevice::name)
      .def_prop_ro("kind", [](const PyDevice& d) { return d.be->is_host() ? std::string("cpu") : d.be->name(); })
      .def_prop_ro("description", [](const PyDevice& d) { return d.be->device_name(); })
      .def("__repr__", [](const PyDevice& d) { return "device('" + d.name() + "')"; })
      .def("__str__", &PyDevice::name)
      .def("__eq__", [](const PyDevice& a, nb::handle b) {
        if (nb::isinstance<PyDevice>(b)) return a.be == nb::cast<PyDevice&>(b).be;
        if (nb::isinstance<nb::str>(b)) return a.name() == nb::cast<std::string>(b) ||
                                               (!a.be->is_host() && nb::cast<std::string>(b) == a.be->name() &&
                                                &get_backend(a.be->name()) == a.be);
        return false;
      })
      .def("__hash__", [](const PyDevice& d) { return std::hash<const void*>()(d.be); })
      .def("synchronize", [](const PyDevice& d) {
        nb::gil_scoped_release rel;
        d.be->synchronize();
      });

  m.def("device", [](nb::handle spec) { return PyDevice{&device_arg(spec)}; }, nb::arg("spec").none() = nb::none(),
        "device('cpu'), device('vulkan'), device('vulkan:0'); device() or device(None) is the default device.");
  m.def("default_device", []() { return PyDevice{&default_backend()}; });
  m.def("vulkan_available", []() { return vulkan_available(); });
  m.def("cpu_threads", []() { return cpu_threads(); }, "Threads of the CPU backend's kernels.");
  m.def("set_cpu_threads", [](int n) { set_cpu_threads(n); }, nb::arg("n"),
        "Sets the CPU backend's thread count (1 to 1024; 0 restores the default).");
  m.def("_list_devices", []() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const DeviceInfo& d : list_devices())
      out.emplace_back(d.backend == "cpu" ? std::string("cpu") : d.backend + ":" + std::to_string(d.ordinal), d.name);
    return out;
  });

  nb::class_<TensorView> T(m, "Tensor",
                           "A tenferro tensor (a strided view over backend storage). Axis k is NumPy's axis k.");
  T.def_prop_ro("shape", [](const TensorView& t) {
     nb::list l;
     for (auto e : t.shape()) l.append(nb::int_(e));
     return nb::tuple(l);
   })
      .def_prop_ro("ndim", [](const TensorView& t) { return t.rank(); })
      .def_prop_ro("size", [](const TensorView& t) { return t.numel(); })
      .def_prop_ro("dtype", [](const TensorView& t) { return nb::borrow(g_np_dtypes[int(t.dtype())]); })
      .def_prop_ro("itemsize", [](const TensorView& t) { return dtype_size(t.dtype()); })
      .def_prop_ro("strides_elements", [](const TensorView& t) {
        nb::list l;
        for (auto e : t.strides()) l.append(nb::int_(e));
        return nb::tuple(l);
      })
      .def_prop_ro("device", [](const TensorView& t) { return PyDevice{&backend_of(t, "device")}; })
      .def_prop_ro("T", [](const TensorView& t) { return transpose_view(t, nb::none()); })
      .def_prop_ro("real", [](const TensorView& t) { return complex_part(t, false); })
      .def_prop_ro("imag", [](const TensorView& t) { return complex_part(t, true); })
      .def("_host_ptr", [](const TensorView& t) {
        std::byte* p = t.storage()->host_data();
        return p ? reinterpret_cast<std::uintptr_t>(p) + std::uintptr_t(t.offset() * std::int64_t(dtype_size(t.dtype()))) : 0;
      })
      .def("__array__", [](const TensorView& t, nb::handle dtype, nb::handle copy) {
        nb::object a = nb::cast(to_ndarray<nb::numpy>(t));
        if (!dtype.is_none()) a = a.attr("astype")(dtype);
        else if (!copy.is_none() && nb::cast<bool>(copy)) a = a.attr("copy")();
        return a;
      }, nb::arg("dtype").none() = nb::none(), nb::arg("copy").none() = nb::none())
      .def("numpy", [](const TensorView& t) { return to_ndarray<nb::numpy>(t); })
      .def("__dlpack__", [](const TensorView& t, nb::kwargs kw) {
        Backend& be = backend_of(t, "__dlpack__");
        TENFERRO_CHECK(be.is_host(), unsupported, "__dlpack__", "device",
                       "DLPack export is for CPU tensors; call .to('cpu') first");
        nb::object a = nb::cast(to_ndarray<nb::array_api>(t));
        return a.attr("__dlpack__")(**kw);
      })
      .def("__dlpack_device__", [](const TensorView& t) {
        Backend& be = backend_of(t, "__dlpack_device__");
        TENFERRO_CHECK(be.is_host(), unsupported, "__dlpack_device__", "device",
                       "DLPack export is for CPU tensors; call .to('cpu') first");
        return nb::make_tuple(1, 0);
      })
      .def("to", [](const TensorView& t, nb::handle dev) {
        Backend& dst = device_arg(dev);
        nb::gil_scoped_release rel;
        return to_device(t, dst);
      }, nb::arg("device").none())
      .def("astype", &astype, nb::arg("dtype"), nb::arg("copy") = true)
      .def("copy", [](const TensorView& t) { return TensorView(to_contiguous(backend_of(t, "copy"), t)); })
      .def("conj", [](const TensorView& t) { return unary(Un::conj, t); })
      .def("reshape", [](const TensorView& t, nb::args shape) {
        if (shape.size() == 1) return reshape_c(t, shape[0]);
        return reshape_c(t, shape);
      })
      .def("transpose", [](const TensorView& t, nb::args axes) {
        if (axes.size() == 0) return transpose_view(t, nb::none());
        if (axes.size() == 1 && !PyLong_Check(axes[0].ptr())) return transpose_view(t, axes[0]);
        return transpose_view(t, axes);
      })
      .def("sum", [](const TensorView& t, nb::handle axis, bool kd) { return reduce_op(Red::sum, t, axis, kd); },
           nb::arg("axis").none() = nb::none(), nb::arg("keepdims") = false)
      .def("prod", [](const TensorView& t, nb::handle axis, bool kd) { return reduce_op(Red::prod, t, axis, kd); },
           nb::arg("axis").none() = nb::none(), nb::arg("keepdims") = false)
      .def("max", [](const TensorView& t, nb::handle axis, bool kd) { return reduce_op(Red::max, t, axis, kd); },
           nb::arg("axis").none() = nb::none(), nb::arg("keepdims") = false)
      .def("min", [](const TensorView& t, nb::handle axis, bool kd) { return reduce_op(Red::min, t, axis, kd); },
           nb::arg("axis").none() = nb::none(), nb::arg("keepdims") = false)
      .def("__neg__", [](const TensorView& t) { return unary(Un::neg, t); })
      .def("__pos__", [](const TensorView& t) { return t; })
      .def("__abs__", [](const TensorView& t) { return unary(Un::abs, t); })
      .def("__len__", [](const TensorView& t) {
        TENFERRO_CHECK(t.rank() > 0, invalid_argument, "len", "x", "len() of a rank-0 tensor");
        return t.dim(0);
      });
#define TF_BIN(py, rpy, op)                                                                          \
  T.def(py, [](nb::handle a, nb::handle b) { return binary_or_expr(op, a, b); }, nb::is_operator());  \
  T.def(rpy, [](nb::handle a, nb::handle b) { return binary_or_expr(op, b, a); }, nb::is_operator());
  TF_BIN("__add__", "__radd__", Bin::add)
  TF_BIN("__sub__", "__rsub__", Bin::sub)
  TF_BIN("__mul__", "__rmul__", Bin::mul)
  TF_BIN("__truediv__", "__rtruediv__", Bin::truediv)
  TF_BIN("__pow__", "__rpow__", Bin::pow)
  TF_BIN("__mod__", "__rmod__", Bin::rem)
#undef TF_BIN
  T.def("__eq__", [](nb::handle a, nb::handle b) { return binary_or_expr(Bin::eq, a, b); }, nb::is_operator());
  T.def("__ne__", [](nb::handle a, nb::handle b) { return binary_or_expr(Bin::ne, a, b); }, nb::is_operator());
  T.def("__lt__", [](nb::handle a, nb::handle b) { return binary_or_expr(Bin::lt, a, b); }, nb::is_operator());
  T.def("__le__", [](nb::handle a, nb::handle b) { return binary_or_expr(Bin::le, a, b); }, nb::is_operator());
  T.def("__gt__", [](nb::handle a, nb::handle b) { return binary_or_expr(Bin::gt, a, b); }, nb::is_operator());
  T.def("__ge__", [](nb::handle a, nb::handle b) { return binary_or_expr(Bin::ge, a, b); }, nb::is_operator());
  T.attr("__hash__") = nb::none();
  T.attr("__array_ufunc__") = nb::none();  // NumPy defers `ndarray op Tensor` to the Tensor

  // tenferro.Expr (tenferro/__init__.py lazy, eval; docs/python.md "Fused expressions").
  nb::class_<PyExpr> E(m, "Expr",
                       "A lazy elementwise expression (tenferro.lazy): ops on it build the expression, eval() runs it "
                       "as one fusion plan (one kernel on a GPU) and returns a Tensor.");
  E.def("eval", &eval_expr, "Runs the expression as one fusion plan: a new Tensor on its tensors' device.")
      .def("__repr__", [](const PyExpr& e) { return "tenferro.Expr(" + expr_repr(*e.n) + ")"; })
      .def("__bool__", [](const PyExpr&) -> bool {
        throw nb::type_error("an Expr has no truth value: eval() it first");
      })
      .def("conj", [](const PyExpr& x) { return expr_unary(Un::conj, x); })
      .def("__neg__", [](const PyExpr& x) { return expr_unary(Un::neg, x); })
      .def("__pos__", [](const PyExpr& x) { return x; })
      .def("__abs__", [](const PyExpr& x) { return expr_unary(Un::abs, x); });
  static constexpr const char* kRedMethods[] = {"sum", "prod", "max", "min"};
  for (int r = 0; r < 4; ++r)
    E.def(kRedMethods[r], [r](const PyExpr& x, nb::handle axis, bool kd) { return expr_reduce(Red(r), x, axis, kd); },
          nb::arg("axis").none() = nb::none(), nb::arg("keepdims") = false);
  // The operators and their reflections; Python reflects the comparisons itself (3 < e runs e > 3).
  static constexpr struct {
    const char* py;
    const char* rpy;
    Bin op;
  } kExprOperators[] = {{"__add__", "__radd__", Bin::add},         {"__sub__", "__rsub__", Bin::sub},
                        {"__mul__", "__rmul__", Bin::mul},         {"__truediv__", "__rtruediv__", Bin::truediv},
                        {"__pow__", "__rpow__", Bin::pow},         {"__eq__", nullptr, Bin::eq},
                        {"__ne__", nullptr, Bin::ne},              {"__lt__", nullptr, Bin::lt},
                        {"__le__", nullptr, Bin::le},              {"__gt__", nullptr, Bin::gt},
                        {"__ge__", nullptr, Bin::ge}};
  for (const auto& o : kExprOperators) {
    const int op = int(o.op);
    E.def(o.py, [op](nb::handle a, nb::handle b) { return expr_node(ExprNode::Kind::binary, op, {a, b}); },
          nb::is_operator());
    if (o.rpy)
      E.def(o.rpy, [op](nb::handle a, nb::handle b) { return expr_node(ExprNode::Kind::binary, op, {b, a}); },
            nb::is_operator());
  }
  E.attr("__hash__") = nb::none();
  E.attr("__array_ufunc__") = nb::none();  // NumPy defers `ndarray op Expr` to the Expr
  m.def("_lazy", [](const TensorView& x) {
    auto n = std::make_shared<ExprNode>();
    n->tensor = x;
    return PyExpr{std::move(n)};
  });
  m.def("_expr_where", [](nb::handle c, nb::handle a, nb::handle b) {
    return expr_node(ExprNode::Kind::select, 0, {c, a, b});
  });

  // Module functions with NumPy's names.
  m.def("_set_asarray", [](nb::object f) { g_asarray = f.release(); });
  m.def("_wrap_host", [](std::uintptr_t data, const std::string& dtype, std::vector<std::int64_t> shape,
                         std::vector<std::int64_t> strides, nb::object owner, bool read_only) {
    return wrap_host(reinterpret_cast<std::byte*>(data), dtype_from_name(dtype, "asarray"), shape, strides,
                     std::move(owner), read_only);
  });
  m.def("_from_dlpack", [](nb::ndarray<nb::ro, nb::device::cpu> a) {
    const DType d = dtype_from_dl(a.dtype(), "from_dlpack");
    std::vector<std::int64_t> shape(a.ndim()), strides(a.ndim());
    for (std::size_t k = 0; k < a.ndim(); ++k) {
      shape[k] = static_cast<std::int64_t>(a.shape(k));
      strides[k] = a.stride(k);
    }
    auto* data = reinterpret_cast<std::byte*>(const_cast<void*>(a.data()));
    return wrap_host(data, d, shape, strides, nb::cast(a));
  });
  m.def("to_device", [](const TensorView& t, nb::handle dev) {
    Backend& dst = device_arg(dev);
    return to_device(t, dst);
  }, nb::arg("x"), nb::arg("device").none());
  m.def("_full", [](nb::handle shape, nb::handle value, nb::handle dtype, nb::handle dev) {
    Backend& be = device_arg(dev);
    const DType d = dtype_arg(dtype, "full");
    return TensorView(full_on(be, d, shape_arg(shape), scalar_value(value, d)));
  }, nb::arg("shape"), nb::arg("value"), nb::arg("dtype"), nb::arg("device").none());
  m.def("_unary", [](int op, const TensorView& x) { return unary(Un(op), x); });
  m.def("_unary", [](int op, const PyExpr& x) { return expr_unary(Un(op), x); });
  m.def("_binary", [](int op, nb::handle a, nb::handle b) { return binary_or_expr(Bin(op), a, b); });
  m.def("_reduce", [](int op, const TensorView& x, nb::handle axis, bool kd) { return reduce_op(Red(op), x, axis, kd); },
        nb::arg("op"), nb::arg("x"), nb::arg("axis").none(), nb::arg("keepdims"));
  m.def("_reduce", [](int op, const PyExpr& x, nb::handle axis, bool kd) { return expr_reduce(Red(op), x, axis, kd); },
        nb::arg("op"), nb::arg("x"), nb::arg("axis").none(), nb::arg("keepdims"));
  m.def("_reshape", &reshape_c);
  m.def("_transpose", &transpose_view, nb::arg("x"), nb::arg("axes").none());
  m.def("_complex_part", &complex_part);
  m.def("_tensordot", &tensordot);
  m.def("_einsum", [](const std::string& s, nb::handle ops, nb::handle path, const std::string& method) {
    return einsum_py(s, ops, path, method);
  }, nb::arg("subscripts"), nb::arg("operands"), nb::arg("path").none(), nb::arg("method"));
  m.def("_einsum_sliced", &einsum_sliced_py, nb::arg("subscripts"), nb::arg("operands"), nb::arg("path").none(),
        nb::arg("method"), nb::arg("memory_limit"), nb::arg("devices").none(), nb::arg("first"), nb::arg("stride"));
  m.def("_dtype_check", [](nb::handle dtype) { return nb::borrow(g_np_dtypes[int(dtype_arg(dtype, "dtype"))]); });
  m.def("_broadcast_to", [](const TensorView& x, nb::handle shape) {
    const Shape s = shape_arg(shape);
    TENFERRO_CHECK(static_cast<std::int64_t>(s.size()) >= x.rank(), rank_mismatch, "broadcast_to", "shape",
                   "target rank ", s.size(), " is below the operand's ", x.rank());
    Axes dims;
    for (std::int64_t k = 0; k < x.rank(); ++k) dims.push_back(k + (std::int64_t(s.size()) - x.rank()));
    return x.broadcast_in_dim(s, dims);
  });
  m.def("_slice", [](const TensorView& x, std::vector<std::int64_t> starts, std::vector<std::int64_t> limits,
                     std::vector<std::int64_t> steps) {
    return x.slice(Shape(starts.begin(), starts.end()), Shape(limits.begin(), limits.end()),
                   Shape(steps.begin(), steps.end()));
  });
  // x[key] = value (tenferro/__init__.py _setitem): value (already of dst's shape) moved to
  // dst's device, cast to its dtype (_setitem allows only NumPy's same_kind casts), read first
  // when it shares dst's storage, then copied in.
  m.def("_assign", [](const TensorView& dst, const TensorView& value) {
    Backend& be = backend_of(dst, "setitem");
    const auto* wrapped = dynamic_cast<const PyHostStorage*>(dst.storage().get());
    TENFERRO_CHECK(!wrapped || !wrapped->read_only(), invalid_argument, "setitem", "x",
                   "the tensor wraps a read-only NumPy array (copy it: asarray(a, copy=True))");
    nb::gil_scoped_release rel;
    TensorView src = value.domain() == be.domain() ? value : TensorView(to_device(value, be));
    if (src.dtype() != dst.dtype()) src = cast(be, src, dst.dtype());  // a kind-preserving cast (checked in Python)
    if (src.storage() == dst.storage()) src = to_contiguous(be, src);
    copy_into(be, src, dst);
  });
  m.def("_concatenate", [](std::vector<TensorView> xs, std::int64_t axis) {
    TENFERRO_CHECK(!xs.empty(), invalid_argument, "concatenate", "inputs", "no tensors");
    Backend& be = backend_of(xs[0], "concatenate");
    xs = common_dtype(be, xs);
    return TensorView(concatenate(be, xs, norm_axis(axis, xs[0].rank(), "concatenate")));
  });
  m.def("_diagonal", [](const TensorView& x, std::int64_t a, std::int64_t b) { return x.diagonal(a, b); });
  m.def("_where", [](const TensorView& c, nb::handle a_h, nb::handle b_h) {
    Backend& be = backend_of(c, "select");
    auto [a, b] = meet_operands(be, a_h, b_h);
    TensorView cc = convert_to(be, c, DType::Bool);
    broadcast_pair(a, b, "select");
    broadcast_pair(cc, a, "select");
    broadcast_pair(cc, b, "select");
    return TensorView(select(be, cc, a, b));
  });

  nb::class_<PlannedEinsum>(m, "EinsumProgram",
                            "An einsum planned for fixed shapes (tenferro.einsum_program); call it with the operands. "
                            "Each device and dtype it runs on gets its recorded program on first use.")
      .def("__call__", &PlannedEinsum::run)
      .def_prop_ro("path", [](const PlannedEinsum& p) {
        nb::list l;
        for (auto [i, j] : p.plan->path) l.append(nb::make_tuple(i, j));
        return l;
      })
      .def_prop_ro("method", [](const PlannedEinsum& p) { return p.plan->method; })
      .def_prop_ro("flops", [](const PlannedEinsum& p) { return p.plan->cost.flops; })
      .def_prop_ro("largest_intermediate", [](const PlannedEinsum& p) { return p.plan->cost.largest_intermediate; })
      .def_prop_ro("subscripts", [](const PlannedEinsum& p) { return spec_to_string(p.plan->spec); });
  m.def("_einsum_program", &einsum_program, nb::arg("subscripts"), nb::arg("shapes"), nb::arg("path").none(),
        nb::arg("method"));

  nb::class_<Session>(m, "Session", "One execution session of a device (a context manager).")
      .def("__enter__", [](Session& s) {
        TENFERRO_CHECK(std::find(t_sessions.begin(), t_sessions.end(), s.be) == t_sessions.end(), runtime_state,
                       "with_session", "", "a session of backend ", s.be->name(),
                       " is already open on this thread (sessions do not nest)");
        t_sessions.push_back(s.be);
        s.open = true;
        try {
          s.be->begin_session();
        } catch (...) {
          t_sessions.erase(std::find(t_sessions.begin(), t_sessions.end(), s.be));
          s.open = false;
          throw;
        }
        return PyDevice{s.be};
      })
      .def("__exit__", [](Session& s, nb::handle exc_type, nb::handle, nb::handle) {
        if (!s.open) return false;
        s.open = false;
        t_sessions.erase(std::find(t_sessions.begin(), t_sessions.end(), s.be));
        if (exc_type.is_none()) {
          s.be->end_session();
        } else {
          try {
            s.be->end_session();
          } catch (const Error&) {  // the body's error is the one raised
          }
        }
        return false;
      }, nb::arg("exc_type").none(), nb::arg("exc").none(), nb::arg("tb").none());
  m.def("session", [](nb::handle dev) { return Session{&device_arg(dev), false}; },
        nb::arg("device").none() = nb::none(),
        "with tenferro.session(device): ... runs the body as one execution session of the device "
        "(one recording scope on a GPU); sessions of one device do not nest on a thread.");

  // Timing of the same small ops from C++ (bench/python_overhead.py compares against it).
  m.def("_bench_cpp", [](const std::string& what, const TensorView& a, const TensorView& b, int iters) {
    Backend& be = backend_of(a, "bench");
    nb::gil_scoped_release rel;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; ++i) {
      if (what == "add") (void)add(be, a, b);
      else if (what == "mul") (void)mul(be, a, b);
      else if (what == "exp") (void)exp(be, a);
      else if (what == "sum") (void)reduce_sum(be, a, Axes{0});
      else if (what == "tensordot") {
        DotGeneralConfig cfg;
        cfg.lhs_contracting_dims = {1};
        cfg.rhs_contracting_dims = {0};
        (void)dot_general(be, a, b, cfg);
      }
    }
    be.synchronize();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / iters;
  });
}
