#include "vulkan/kernels/dispatch.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>
#include <optional>
#include <string_view>

#include "vulkan/options.hpp"
#include "vulkan/runtime/shaders.hpp"

namespace tenferro::vk {

std::string type_tag(DType d) { return std::string(dtype_name(d)); }

std::string arith_tag(const VulkanBackend& be, DType d) {
  const DeviceCaps& caps = be.device().caps();
  const F32ViaF64 mode = be.accuracy().f32_via_f64;
  // C32 only when forced: on the H200 its wide mul took 3.6x the c32 kernel's time (mul_c32,
  // tenferro_bench_vk; the product's inf / NaN path flattened in f64, see complex.glsl).
  const bool wide = caps.f64 && ((d == DType::F32 && (mode == F32ViaF64::always || (mode == F32ViaF64::where_flushed && caps.flushes_f32))) ||
                                 (d == DType::C32 && mode == F32ViaF64::always));
  return wide ? type_tag(d) + "w" : type_tag(d);
}

// (Appending avoids a GCC 12 -Wrestrict false positive on "b" + std::string.)
std::string bits_tag(DType d) {
  std::string tag = "b";
  tag += std::to_string(dtype_size(d));
  return tag;
}

bool needs_idx64(std::int64_t reach) { return reach >= kIdx32Limit || test_hooks().force_idx64; }

namespace {
// Contiguous fast path flags in KernelParams::rank (mirrors shaders/common/index.glsl).
constexpr std::uint32_t kContigBcast = 1;  // << j: operand j has stride 0
constexpr std::uint32_t kContigVec = 16;   // every stride-1 operand is aligned for 4-element accesses
constexpr std::int64_t kContigElems = 4;   // elements per invocation per grid-stride step
// Generic strided path (rank <= 2, or no inner-block table): at most kStridedElems elements per
// invocation, keeping at least kStridedGroups workgroups.
constexpr std::int64_t kStridedElems = 16, kStridedGroups = 1024;
// Inner-block table of the strided path for rank > 2 (shaders/common/index.glsl): the first axes
// holding kTabMin..kTab elements, at most kTabOuter axes left; at most kTabGroups workgroups,
// each walking many blocks so that its table pays off.
constexpr std::int64_t kTab = 1024, kTabMin = 256, kTabOuter = 48, kTabGroups = 1024;

// permute_<bits>: TA x TB = 1024-element tiles (TA, TB powers of two in [4, 256]), 256
// invocations (shaders/copy/permute.comp); a group takes axes until it reaches kTile indices.
constexpr std::int64_t kTile = 32;
constexpr std::int64_t kTileElems = 1024;
// Direct mode (src's and dst's fastest axes coincide: no shared tile) takes tiles of up to
// kDirectA x kDirectB indices (64 elements per invocation), so that the offset tables and the
// barriers of a tile are paid once per 16384 elements instead of once per 1024 (H200: a
// 328 MiB f64 copy [3, 59049, 3, 81] -> [3, 3, 59049, 81] of str_nw_mera_open_26 ran at
// 1.0 TB/s on 32 x 32 tiles).
constexpr std::int64_t kDirectA = 256, kDirectB = 64, kDirectMinB = 16;
// A workgroup copies its tile for up to kPermuteMaxRc indices of the remaining axes (R), so
// that about kPermuteGroups workgroups remain (the shader's base_off[64] holds one chunk); on
// CPU devices (lavapipe) kPermuteGroupsCpu: a few cores need few workgroups, and the tests
// there then run the chunked loop in both modes.
constexpr std::int64_t kPermuteGroups = 2048, kPermuteGroupsCpu = 16, kPermuteMaxRc = 64;
static_assert(kPermuteMaxRc <= 64, "permute.comp: shared ivec2 base_off[64]");
constexpr std::uint32_t kPermuteLocal = 256;
constexpr std::uint32_t kPermuteShared16 = (1024 + 256) * 16 + 4 * 256 * 4 + 64 * 8;  // bytes for 16-byte elements

// log2 of the smallest power of two >= n, clamped to [2, 8] (tile sides 4..256).
std::int64_t tile_log2(std::int64_t n) {
  std::int64_t l = 2;
  while (l < 8 && (std::int64_t{1} << l) < n) ++l;
  return l;
}

// Kernels with a `<kernel>_<type>_contig` variant (shaders/variants.cmake makes one for every type
// of their generic variants), read off the embedded shader table once.
bool has_contig_variant(std::string_view kernel) {
  static const std::vector<std::string> kernels = [] {
    std::vector<std::string> k;
    constexpr std::string_view kSuffix = "_contig";
    for (const EmbeddedShader& s : embedded_shaders()) {
      if (!s.name.ends_with(kSuffix)) continue;
      const std::string_view typed = s.name.substr(0, s.name.size() - kSuffix.size());  // <kernel>_<type>
      const std::string_view name = typed.substr(0, typed.rfind('_'));
      if (std::find(k.begin(), k.end(), name) == k.end()) k.emplace_back(name);
    }
    return k;
  }();
  return std::find(kernels.begin(), kernels.end(), kernel) != kernels.end();
}

}  // namespace

bool contig_layouts(const std::vector<Layout>& ls, std::uint32_t& flags) {
  flags = 0;
  if (ls[0].shape.size() > 1) return false;
  if (ls[0].shape.empty()) return true;  // numel 1: only element 0 is touched
  for (std::size_t j = 0; j < ls.size(); ++j) {
    const std::int64_t s = ls[j].strides[0];
    if (s == 0 && j > 0) {
      flags |= kContigBcast << j;
    } else if (s != 1) {
      return false;
    }
  }
  return true;
}

namespace {
// Every axis of extent > 1 has stride 0: one element broadcast to the whole shape.
bool is_broadcast_scalar(const Layout& l) {
  for (std::size_t k = 0; k < l.shape.size(); ++k)
    if (l.shape[k] != 1 && l.strides[k] != 0) return false;
  return true;
}

// Shader variant name <kernel>_<type><suffix>, built without allocating.
class VariantName {
 public:
  VariantName(std::string_view kernel, std::string_view type, std::string_view suffix) {
    append(kernel);
    append("_");
    append(type);
    append(suffix);
  }
  std::string_view view() const { return {buf_, n_}; }

 private:
  void append(std::string_view s) {
    TENFERRO_ASSERT(n_ + s.size() <= sizeof buf_);
    std::memcpy(buf_ + n_, s.data(), s.size());
    n_ += s.size();
  }
  char buf_[64];
  std::size_t n_ = 0;
};

// Binds `variant` specialized for `op` and records L (launch_with, dispatch.hpp).
void launch(VulkanBackend& be, std::string_view variant, int op, Launch& L, std::span<const std::int64_t> words,
            std::span<const TensorView* const> operands) {
  launch_with(be, [&] { return be.pipelines().get(variant, op, L.local, L.aux); }, L, words, operands);
}

// The `_contig` variant: operand j's element 0 at offsets[j] (a compact run of numel elements,
// or one element when bit j of `flags` marks a broadcast scalar).
void record_contig(VulkanBackend& be, const Dispatch& d, std::int64_t numel, std::uint32_t flags,
                   const std::int64_t* offsets) {
  Launch L;
  bool vec_ok = true;
  for (std::size_t j = 0; j < d.nops; ++j) {
    const TensorView& v = *d.operands[j];
    const std::uint64_t es = dtype_size(v.dtype());
    const bool bcast = (flags & (kContigBcast << j)) != 0;
    const std::uint64_t first =
        VulkanBackend::storage_of(v).allocation().address + static_cast<std::uint64_t>(offsets[j]) * es;
    L.range(j, {first, first + static_cast<std::uint64_t>(bcast ? 1 : numel) * es});
    L.p.addr[j] = first;
    // Vector accesses need min(16, 4 * element size) byte alignment of every stride-1 operand.
    if (!bcast && first % std::min<std::uint64_t>(16, 4 * es) != 0) vec_ok = false;
  }
  L.p.numel = numel;
  L.p.value[0] = d.value[0];
  L.p.value[1] = d.value[1];
  L.p.rank = flags | (vec_ok ? kContigVec : 0u);
  L.p.tag = d.tag;
  // One invocation per 4 elements; beyond the group-count cap the grid-stride loop covers the rest.
  const std::int64_t per_group = std::int64_t{L.local} * kContigElems;
  L.groups = (numel + per_group - 1) / per_group;
  std::optional<FamilyScope> family;
  if (d.kernel == "copy") family.emplace(KernelFamily::copy);
  launch(be, VariantName(d.kernel, d.type, "_contig").view(), d.op, L, {}, {d.operands.data(), d.nops});
}
}  // namespace

std::uint32_t grid_stride_groups(const VulkanBackend& be, std::int64_t n, std::uint32_t threads) {
  const std::int64_t t = threads;
  return static_cast<std::uint32_t>(
      std::min<std::int64_t>((n + t - 1) / t, be.device().caps().max_group_count_x));
}

std::vector<std::int64_t> layout_block(const std::vector<Layout>& ls, std::int64_t numel, std::int64_t& reach) {
  const std::size_t rank = ls[0].shape.size(), nops = ls.size();
  std::vector<std::int64_t> words(rank + nops * (rank + 1));
  reach = numel;
  for (std::size_t k = 0; k < rank; ++k) words[k] = ls[0].shape[k];
  for (std::size_t j = 0; j < nops; ++j) {
    std::int64_t* w = words.data() + rank + j * (rank + 1);
    w[0] = ls[j].offset;
    std::int64_t span = ls[j].offset;
    for (std::size_t k = 0; k < rank; ++k) {
      w[1 + k] = ls[j].strides[k];
      span += (ls[j].shape[k] - 1) * (ls[j].strides[k] < 0 ? -ls[j].strides[k] : ls[j].strides[k]);
    }
    reach = std::max(reach, span);
  }
  return words;
}

ByteRange range_of(const TensorView& v) {
  if (v.numel() == 0) return {};
  const std::uint64_t a = VulkanBackend::storage_of(v).allocation().address;
  const std::uint64_t es = dtype_size(v.dtype());
  return {a + static_cast<std::uint64_t>(v.layout().min_offset()) * es,
          a + static_cast<std::uint64_t>(v.layout().max_offset() + 1) * es};
}

void record_dispatch(VulkanBackend& be, const Dispatch& d) {
  const std::size_t nops = d.nops;
  TENFERRO_ASSERT(nops >= 1 && nops <= TF_MAX_OPERANDS);
  const std::int64_t numel = d.operands[0]->numel();
  if (numel == 0) return;
  const bool contig_kernel = has_contig_variant(d.kernel) && !needs_idx64(numel);
  std::int64_t offsets[TF_MAX_OPERANDS] = {};

  // Small-op path: compact operands (inputs may also be broadcast scalars) need no coalescing.
  if (contig_kernel) {
    std::uint32_t flags = 0;
    bool ok = true;
    for (std::size_t j = 0; j < nops && ok; ++j) {
      const Layout& l = d.operands[j]->layout();
      offsets[j] = l.offset;
      if (l.is_compact()) continue;
      if (j > 0 && is_broadcast_scalar(l))
        flags |= kContigBcast << j;
      else
        ok = false;
    }
    if (ok) return record_contig(be, d, numel, flags, offsets);
  }

  std::vector<Layout> ls;
  ls.reserve(nops);
  for (std::size_t j = 0; j < nops; ++j) ls.push_back(d.operands[j]->layout());
  ls = coalesce_jointly(ls);
  std::uint32_t flags = 0;
  if (contig_kernel && contig_layouts(ls, flags)) {
    for (std::size_t j = 0; j < nops; ++j) offsets[j] = ls[j].offset;
    return record_contig(be, d, numel, flags, offsets);
  }
  const std::size_t rank = ls[0].shape.size();

  std::int64_t reach = 0;
  const std::vector<std::int64_t> words = layout_block(ls, numel, reach);
  const bool idx64 = needs_idx64(reach);
  if (d.kernel == "copy" && !idx64 && rank >= 2 &&
      record_permute(be, *d.operands[0], *d.operands[1], ls))
    return;

  Launch L;
  for (std::size_t j = 0; j < nops; ++j) {
    const TensorView& v = *d.operands[j];
    L.range(j, range_of(v));
    L.p.addr[j] = VulkanBackend::storage_of(v).allocation().address;
  }
  L.p.numel = numel;
  L.p.value[0] = d.value[0];
  L.p.value[1] = d.value[1];
  L.p.tag = d.tag;
  // Rank > 2: the inner-block table when the first axes make a block of kTabMin..kTab elements.
  std::size_t kin = 0;
  std::int64_t block = 1;
  if (rank > 2) {
    while (kin < rank && block * ls[0].shape[kin] <= kTab) block *= ls[0].shape[kin++];
    if (kin == 0 || kin == rank || block < kTabMin || block < L.local ||
        rank - kin > static_cast<std::size_t>(kTabOuter))
      kin = 0;
  }
  L.p.rank = static_cast<std::uint32_t>(rank | kin << 8);
  if (kin > 0) {
    L.aux = 1;  // the table's shared memory is declared only in these pipelines
    L.groups = std::min(numel / block, kTabGroups);
  } else {
    // Several elements per invocation (the grid-stride loop visits them, warp-coalesced each
    // pass) for large outputs, where the per-invocation reads of the layout block and the
    // workgroups' launches would otherwise cost as much as the elements (H200, f64 4096 x 4096
    // outer product): the largest power of two up to kStridedElems that leaves at least
    // kStridedGroups workgroups.
    std::int64_t per_inv = 1;
    while (per_inv * 2 <= kStridedElems && numel / (L.local * per_inv * 2) >= kStridedGroups) per_inv *= 2;
    L.groups = (numel + L.local * per_inv - 1) / (L.local * per_inv);
  }
  std::optional<FamilyScope> family;
  if (d.kernel == "copy") family.emplace(KernelFamily::permute);
  launch(be, VariantName(d.kernel, d.type, idx64 ? "_idx64" : "").view(), d.op, L, words, {d.operands.data(), nops});
}

bool record_permute(VulkanBackend& be, const TensorView& dst, const TensorView& src, const std::vector<Layout>& ls) {
  const std::size_t es = dtype_size(dst.dtype());
  if (es == 16 && be.device().caps().max_shared_memory < kPermuteShared16) return false;
  const Layout &ld = ls[0], &lsrc = ls[1];
  const std::size_t rank = ld.shape.size();
  auto mag = [](std::int64_t s) { return s < 0 ? -s : s; };
  std::vector<std::size_t> by_dst(rank), by_src(rank);
  std::iota(by_dst.begin(), by_dst.end(), std::size_t{0});
  std::iota(by_src.begin(), by_src.end(), std::size_t{0});
  std::stable_sort(by_dst.begin(), by_dst.end(), [&](std::size_t a, std::size_t b) { return mag(ld.strides[a]) < mag(ld.strides[b]); });
  std::stable_sort(by_src.begin(), by_src.end(), [&](std::size_t a, std::size_t b) { return mag(lsrc.strides[a]) < mag(lsrc.strides[b]); });

  // Groups of axes taken in `order` (skipping used ones) until their extents reach `side`;
  // `fit`: only axes whose extents keep the group within `side`.
  std::vector<bool> used(rank, false);
  auto take = [&](const std::vector<std::size_t>& order, std::size_t skip, std::int64_t side = kTile,
                  bool fit = false) {
    std::vector<std::size_t> g;
    std::int64_t ext = 1;
    for (std::size_t a : order) {
      if (ext >= side) break;
      if (used[a] || a == skip) continue;
      if (fit && ext * ld.shape[a] > side) break;
      g.push_back(a);
      used[a] = true;
      ext *= ld.shape[a];
    }
    return g;
  };
  // Direct mode when both fastest axes coincide; else B = src's fastest axes (never dst's
  // fastest one), A = dst's fastest of the rest.
  const bool direct = by_dst[0] == by_src[0];
  bool small_direct = false;  // direct mode on 32 x 32 tiles
  std::vector<std::size_t> A, B;
  if (direct) {
    A = take(by_dst, rank, kDirectA);
    B = take(by_dst, rank, kDirectB);
    // When A took (nearly) every axis, the B side of the large tile would sit idle. A then
    // takes only the axes that fit kDirectA whole and B the long tail (a merged 24-d pattern
    // of 2s, [16, 2, 2, 2, 131072] in dst order: 128 x 64 tiles; on 256 x 4 it ran 20x slower
    // than PyTorch, on 32 x 32 4x, H200). Where even the first axis exceeds kDirectA: 32 x 32.
    std::int64_t ext_b0 = 1;
    for (std::size_t a : B) ext_b0 *= ld.shape[a];
    if (ext_b0 < kDirectMinB) {
      std::fill(used.begin(), used.end(), false);
      A = take(by_dst, rank, kDirectA, true);
      if (A.empty()) {
        A = take(by_dst, rank);
        small_direct = true;
      }
      B = take(by_dst, rank, small_direct ? kTile : kDirectB);
    }
  } else {
    B = take(by_src, by_dst[0]);
    A = take(by_dst, rank);
  }
  std::vector<std::size_t> R;
  for (std::size_t a : by_dst)
    if (!used[a]) R.push_back(a);

  auto extent = [&](const std::vector<std::size_t>& g) {
    std::int64_t e = 1;
    for (std::size_t a : g) e *= ld.shape[a];
    return e;
  };
  const std::int64_t ext_a = extent(A), ext_b = extent(B), batch = extent(R);
  // 32 x 32 tiles, unless a group ran out of axes below 32 indices: then that side shrinks to
  // the next power of two (>= 4) and the other side grows to keep 1024 elements per tile.
  std::int64_t log_a = 5, log_b = 5;
  if (direct && !small_direct) {  // no shared tile: up to kDirectA x kDirectB indices per tile
    log_a = tile_log2(ext_a);
    log_b = std::min<std::int64_t>(tile_log2(ext_b), std::countr_zero(static_cast<std::uint64_t>(kDirectB)));
  } else if (ext_b < kTile) {
    log_b = tile_log2(ext_b);
    log_a = 10 - log_b;
  } else if (ext_a < kTile) {
    log_a = tile_log2(ext_a);
    log_b = 10 - log_a;
  }
  static_assert(kTileElems == 1024 && kDirectA <= 256 && kDirectB <= 256);  // tab[4][256] in permute.comp
  const std::int64_t side_a = std::int64_t{1} << log_a, side_b = std::int64_t{1} << log_b;
  const std::int64_t tiles_a = (ext_a + side_a - 1) / side_a, tiles_b = (ext_b + side_b - 1) / side_b;
  const std::int64_t ntiles = tiles_a * tiles_b * batch;
  if (ntiles >= kIdx32Limit) return false;
  // R indices per workgroup iteration: enough to amortize the tables, while keeping about
  // kPermuteGroups workgroups.
  const bool cpu = be.device().caps().device_type == VK_PHYSICAL_DEVICE_TYPE_CPU;
  const std::int64_t rc = std::clamp<std::int64_t>(ntiles / (cpu ? kPermuteGroupsCpu : kPermuteGroups), 1, kPermuteMaxRc);
  const std::int64_t groups = tiles_a * tiles_b * ((batch + rc - 1) / rc);

  std::vector<std::int64_t> words = {static_cast<std::int64_t>(A.size()), static_cast<std::int64_t>(B.size()),
                                     static_cast<std::int64_t>(R.size()), ext_a, ext_b, tiles_a, tiles_b, groups,
                                     direct ? 1 : 0, ld.offset, lsrc.offset, log_a, log_b, batch, rc};
  for (const auto* g : {&A, &B, &R})
    for (std::size_t a : *g) words.insert(words.end(), {ld.shape[a], ld.strides[a], lsrc.strides[a]});

  Launch L;
  L.local = kPermuteLocal;
  L.range(0, range_of(dst));
  L.range(1, range_of(src));
  L.p.addr[0] = VulkanBackend::storage_of(dst).allocation().address;
  L.p.addr[1] = VulkanBackend::storage_of(src).allocation().address;
  L.p.numel = dst.numel();
  L.p.rank = static_cast<std::uint32_t>(rank);
  L.groups = groups;
  L.aux = direct ? 1 : 0;  // permute.comp's TF_PERMUTE_DIRECT
  const TensorView* ops[2] = {&dst, &src};
  FamilyScope family(KernelFamily::permute);
  launch(be, VariantName("permute", bits_tag(dst.dtype()), "").view(), 0, L, words, ops);
  return true;
}

}  // namespace tenferro::vk
