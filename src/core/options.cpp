#include "core/options.hpp"

#include "core/env.hpp"
#include "tenferro/error.hpp"
#include "tenferro/options.hpp"

namespace tenferro {

const Options& options() {
  static const Options o = [] {
    Options r;
    r.device = env::text("TENFERRO_DEVICE").value_or("");
    return r;
  }();
  return o;
}

void check_accuracy(const AccuracyOptions& a) {
  TENFERRO_CHECK(a.ozaki <= OzakiMode::uncertified, invalid_argument, "set_accuracy", "ozaki", "unknown OzakiMode ",
                 static_cast<int>(a.ozaki));
  TENFERRO_CHECK(a.gemm_3m <= Gemm3M::always, invalid_argument, "set_accuracy", "gemm_3m", "unknown Gemm3M ",
                 static_cast<int>(a.gemm_3m));
  TENFERRO_CHECK(a.f32_via_f64 <= F32ViaF64::where_flushed, invalid_argument, "set_accuracy", "f32_via_f64",
                 "unknown F32ViaF64 ", static_cast<int>(a.f32_via_f64));
  TENFERRO_CHECK(a.ozaki != OzakiMode::uncertified || (a.ozaki_moduli >= 8 && a.ozaki_moduli <= 20), invalid_argument,
                 "set_accuracy", "ozaki_moduli", "uncertified Ozaki-II products take 8 to 20 moduli, got ",
                 a.ozaki_moduli);
}

AccuracyOptions default_accuracy() {
  // A throwing initializer leaves the static uninitialized: the next call reads again.
  static const AccuracyOptions a = [] {
    AccuracyOptions r;
    constexpr const char* kOzaki = "TENFERRO_VK_GEMM_OZAKI";
    if (const std::optional<std::string> oz = env::text(kOzaki); oz && *oz == "0") {
      r.ozaki = OzakiMode::off;
    } else if (oz && *oz != "1") {
      try {
        r.ozaki_moduli = static_cast<int>(env::parse_uint(kOzaki, *oz, 8, 20));
      } catch (const Error&) {
        TENFERRO_FAIL(invalid_argument, "environment", kOzaki, kOzaki, "='", *oz,
                      "' is not accepted: expected 0 (off), 1 (certified) or 8 to 20 (uncertified, that many moduli)");
      }
      r.ozaki = OzakiMode::uncertified;
    }
    r.gemm_3m = static_cast<Gemm3M>(env::uint("TENFERRO_VK_GEMM_3M", 0, 0, 2));
    switch (env::uint("TENFERRO_VK_F32_VIA_F64", 2, 0, 2)) {
      case 0: r.f32_via_f64 = F32ViaF64::never; break;
      case 1: r.f32_via_f64 = F32ViaF64::always; break;
      default: r.f32_via_f64 = F32ViaF64::where_flushed; break;
    }
    return r;
  }();
  return a;
}

}  // namespace tenferro
