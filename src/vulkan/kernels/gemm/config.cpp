// GemmConfig's rules and text form (config.hpp).
#include "vulkan/kernels/gemm/config.hpp"

#include <cstdio>

#include "shaders/gemm/gemm_params.h"
#include "vulkan/backend.hpp"

namespace tenferro::vk {

namespace {

bool pow2(int x) { return x > 0 && (x & (x - 1)) == 0; }

}  // namespace

int gemm_words_of(DType d) {
  switch (d) {
    case DType::F32: return 4;
    case DType::F64: case DType::C32: return 2;
    default: return 1;  // C64
  }
}

std::uint64_t gemm_shared_bytes(const GemmConfig& c, DType d) {
  const int vw = gemm_words_of(d);
  const std::uint64_t bufs = (c.opts & TFG_OPT_SINGLE) ? 1 : 2;
  const int pad = (c.opts & TFG_OPT_NOPAD) ? 0 : 1;
  return bufs * 16ull * static_cast<std::uint64_t>(c.bk * (c.bm / vw + pad) + c.bk * (c.bn / vw + pad));
}

bool gemm_config_valid(DType d, const GemmConfig& c, const DeviceCaps& caps) {
  if (c.small) return c == GemmConfig{.small = true};
  const int vw = gemm_words_of(d);
  if (!pow2(c.bm) || !pow2(c.bn) || !pow2(c.bk) || !pow2(c.tm) || !pow2(c.tn)) return false;
  if (c.bm > 1 << 15 || c.bn > 1 << 15 || c.bk > 1 << 15) return false;
  if (c.tm % vw || c.tn % vw || c.bk % vw || c.bm % c.tm || c.bn % c.tn) return false;
  constexpr std::uint32_t kKnown = TFG_OPT_WARP | TFG_OPT_WARP_T | TFG_OPT_FAST | TFG_OPT_SINGLE | TFG_OPT_REGDB |
                                   TFG_OPT_GROUP | TFG_OPT_NOPAD;
  if ((c.opts & ~kKnown) != 0 || c.split < 0) return false;
  if ((c.roll != 0 && c.roll != 1 && c.roll != 2 && c.roll != 4) || c.roll > c.bk) return false;
  if (c.roll != 0 && (c.opts & TFG_OPT_REGDB)) return false;
  if (c.interior_loop && !(c.opts & TFG_OPT_FAST)) return false;
  if (c.lean && !c.interior_loop) return false;
  if (c.pair && !(c.opts & TFG_OPT_WARP)) return false;
  const int rm = c.bm / c.tm, rn = c.bn / c.tn, nt = rm * rn;
  if (c.opts & TFG_OPT_WARP_T && !(c.opts & TFG_OPT_WARP)) return false;
  if (c.opts & TFG_OPT_WARP) {
    const int wr = (c.opts & TFG_OPT_WARP_T) ? 4 : 8, wc = 32 / wr;
    if (rm % wr || rn % wc || nt % 32) return false;
  }
  if (c.opts & TFG_OPT_FAST && ((c.bm * c.bk / vw) % nt || (c.bn * c.bk / vw) % nt)) return false;
  const auto nt32 = static_cast<std::uint32_t>(nt);
  return nt32 <= 1024 && nt32 <= caps.max_group_size_x && gemm_shared_bytes(c, d) <= caps.max_shared_memory;
}

bool gemm_config_valid_on(Backend& be, DType d, const GemmConfig& c) {
  return gemm_config_valid(d, c, static_cast<VulkanBackend&>(be).device().caps());
}

std::string gemm_config_string(const GemmConfig& c) {
  if (c.small) return "small";
  char o[16] = {0};
  int n = 0;
  if (c.opts & TFG_OPT_WARP) o[n++] = (c.opts & TFG_OPT_WARP_T) ? 't' : 'w';
  if (c.opts & TFG_OPT_FAST) o[n++] = 'f';
  if (c.opts & TFG_OPT_SINGLE) o[n++] = 's';
  if (c.opts & TFG_OPT_REGDB) o[n++] = 'r';
  if (c.opts & TFG_OPT_GROUP) o[n++] = 'g';
  if (c.opts & TFG_OPT_NOPAD) o[n++] = 'x';
  if (c.roll != 0) o[n++] = c.roll == 1 ? 'n' : c.roll == 2 ? 'p' : 'q';
  if (c.interior_loop) o[n++] = 'u';
  if (c.lean) o[n++] = 'l';
  if (c.pair) o[n++] = 'y';
  if (n == 0) o[n++] = '-';
  char buf[96];
  std::snprintf(buf, sizeof buf, "%d,%d,%d,%d,%d,%s,%d", c.bm, c.bn, c.bk, c.tm, c.tn, o, c.split);
  return buf;
}

std::optional<GemmConfig> parse_gemm_config(std::string_view s) {
  if (s == "small") return GemmConfig{.small = true};
  GemmConfig c;
  char opts[16] = {0};
  int split = 0;
  const std::string str(s);
  const int n = std::sscanf(str.c_str(), "%d,%d,%d,%d,%d,%15[-wtfsrgxnpquly],%d", &c.bm, &c.bn, &c.bk, &c.tm, &c.tn, opts, &split);
  if (n < 5) return std::nullopt;
  for (const char* q = opts; *q; ++q) {
    switch (*q) {
      case 'w': c.opts |= TFG_OPT_WARP; break;
      case 't': c.opts |= TFG_OPT_WARP | TFG_OPT_WARP_T; break;
      case 'f': c.opts |= TFG_OPT_FAST; break;
      case 's': c.opts |= TFG_OPT_SINGLE; break;
      case 'r': c.opts |= TFG_OPT_REGDB; break;
      case 'g': c.opts |= TFG_OPT_GROUP; break;
      case 'x': c.opts |= TFG_OPT_NOPAD; break;
      case 'n': c.roll = 1; break;
      case 'p': c.roll = 2; break;
      case 'q': c.roll = 4; break;
      case 'u': c.interior_loop = true; break;
      case 'l': c.lean = true; break;
      case 'y': c.pair = true; break;
      default: break;  // '-'
    }
  }
  c.split = n >= 7 ? split : 0;
  return c;
}

}  // namespace tenferro::vk
