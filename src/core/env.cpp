#include "core/env.hpp"

#include <cstdlib>
#include <limits>

#include "tenferro/error.hpp"

namespace tenferro::env {

namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

[[noreturn]] void refuse(std::string_view name, std::string_view value, std::string_view expected) {
  TENFERRO_FAIL(invalid_argument, "environment", name, name, "='", value, "' is not accepted: expected ", expected);
}

/// Whole decimal digits (at least one) into `out`; false on anything else or past 2^64 - 1.
bool digits(std::string_view s, std::uint64_t& out) {
  if (s.empty()) return false;
  std::uint64_t v = 0;
  for (char c : s) {
    if (!is_digit(c)) return false;
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (v > (kMax - d) / 10) return false;
    v = v * 10 + d;
  }
  out = v;
  return true;
}

}  // namespace

std::optional<std::string> text(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string(v);
}

bool parse_bool(std::string_view name, std::string_view value) {
  for (std::string_view t : {"1", "true", "on", "yes"})
    if (iequals(value, t)) return true;
  for (std::string_view f : {"0", "false", "off", "no"})
    if (iequals(value, f)) return false;
  refuse(name, value, "a boolean: 1, true, on, yes or 0, false, off, no");
}

std::uint64_t parse_bytes(std::string_view name, std::string_view value) {
  static constexpr std::string_view kForms =
      "a byte size: a whole number of bytes, or a number with a binary unit K, M, G, T (also KiB, MiB, GiB, "
      "TiB; 1K = 1024 bytes), e.g. 512M or 1.5G, at most 2^64 - 1 bytes";
  std::size_t i = 0;
  while (i < value.size() && is_digit(value[i])) ++i;
  const std::string_view whole = value.substr(0, i);
  std::string_view frac;
  if (i < value.size() && value[i] == '.') {
    const std::size_t f0 = ++i;
    while (i < value.size() && is_digit(value[i])) ++i;
    frac = value.substr(f0, i - f0);
    if (frac.empty()) refuse(name, value, kForms);
  }
  const std::string_view unit = value.substr(i);
  int shift = -1;
  if (unit.empty()) {
    shift = 0;
  } else {
    const char* const units = "kmgt";
    for (int u = 0; u < 4; ++u)
      if (iequals(unit, std::string(1, units[u])) || iequals(unit, std::string(1, units[u]) + "ib")) shift = 10 * (u + 1);
  }
  std::uint64_t w = 0;
  // A fraction only with a unit ("1.5" bytes is not a size); at most 18 fraction digits.
  if (shift < 0 || (whole.empty() && frac.empty()) || (!whole.empty() && !digits(whole, w)) ||
      (!frac.empty() && (shift == 0 || frac.size() > 18)))
    refuse(name, value, kForms);
  if (shift > 0 && w > (kMax >> shift)) refuse(name, value, kForms);
  std::uint64_t bytes = w << shift;
  if (!frac.empty()) {
    // floor(frac / 10^n * 2^shift), one bit at a time: frac < 10^n <= 10^18 < 2^63, so the
    // doubled remainder stays within 64 bits.
    std::uint64_t rest = 0, p10 = 1, add = 0;
    digits(frac, rest);
    for (std::size_t k = 0; k < frac.size(); ++k) p10 *= 10;
    for (int b = 0; b < shift; ++b) {
      rest *= 2;
      add *= 2;
      if (rest >= p10) {
        rest -= p10;
        add += 1;
      }
    }
    if (bytes > kMax - add) refuse(name, value, kForms);
    bytes += add;
  }
  return bytes;
}

std::uint64_t parse_uint(std::string_view name, std::string_view value, std::uint64_t lo, std::uint64_t hi) {
  std::uint64_t v = 0;
  if (!digits(value, v) || v < lo || v > hi)
    refuse(name, value, detail::cat("a whole decimal number from ", lo, " to ", hi));
  return v;
}

bool flag(const char* name, bool dflt) {
  const std::optional<std::string> v = text(name);
  return v ? parse_bool(name, *v) : dflt;
}

std::uint64_t bytes(const char* name, std::uint64_t dflt) {
  const std::optional<std::string> v = text(name);
  return v ? parse_bytes(name, *v) : dflt;
}

std::uint64_t uint(const char* name, std::uint64_t dflt, std::uint64_t lo, std::uint64_t hi) {
  const std::optional<std::string> v = text(name);
  return v ? parse_uint(name, *v, lo, hi) : dflt;
}

}  // namespace tenferro::env
