// printable(): escaping and truncation of untrusted text before it reaches the terminal.
#include "printable.hpp"

#include <cstdint>
#include <cstdio>

namespace tenferro::cli {
namespace {

void escape(std::string& out, unsigned char b) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02X", b);
  out += buf;
}

// Length of the valid UTF-8 sequence at s[i] (1-4), or 0 when it is not one.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = b(i);
  std::size_t len = 0;
  std::uint32_t c = 0;
  if (b0 < 0x80) return 1;
  if ((b0 & 0xE0) == 0xC0) len = 2, c = b0 & 0x1F;
  else if ((b0 & 0xF0) == 0xE0) len = 3, c = b0 & 0x0F;
  else if ((b0 & 0xF8) == 0xF0) len = 4, c = b0 & 0x07;
  else return 0;
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    c = (c << 6) | (b(i + k) & 0x3F);
  }
  static constexpr std::uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < kMin[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
  if (c >= 0x80 && c <= 0x9F) return 0;  // C1 controls (U+0080..U+009F): escaped byte by byte
  return len;
}

}  // namespace

std::string printable(std::string_view s, std::size_t max) {
  std::string out;
  std::size_t i = 0;
  while (i < s.size() && i < max) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t len = utf8_length(s, i);
    if (len == 0 || b < 0x20 || b == 0x7F) {
      escape(out, b);
      ++i;
    } else {
      if (i + len > max) break;  // no character cut in two
      out.append(s.substr(i, len));
      i += len;
    }
  }
  if (i < s.size()) out += "... (" + std::to_string(s.size()) + " bytes)";
  return out;
}

}  // namespace tenferro::cli
