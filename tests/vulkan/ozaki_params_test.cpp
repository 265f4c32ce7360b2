// Host checks of the Ozaki-II scheme's constant tables (no GPU): the split pass's
// (ozaki_params.h) and the combine pass's Chinese-remainder constants (ozaki_crt.h, generated
// by tools/gen_ozaki_crt.py), recomputed here by exact integer arithmetic, and the combine's
// reconstruction (ozaki.comp combine()) replayed in host f64 against its error bound
// 2 u |X| + 2^(E-76) for integers X across the scheme's range |X| <= M / 4.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "shaders/ozaki/ozaki_crt.h"
#include "shaders/ozaki/ozaki_params.h"

namespace {

/// A 256-bit two's-complement integer (wrapping): enough for M = m_0 ... m_19 < 2^160 and the
/// tables' terms.
struct Big {
  std::array<std::uint32_t, 8> w{};

  static Big of(std::int64_t x) {
    Big b;
    b.w[0] = static_cast<std::uint32_t>(x);
    b.w[1] = static_cast<std::uint32_t>(static_cast<std::uint64_t>(x) >> 32);
    for (int i = 2; i < 8; ++i) b.w[i] = x < 0 ? 0xffffffffu : 0u;
    return b;
  }
  /// An integer-valued double, exactly.
  static Big of_double(double d) {
    EXPECT_EQ(d, std::floor(d)) << d;
    int e = 0;
    const double f = std::frexp(std::fabs(d), &e);  // |d| = f 2^e, f in [0.5, 1)
    Big b = of(static_cast<std::int64_t>(std::ldexp(f, 53)));
    b = e >= 53 ? b.shl(e - 53) : b.shr(53 - e);
    return d < 0 ? b.neg() : b;
  }
  bool neg_sign() const { return (w[7] >> 31) != 0u; }
  Big neg() const {
    Big r;
    std::uint64_t carry = 1;
    for (int i = 0; i < 8; ++i) {
      carry += static_cast<std::uint32_t>(~w[i]);
      r.w[i] = static_cast<std::uint32_t>(carry);
      carry >>= 32;
    }
    return r;
  }
  Big abs() const { return neg_sign() ? neg() : *this; }
  Big operator+(const Big& o) const {
    Big r;
    std::uint64_t carry = 0;
    for (int i = 0; i < 8; ++i) {
      carry += std::uint64_t{w[i]} + o.w[i];
      r.w[i] = static_cast<std::uint32_t>(carry);
      carry >>= 32;
    }
    return r;
  }
  Big operator-(const Big& o) const { return *this + o.neg(); }
  Big mul(std::uint32_t k) const {  // (non-negative *this)
    Big r;
    std::uint64_t carry = 0;
    for (int i = 0; i < 8; ++i) {
      carry += std::uint64_t{w[i]} * k;
      r.w[i] = static_cast<std::uint32_t>(carry);
      carry >>= 32;
    }
    return r;
  }
  Big shl(int s) const {
    Big r;
    for (int i = 7; i >= 0; --i) {
      const int src = i - s / 32, bit = s % 32;
      const std::uint64_t hi = src >= 0 ? w[src] : 0u, lo = src >= 1 ? w[src - 1] : 0u;
      r.w[i] = static_cast<std::uint32_t>(((hi << 32 | lo) << bit) >> 32);
    }
    return r;
  }
  Big shr(int s) const {  // (non-negative *this)
    Big r;
    for (int i = 0; i < 8; ++i) {
      const int src = i + s / 32, bit = s % 32;
      const std::uint64_t lo = src < 8 ? w[src] : 0u, hi = src + 1 < 8 ? w[src + 1] : 0u;
      r.w[i] = static_cast<std::uint32_t>((hi << 32 | lo) >> bit);
    }
    return r;
  }
  /// The bit length of a non-negative value (0 for 0).
  int bits() const {
    for (int i = 7; i >= 0; --i)
      if (w[i] != 0u) return 32 * i + 32 - std::countl_zero(w[i]);
    return 0;
  }
  /// The residue in [0, m) of a non-negative value.
  std::uint32_t mod(std::uint32_t m) const {
    std::uint64_t r = 0;
    for (int i = 7; i >= 0; --i) r = ((r << 32) | w[i]) % m;
    return static_cast<std::uint32_t>(r);
  }
  bool operator<=(const Big& o) const {  // (both non-negative)
    for (int i = 7; i >= 0; --i)
      if (w[i] != o.w[i]) return w[i] < o.w[i];
    return true;
  }
  bool operator==(const Big& o) const { return w == o.w; }
};

Big pow2(int e) { return e < 0 ? Big::of(0) : Big::of(1).shl(e); }

double bits_f64(std::uint64_t b) {
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}

constexpr int kRows = TFO_MAX_MODULI - TFO_MIN_MODULI + 1;
const int kM[] = {TFO_MODULI}, kE[] = {TFO_CRT_E}, kInv[] = {TFO_CRT_INV};
const std::uint64_t kH[] = {TFO_CRT_H}, kL[] = {TFO_CRT_L}, kR[] = {TFO_CRT_R}, kMH[] = {TFO_CRT_MH},
                    kML[] = {TFO_CRT_ML}, kMR[] = {TFO_CRT_MR}, kRecip[] = {TFO_CRT_RECIP};
static_assert(std::size(kE) == kRows && std::size(kMH) == kRows && std::size(kML) == kRows && std::size(kMR) == kRows);
static_assert(std::size(kInv) == kRows * TFO_MAX_MODULI && std::size(kH) == kRows * TFO_MAX_MODULI &&
              std::size(kL) == kRows * TFO_MAX_MODULI && std::size(kR) == kRows * TFO_MAX_MODULI);
static_assert(std::size(kRecip) == TFO_MAX_MODULI);

Big product(int n) {
  Big m = Big::of(1);
  for (int l = 0; l < n; ++l) m = m.mul(static_cast<std::uint32_t>(kM[l]));
  return m;
}

/// Checks one split p = H + L + R of the tables against p (exact), for E = e; H below 2^hbits
/// (so that its products by y_l < 2^8, or k <= n, and their sums stay exact).
void check_split(const Big& p, double h, double lo, double r, int e, int hbits, const char* what) {
  SCOPED_TRACE(what);
  const Big bh = Big::of_double(h), bl = Big::of_double(lo), rest = p - bh - bl;
  EXPECT_EQ(bh.abs().shr(e).shl(e), bh.abs());  // a multiple of 2^E
  EXPECT_LE(bh.abs().bits(), hbits);
  const int el = std::max(e - 41, 0);
  EXPECT_EQ(bl.abs().shr(el).shl(el), bl.abs());  // a multiple of 2^(E-41)
  EXPECT_TRUE(bl.abs() <= pow2(e - 1) + pow2(e - 42));
  EXPECT_TRUE(rest.abs() <= pow2(e - 42));
  if (e <= 41) {
    EXPECT_TRUE(rest == Big::of(0));
  }
  // R is rest rounded to f64: within half an ulp of |rest| < 2^(E-42), i.e. 2^(E-95).
  const Big dr = (rest - Big::of_double(r)).abs();
  EXPECT_TRUE(dr <= pow2(std::max(e - 95, 0))) << "R off by " << dr.bits() << " bits";
}

}  // namespace

// The moduli are pairwise coprime; the combine's tables (ozaki_crt.h) are theirs.
TEST(OzakiParams, CrtConstants) {
  for (int l = 0; l < TFO_MAX_MODULI; ++l) {
    EXPECT_LE(kM[l], 256);
    for (int j = 0; j < l; ++j) EXPECT_EQ(std::gcd(kM[j], kM[l]), 1) << j << ", " << l;
    EXPECT_EQ(bits_f64(kRecip[l]), 1.0 / kM[l]) << l;
  }
  for (int n = TFO_MIN_MODULI; n <= TFO_MAX_MODULI; ++n) {
    SCOPED_TRACE("moduli " + std::to_string(n));
    const int row = n - TFO_MIN_MODULI, e = kE[row];
    const Big m = product(n);
    EXPECT_EQ(e, m.mul(static_cast<std::uint32_t>(n)).bits() - 52);
    for (int l = 0; l < TFO_MAX_MODULI; ++l) {
      const int i = row * TFO_MAX_MODULI + l;
      if (l >= n) {
        EXPECT_EQ(kInv[i], 0);
        EXPECT_EQ(bits_f64(kH[i]) + bits_f64(kL[i]) + bits_f64(kR[i]), 0.0);
        continue;
      }
      Big p = Big::of(1);  // P_l = M / m_l
      for (int j = 0; j < n; ++j)
        if (j != l) p = p.mul(static_cast<std::uint32_t>(kM[j]));
      EXPECT_EQ(p.mod(kM[l]) * static_cast<std::uint32_t>(kInv[i]) % kM[l], 1u) << l;
      check_split(p, bits_f64(kH[i]), bits_f64(kL[i]), bits_f64(kR[i]), e, e + 45, "P_l");
    }
    const int nbits = 32 - std::countl_zero(static_cast<std::uint32_t>(n));  // k <= n
    check_split(m, bits_f64(kMH[row]), bits_f64(kML[row]), bits_f64(kMR[row]), e, e + 53 - nbits, "M");
  }
}

// ozaki.comp combine()'s reconstruction, replayed in host f64 (fused fmas): for integers X in
// the scheme's range (|X| <= M / 4: 0, +-1, powers of two, the ends, random values of every
// length), the result is within 2 u |X| + 2^(E-76) of X.
TEST(OzakiParams, CrtReconstruction) {
  std::mt19937_64 rng(7);
  for (int n = TFO_MIN_MODULI; n <= TFO_MAX_MODULI; ++n) {
    SCOPED_TRACE("moduli " + std::to_string(n));
    const int row = n - TFO_MIN_MODULI, e = kE[row];
    const Big quarter = product(n).shr(2);
    std::vector<Big> xs = {Big::of(0), Big::of(1), Big::of(-1), quarter, quarter.neg(), Big::of(12345)};
    for (int b = 1; b < quarter.bits(); b += 7) xs.push_back(pow2(b)), xs.push_back(pow2(b).neg());
    for (int t = 0; t < 400; ++t) {
      Big x;
      for (auto& word : x.w) word = static_cast<std::uint32_t>(rng());
      x = x.abs().shr(static_cast<int>(rng() % 256));  // every length up to 255 bits
      if (!(x <= quarter)) x = x.shr(256 - quarter.bits() + 1);
      xs.push_back(t % 2 ? x : x.neg());
    }
    for (const Big& x : xs) {
      double th = 0, tm = 0, tl = 0, f = 0;
      for (int l = 0; l < n; ++l) {
        const std::uint32_t ml = static_cast<std::uint32_t>(kM[l]), ra = x.abs().mod(ml);
        const std::uint32_t r = x.neg_sign() ? (ml - ra) % ml : ra;  // X mod m_l in [0, m_l)
        const double y = static_cast<double>(r * static_cast<std::uint32_t>(kInv[row * TFO_MAX_MODULI + l]) % ml);
        th = std::fma(y, bits_f64(kH[row * TFO_MAX_MODULI + l]), th);
        tm = std::fma(y, bits_f64(kL[row * TFO_MAX_MODULI + l]), tm);
        tl = std::fma(y, bits_f64(kR[row * TFO_MAX_MODULI + l]), tl);
        f = std::fma(y, bits_f64(kRecip[l]), f);
      }
      const double k = -std::nearbyint(f);
      th = std::fma(k, bits_f64(kMH[row]), th);
      tm = std::fma(k, bits_f64(kML[row]), tm);
      tl = std::fma(k, bits_f64(kMR[row]), tl);
      const double got = (th + tm) + tl;
      // |got - X| <= 2 u |X| + 2^(E-76), with 2 u |X| >= 2^(bits(|X|) - 53).
      const Big diff = (Big::of_double(got) - x).abs();
      const Big bound = pow2(x.abs().bits() - 53) + pow2(e - 76);
      EXPECT_TRUE(diff <= bound) << "X of " << x.abs().bits() << " bits: off by " << diff.bits() << " bits";
      if (x == Big::of(0)) {
        EXPECT_EQ(got, 0.0);
      }
    }
  }
}

// The split pass's tables of ozaki_params.h (recomputed here) and its exact quotient: for every
// y < 2^31, (y TFO_RECIP39 / 2^32) >> 7 == y / m. Checked at the edges of every quotient step
// near 0, near 2^31 and at a spread of values in between, for every modulus.
TEST(OzakiParams, SplitConstants) {
  const unsigned m[] = {TFO_MODULI}, recip[] = {TFO_RECIP39}, c21[] = {TFO_C21}, c42[] = {TFO_C42},
                 bias[] = {TFO_BIAS28};
  static_assert(std::size(recip) == TFO_MAX_MODULI && std::size(c21) == TFO_MAX_MODULI &&
                std::size(c42) == TFO_MAX_MODULI && std::size(bias) == TFO_MAX_MODULI);
  for (int l = 0; l < TFO_MAX_MODULI; ++l) {
    const std::uint64_t ml = m[l];
    EXPECT_GT(ml, 128u) << l;  // so that ceil(2^39 / m) fits 32 bits (and the shift is 7)
    EXPECT_EQ(recip[l], ((std::uint64_t{1} << 39) + ml - 1) / ml) << l;
    EXPECT_EQ(c21[l], (std::uint64_t{1} << 21) % ml) << l;
    EXPECT_EQ(c42[l], (std::uint64_t{1} << 42) % ml) << l;
    EXPECT_EQ(bias[l] % ml, 0u) << l;
    EXPECT_GT(bias[l], 1u << 28) << l;
    // The largest residue sum: |d2| <= 2^20, d0, d1 < 2^21.
    EXPECT_LT(bias[l] + (std::uint64_t{1} << 20) * c42[l] + ((std::uint64_t{1} << 21) - 1) * (c21[l] + 1),
              std::uint64_t{1} << 31) << l;
    EXPECT_GE(std::int64_t{bias[l]} - (std::int64_t{1} << 20) * c42[l], 0) << l;
    auto check = [&](std::uint64_t y) {
      ASSERT_EQ(((y * recip[l]) >> 32) >> 7, y / ml) << "m " << ml << " y " << y;
    };
    for (std::uint64_t q = 0; q < 4096; ++q)
      for (std::uint64_t y : {q * ml, q * ml + ml - 1}) check(y);
    const std::uint64_t top = (std::uint64_t{1} << 31) - 1;
    for (std::uint64_t q = top / ml - 4096; q <= top / ml; ++q)
      for (std::uint64_t y : {q * ml, std::min(q * ml + ml - 1, top)}) check(y);
    for (std::uint64_t y = 0; y <= top; y += 65521) check(y);
  }
}
