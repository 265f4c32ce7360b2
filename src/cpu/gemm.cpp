// CPU GEMM: batched C[m,n,b] = alpha * sum_k op(A)[m,k,b] op(B)[k,n,b] + beta * C[m,n,b]
// through OpenBLAS (column-major cblas_{s,d,c,z}gemm), single-threaded calls on the pool's
// threads (pool.hpp).
//
// Each matrix is read in place when BLAS can take it: a unit stride on one axis and a
// leading dimension >= the other extent (extent-1 axes take any stride). A with unit row
// stride is NoTrans (ConjNoTrans, an OpenBLAS extension, when conjugated); unit column stride
// is Trans / ConjTrans. C must be column-major for BLAS; a row-major C is handled as
// C^T = B^T A^T. Anything else (negative or zero strides, both strides > 1, leading dimension
// too small or past int range) is packed into a compact column-major scratch first, with
// conjugation applied during the pack. Tiny products skip BLAS and run a direct strided loop.
//
// Threads: a product of more than kBigWork multiply-adds per batch is split into tiles of C
// (at least kMinTile rows and columns, about 4 per thread, claimed dynamically), one BLAS call
// per tile; a C too small for two tiles is split along K instead when K >= 2 kSplitK (partial
// products summed in a fixed order); with at least as many batches as threads, whole batches
// go to threads instead.
// Smaller products run one call (or direct loop) per batch, batches spread over the threads.
// Measured on 2 cores (f64, n^3 per batch): the direct loop beats a BLAS call up to n = 8
// (2-3x at n <= 6); batch-parallel calls beat sequential ones 1.5-2x for n = 16..64. Tiles
// on single-threaded calls match OpenBLAS's own threads at n = 1024 and 2048 and beat them
// 1.6x at n = 256 and 512 (OpenBLAS runs those on one thread).
// K == 0 gives C = beta * C (0 when beta == 0); beta == 0 never reads C.
#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <climits>
#include <complex>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "cpu_backend.hpp"
#include "strided.hpp"

namespace tenferro::cpu {
namespace {

using I = std::int64_t;

/// Above this many multiply-adds per batch, a product is split into tiles over the threads.
constexpr I kBigWork = I{64} * 64 * 64;
/// The least rows and columns of a tile.
constexpr I kMinTile = 64;
/// The least K of one part when a product too narrow for tiles is split along K.
constexpr I kSplitK = 1024;
/// At or below this many multiply-adds per batch, a direct loop beats a BLAS call.
constexpr I kTinyWork = 512;

template <class T> constexpr bool kComplex = !std::is_floating_point_v<T>;

template <class T> T conj_if(T x, bool c) {
  if constexpr (kComplex<T>) {
    return c ? std::conj(x) : x;
  } else {
    (void)c;
    return x;
  }
}

/// One matrix of one batch: element (r, c) at p[r * rs + c * cs].
template <class T> struct Mat {
  T* p;
  I rows, cols, rs, cs;
  Mat transposed() const { return Mat{p, cols, rows, cs, rs}; }
  T& at(I r, I c) const { return p[r * rs + c * cs]; }
};

enum class Form { col, row, pack };

/// How BLAS can read a matrix: column-major (unit row stride, ld = column stride), row-major
/// (unit column stride, ld = row stride) or not at all. Extent-1 axes take any stride.
template <class T> Form classify(const Mat<T>& m, I& ld) {
  const I rows = std::max<I>(m.rows, 1), cols = std::max<I>(m.cols, 1);
  {
    const I rs = m.rows <= 1 ? 1 : m.rs, cs = m.cols <= 1 ? rows : m.cs;
    if (rs == 1 && cs >= rows && cs <= INT_MAX) {
      ld = cs;
      return Form::col;
    }
  }
  {
    const I cs = m.cols <= 1 ? 1 : m.cs, rs = m.rows <= 1 ? cols : m.rs;
    if (cs == 1 && rs >= cols && rs <= INT_MAX) {
      ld = rs;
      return Form::row;
    }
  }
  return Form::pack;
}

// Typed column-major BLAS entry points (ld's and extents already checked to fit in int).
void blas(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, float alpha, const float* a, int lda,
          const float* b, int ldb, float beta, float* c, int ldc) {
  cblas_sgemm(CblasColMajor, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
void blas(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, double alpha, const double* a, int lda,
          const double* b, int ldb, double beta, double* c, int ldc) {
  cblas_dgemm(CblasColMajor, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
void blas(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, c32 alpha, const c32* a, int lda,
          const c32* b, int ldb, c32 beta, c32* c, int ldc) {
  cblas_cgemm(CblasColMajor, ta, tb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc);
}
void blas(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, c64 alpha, const c64* a, int lda,
          const c64* b, int ldb, c64 beta, c64* c, int ldc) {
  cblas_zgemm(CblasColMajor, ta, tb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc);
}

// Typed level-1/2 entries for products with one row or one column (extents and increments
// already checked to be positive and within int range).
double dot(int n, const double* x, int incx, const double* y, int incy, bool) { return cblas_ddot(n, x, incx, y, incy); }
float dot(int n, const float* x, int incx, const float* y, int incy, bool) { return cblas_sdot(n, x, incx, y, incy); }
c32 dot(int n, const c32* x, int incx, const c32* y, int incy, bool conj_x) {
  c32 r;
  conj_x ? cblas_cdotc_sub(n, x, incx, y, incy, &r) : cblas_cdotu_sub(n, x, incx, y, incy, &r);
  return r;
}
c64 dot(int n, const c64* x, int incx, const c64* y, int incy, bool conj_x) {
  c64 r;
  conj_x ? cblas_zdotc_sub(n, x, incx, y, incy, &r) : cblas_zdotu_sub(n, x, incx, y, incy, &r);
  return r;
}
void gemv(CBLAS_TRANSPOSE t, int m, int n, float alpha, const float* a, int lda, const float* x, int incx, float beta,
          float* y, int incy) {
  cblas_sgemv(CblasColMajor, t, m, n, alpha, a, lda, x, incx, beta, y, incy);
}
void gemv(CBLAS_TRANSPOSE t, int m, int n, double alpha, const double* a, int lda, const double* x, int incx,
          double beta, double* y, int incy) {
  cblas_dgemv(CblasColMajor, t, m, n, alpha, a, lda, x, incx, beta, y, incy);
}
void gemv(CBLAS_TRANSPOSE t, int m, int n, c32 alpha, const c32* a, int lda, const c32* x, int incx, c32 beta, c32* y,
          int incy) {
  cblas_cgemv(CblasColMajor, t, m, n, &alpha, a, lda, x, incx, &beta, y, incy);
}
void gemv(CBLAS_TRANSPOSE t, int m, int n, c64 alpha, const c64* a, int lda, const c64* x, int incx, c64 beta, c64* y,
          int incy) {
  cblas_zgemv(CblasColMajor, t, m, n, &alpha, a, lda, x, incx, &beta, y, incy);
}

/// Per-thread scratch for packed operands.
template <class T> struct Scratch {
  std::vector<T> a, b, c;
};

/// Copies m (conjugated when asked) into buf as a compact column-major matrix.
template <class T> Mat<T> pack(const Mat<T>& m, bool conj, std::vector<T>& buf) {
  buf.resize(static_cast<std::size_t>(m.rows * m.cols));
  Mat<T> out{buf.data(), m.rows, m.cols, 1, m.rows};
  for (I c = 0; c < m.cols; ++c)
    for (I r = 0; r < m.rows; ++r) out.at(r, c) = conj_if(m.at(r, c), conj);
  return out;
}

/// s * x for alpha and beta: a real s (imaginary part 0) scales both parts, with no 0 * Inf cross
/// terms (a dot product of (Inf, NaN) times 1 stays (Inf, NaN)), as the Vulkan kernels do.
template <class T> T coef(T s, T x) {
  if constexpr (kComplex<T>) {
    if (s.imag() == 0) return T(s.real() * x.real(), s.real() * x.imag());
  }
  return s * x;
}

/// acc + x y; complex: the textbook product (re re - im im, re im + im re), as BLAS, the parts'
/// products and the Vulkan kernels compute it, not std::complex's C99 Annex G recovery of
/// infinities ((-Inf, 3) (NaN, 6038) is (NaN, NaN) here, (NaN, -Inf) under Annex G).
template <class T> T madd(T acc, T x, T y) {
  if constexpr (kComplex<T>) {
    return T(acc.real() + (x.real() * y.real() - x.imag() * y.imag()),
             acc.imag() + (x.real() * y.imag() + x.imag() * y.real()));
  }
  return acc + x * y;
}

/// Whether every element of m is finite (both parts of a complex one).
template <class T> bool all_finite(const Mat<T>& m) {
  for (I j = 0; j < m.cols; ++j)
    for (I i = 0; i < m.rows; ++i) {
      const T v = m.at(i, j);
      if (!std::isfinite(std::real(v)) || !std::isfinite(std::imag(v))) return false;
    }
  return true;
}

/// C = beta * C (zeros when beta == 0, never reading C).
template <class T> void scale(const Mat<T>& c, T beta) {
  for (I j = 0; j < c.cols; ++j)
    for (I i = 0; i < c.rows; ++i) c.at(i, j) = beta == T(0) ? T(0) : coef(beta, c.at(i, j));
}

/// Direct strided loop for tiny products (any strides, K >= 1).
template <class T> void direct(const Mat<T>& a, const Mat<T>& b, const Mat<T>& c, bool ca, bool cb, T alpha,
                               T beta) {
  for (I j = 0; j < c.cols; ++j)
    for (I i = 0; i < c.rows; ++i) {
      T acc(0);
      for (I k = 0; k < a.cols; ++k) acc = madd(acc, conj_if(a.at(i, k), ca), conj_if(b.at(k, j), cb));
      c.at(i, j) = beta == T(0) ? coef(alpha, acc) : coef(alpha, acc) + coef(beta, c.at(i, j));
    }
}

/// Complex C = alpha op(A) op(B) + beta C through four real BLAS products of the parts (Re =
/// Ar Br - Ai Bi, Im = Ar Bi + Ai Br; real alpha = 1 is exact there), then coef: for operands
/// holding Inf or NaN, whose complex BLAS call would apply alpha as a complex product.
template <class T> void gemm_parts(const Mat<T>& a, const Mat<T>& b, const Mat<T>& c, bool ca, bool cb, T alpha,
                                   T beta) {
  using R = typename T::value_type;
  const I M = c.rows, N = c.cols, K = a.cols;
  std::vector<R> ar(static_cast<std::size_t>(M * K)), ai(ar.size()), br(static_cast<std::size_t>(K * N)),
      bi(br.size()), re(static_cast<std::size_t>(M * N)), im(re.size());
  for (I k = 0; k < K; ++k)
    for (I i = 0; i < M; ++i) {
      const T v = conj_if(a.at(i, k), ca);
      ar[static_cast<std::size_t>(i + k * M)] = v.real();
      ai[static_cast<std::size_t>(i + k * M)] = v.imag();
    }
  for (I j = 0; j < N; ++j)
    for (I k = 0; k < K; ++k) {
      const T v = conj_if(b.at(k, j), cb);
      br[static_cast<std::size_t>(k + j * K)] = v.real();
      bi[static_cast<std::size_t>(k + j * K)] = v.imag();
    }
  const int m = static_cast<int>(M), n = static_cast<int>(N), k = static_cast<int>(K);
  blas(CblasNoTrans, CblasNoTrans, m, n, k, R(1), ar.data(), m, br.data(), k, R(0), re.data(), m);
  blas(CblasNoTrans, CblasNoTrans, m, n, k, R(-1), ai.data(), m, bi.data(), k, R(1), re.data(), m);
  blas(CblasNoTrans, CblasNoTrans, m, n, k, R(1), ar.data(), m, bi.data(), k, R(0), im.data(), m);
  blas(CblasNoTrans, CblasNoTrans, m, n, k, R(1), ai.data(), m, br.data(), k, R(1), im.data(), m);
  for (I j = 0; j < N; ++j)
    for (I i = 0; i < M; ++i) {
      const auto at = static_cast<std::size_t>(i + j * M);
      const T v = coef(alpha, T(re[at], im[at]));
      c.at(i, j) = beta == T(0) ? v : v + coef(beta, c.at(i, j));
    }
}

/// A product with one row or one column of C (K > 1) as a dot product or a matrix-vector
/// product, which OpenBLAS runs at memory speed where its GEMM packs both operands first.
/// Returns false, doing nothing, where those calls cannot express it (a vector with a negative
/// or zero increment; a conjugation that gemv cannot apply): the caller then takes GEMM.
template <class T> bool call_vector(const Mat<T>& a, const Mat<T>& b, const Mat<T>& c, bool ca, bool cb, T alpha,
                                    T beta) {
  const I M = c.rows, N = c.cols, K = a.cols;
  auto fits = [](I inc) { return inc > 0 && inc <= INT_MAX; };
  if (M == 1 && N == 1) {
    if (!fits(a.cs) || !fits(b.rs)) return false;
    const int k = static_cast<int>(K), ia = static_cast<int>(a.cs), ib = static_cast<int>(b.rs);
    // conj(x) y: dotc(x, y); x conj(y): dotc(y, x); conj(x) conj(y) = conj(x y).
    T r = cb && !ca ? dot(k, b.p, ib, a.p, ia, true) : dot(k, a.p, ia, b.p, ib, ca && !cb);
    if (ca && cb) r = conj_if(r, true);
    c.at(0, 0) = beta == T(0) ? coef(alpha, r) : coef(alpha, r) + coef(beta, c.at(0, 0));
    return true;
  }
  // y = alpha op(S) x + beta y with S stored column-major (rows x cols, ld), x and y strided.
  CBLAS_TRANSPOSE t{};
  const T *mat = nullptr, *x = nullptr;
  I rows = 0, cols = 0, ld = 0, incx = 0, incy = 0;
  T* y = c.p;
  I fa = 0;
  if (N == 1) {  // C[:, 0] = op(A) B[:, 0]
    if (cb || !fits(b.rs)) return false;
    const Form f = classify(a, fa);
    if (f == Form::col && !ca) t = CblasNoTrans, rows = M, cols = K;
    else if (f == Form::row) t = ca ? CblasConjTrans : CblasTrans, rows = K, cols = M;
    else return false;
    mat = a.p, ld = fa, x = b.p, incx = b.rs, incy = 1;
  } else {  // C[0, :] = (op(B)^T A[0, :]^T)^T
    if (ca || !fits(a.cs) || !fits(c.cs)) return false;
    const Form f = classify(b, fa);
    if (f == Form::col) t = cb ? CblasConjTrans : CblasTrans, rows = K, cols = N;
    else if (f == Form::row && !cb) t = CblasNoTrans, rows = N, cols = K;
    else return false;
    mat = b.p, ld = fa, x = a.p, incx = a.cs, incy = c.cs;
  }
  if (beta == T(0))  // BLAS scales y by beta first: zeros, so that NaN in C never shows
    for (I i = 0; i < M * N; ++i) y[i * incy] = T(0);
  gemv(t, static_cast<int>(rows), static_cast<int>(cols), alpha, mat, static_cast<int>(ld), x, static_cast<int>(incx),
       beta, y, static_cast<int>(incy));
  return true;
}

/// One BLAS call for C (column-major: ldc from classify) = alpha op(A) op(B) + beta C; A or B
/// in neither form is packed into s first.
template <class T> void call_blas(Mat<T> a, Mat<T> b, const Mat<T>& c, bool ca, bool cb, T alpha, T beta,
                                  Scratch<T>& s) {
  I ldc = 0;
  const Form fc = classify(c, ldc);
  TENFERRO_ASSERT(fc == Form::col);
  if ((c.rows == 1 || c.cols == 1) && a.cols > 1 && call_vector(a, b, c, ca, cb, alpha, beta)) return;
  auto operand = [](Mat<T>& m, bool conj, std::vector<T>& buf, I& ld) -> CBLAS_TRANSPOSE {
    switch (classify(m, ld)) {
      case Form::col:
        if constexpr (kComplex<T>) return conj ? CblasConjNoTrans : CblasNoTrans;
        return CblasNoTrans;
      case Form::row:
        if constexpr (kComplex<T>) return conj ? CblasConjTrans : CblasTrans;
        return CblasTrans;
      case Form::pack: break;
    }
    m = pack(m, conj, buf);
    ld = std::max<I>(m.rows, 1);
    return CblasNoTrans;
  };
  I lda = 0, ldb = 0;
  const CBLAS_TRANSPOSE ta = operand(a, ca, s.a, lda);
  const CBLAS_TRANSPOSE tb = operand(b, cb, s.b, ldb);
  blas(ta, tb, static_cast<int>(c.rows), static_cast<int>(c.cols), static_cast<int>(a.cols), alpha, a.p,
       static_cast<int>(lda), b.p, static_cast<int>(ldb), beta, c.p, static_cast<int>(ldc));
}

/// Rows [r0, r1) and columns [c0, c1) of m.
template <class T> Mat<T> block(const Mat<T>& m, I r0, I r1, I c0, I c1) {
  return Mat<T>{m.p + r0 * m.rs + c0 * m.cs, r1 - r0, c1 - c0, m.rs, m.cs};
}

/// C (column-major, under 2 kMinTile rows and columns) = alpha op(A) op(B) + beta C on sc.size()
/// threads, K split into parts of at least kSplitK: each part's product goes to its own compact
/// buffer, then C = sum of the parts in order + beta C.
template <class T> void gemm_split_k(const Mat<T>& a, const Mat<T>& b, const Mat<T>& c, bool ca, bool cb, T alpha,
                                     T beta, std::span<Scratch<T>> sc) {
  const I M = c.rows, N = c.cols, K = a.cols;
  const I parts = std::min<I>(4 * static_cast<I>(sc.size()), K / kSplitK);
  std::vector<T> buf(static_cast<std::size_t>(parts * M * N));
  parallel_chunks(parts, static_cast<int>(sc.size()), [&](I p0, I p1, int slot) {
    for (I p = p0; p < p1; ++p) {
      const I k0 = K * p / parts, k1 = K * (p + 1) / parts;
      const Mat<T> part{buf.data() + p * M * N, M, N, 1, M};
      call_blas(block(a, 0, M, k0, k1), block(b, k0, k1, 0, N), part, ca, cb, alpha, T(0),
                sc[static_cast<std::size_t>(slot)]);
    }
  });
  for (I j = 0; j < N; ++j)
    for (I i = 0; i < M; ++i) {
      T sum = buf[static_cast<std::size_t>(i + j * M)];
      for (I p = 1; p < parts; ++p) sum += buf[static_cast<std::size_t>(p * M * N + i + j * M)];
      c.at(i, j) = beta == T(0) ? sum : sum + coef(beta, c.at(i, j));
    }
}

/// C (column-major) = alpha op(A) op(B) + beta C on sc.size() threads: A and B packed once when
/// BLAS cannot read them, then tiles of C (about 4 per thread, at least kMinTile on a side),
/// one single-threaded BLAS call each.
template <class T> void gemm_tiles(Mat<T> a, Mat<T> b, const Mat<T>& c, bool ca, bool cb, T alpha, T beta,
                                   std::span<Scratch<T>> sc) {
  I ld = 0;
  if (classify(a, ld) == Form::pack) {
    a = pack(a, ca, sc[0].a);
    ca = false;
  }
  if (classify(b, ld) == Form::pack) {
    b = pack(b, cb, sc[0].b);
    cb = false;
  }
  const I M = c.rows, N = c.cols, target = 4 * static_cast<I>(sc.size());
  I gm = 1, gn = 1;
  while (gm * gn < target) {
    const I tm = M / gm, tn = N / gn;
    if (tm >= tn && tm >= 2 * kMinTile) gm *= 2;
    else if (tn >= 2 * kMinTile) gn *= 2;
    else if (tm >= 2 * kMinTile) gm *= 2;
    else break;
  }
  if (gm * gn == 1 && a.cols >= 2 * kSplitK) return gemm_split_k(a, b, c, ca, cb, alpha, beta, sc);
  // Row bounds on multiples of 8 (whole vector registers of the BLAS kernels).
  auto rows = [&](I i) { return i == gm ? M : (M * i / gm) & ~I{7}; };
  parallel_chunks(gm * gn, static_cast<int>(sc.size()), [&](I t0, I t1, int slot) {
    for (I t = t0; t < t1; ++t) {
      const I i = t % gm, j = t / gm, r0 = rows(i), r1 = rows(i + 1), c0 = N * j / gn, c1 = N * (j + 1) / gn;
      call_blas(block(a, r0, r1, 0, a.cols), block(b, 0, b.rows, c0, c1), block(c, r0, r1, c0, c1), ca, cb, alpha,
                beta, sc[static_cast<std::size_t>(slot)]);
    }
  });
}

/// One batch: C = alpha op(A) op(B) + beta C. A [M,K], B [K,N], C [M,N]; extents fit in int.
/// A product of more than kBigWork multiply-adds runs on the threads of s (one scratch each).
template <class T> void gemm_one(Mat<T> a, Mat<T> b, Mat<T> c, bool ca, bool cb, T alpha, T beta,
                                 std::span<Scratch<T>> sc) {
  Scratch<T>& s = sc[0];
  if (c.rows == 0 || c.cols == 0) return;
  if (a.cols == 0) return scale(c, beta);
  if (c.rows * c.cols <= kTinyWork / a.cols) return direct(a, b, c, ca, cb, alpha, beta);
  // Complex BLAS applies alpha and beta as complex products (1 * (Inf, NaN) = (NaN, NaN)):
  // complex operands holding Inf or NaN take four real products of the parts instead.
  if constexpr (kComplex<T>) {
    if (!all_finite(a) || !all_finite(b) || (beta != T(0) && !all_finite(c))) return gemm_parts(a, b, c, ca, cb, alpha, beta);
  }
  I ldc = 0;
  Form fc = classify(c, ldc);
  if (fc == Form::row) {
    // C^T = op(B)^T op(A)^T, with C^T column-major.
    const Mat<T> na = b.transposed(), nb = a.transposed();
    a = na;
    b = nb;
    std::swap(ca, cb);
    c = c.transposed();
    fc = classify(c, ldc);
    TENFERRO_ASSERT(fc == Form::col);
  }
  if (fc == Form::pack) {
    Mat<T> tmp{nullptr, c.rows, c.cols, 1, c.rows};
    if (beta == T(0)) {
      s.c.resize(static_cast<std::size_t>(c.rows * c.cols));
      tmp.p = s.c.data();
    } else {
      tmp = pack(c, false, s.c);
    }
    gemm_one(a, b, tmp, ca, cb, alpha, beta, sc);
    for (I j = 0; j < c.cols; ++j)
      for (I i = 0; i < c.rows; ++i) c.at(i, j) = tmp.at(i, j);
    return;
  }
  if (sc.size() > 1 && c.rows * c.cols > kBigWork / a.cols) return gemm_tiles(a, b, c, ca, cb, alpha, beta, sc);
  call_blas(a, b, c, ca, cb, alpha, beta, s);
}

// p advanced by `off` elements. An operand with no elements (K == 0: A is M x 0, B is 0 x N)
// may have no storage at all, and advancing its null pointer is undefined behaviour: null
// stays null (nothing reads it).
template <class T> T* advanced(T* p, I off) { return p ? p + off : p; }

template <class T> void gemm_typed(const GemmCall& call) {
  const Shape &sa = call.a.shape(), &sb = call.b.shape(), &sc = call.c.shape();
  TENFERRO_ASSERT(sa.size() == 3 && sb.size() == 3 && sc.size() == 3);
  const I M = sc[0], N = sc[1], B = sc[2], K = sa[1];
  TENFERRO_ASSERT(sa[0] == M && sb[1] == N && sb[0] == K && sa[2] == B && sb[2] == B);
  if (M == 0 || N == 0 || B == 0) return;
  TENFERRO_ASSERT(M <= INT_MAX && N <= INT_MAX && K <= INT_MAX);
  const Strides &ta = call.a.strides(), &tb = call.b.strides(), &tc = call.c.strides();
  T* pa = advanced(base_ptr<T>(call.a), call.a.offset());
  T* pb = advanced(base_ptr<T>(call.b), call.b.offset());
  T* pc = advanced(base_ptr<T>(call.c), call.c.offset());
  const bool ca = kComplex<T> && call.conj_a, cb = kComplex<T> && call.conj_b;
  const T alpha = call.alpha.as<T>(), beta = call.beta.as<T>();
  auto one = [&](I b, std::span<Scratch<T>> s) {
    gemm_one(Mat<T>{advanced(pa, b * ta[2]), M, K, ta[0], ta[1]}, Mat<T>{advanced(pb, b * tb[2]), K, N, tb[0], tb[1]},
             Mat<T>{advanced(pc, b * tc[2]), M, N, tc[0], tc[1]}, ca, cb, alpha, beta, s);
  };
  // Multiply-adds per batch, saturated (M * N fits: it divides the element count of C).
  const I work = M * N > kBigWork / std::max<I>(K, 1) ? kBigWork + 1 : M * N * std::max<I>(K, 1);
  const int nt = max_threads();
  // Few large products: each one split into tiles over the threads. Otherwise batches over the
  // threads (when there is work for them), one single-threaded product each.
  const bool tiled = nt > 1 && work > kBigWork && B < nt;
  const bool par = !tiled && B > 1 && (work > kBigWork || B >= kParallelThreshold / work);
  std::vector<Scratch<T>> scratch(static_cast<std::size_t>(tiled || par ? nt : 1));  // one per slot
  const std::span<Scratch<T>> all(scratch);
  if (tiled) {
    for (I b = 0; b < B; ++b) one(b, all);
    return;
  }
  parallel_chunks(B, par ? nt : 1, [&](I b0, I b1, int slot) {
    for (I b = b0; b < b1; ++b) one(b, all.subspan(static_cast<std::size_t>(slot), 1));
  });
}

}  // namespace

void gemm_kernel(const GemmCall& call) {
  visit_dtype(call.c.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, c32> ||
                  std::is_same_v<T, c64>) {
      gemm_typed<T>(call);
    } else {
      TENFERRO_FAIL(internal, "gemm_kernel", "", "gemm on non-inexact dtype ", dtype_name(call.c.dtype()));
    }
  });
}

}  // namespace tenferro::cpu
