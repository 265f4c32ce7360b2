// Fusion plans (tenferro/fusion.hpp) as one generated kernel: GLSL written from the plan,
// compiled at run time (runtime/compiler.hpp) and cached by the plan's structure, so that a
// chain such as exp(sin(x) * y + 1) reads its inputs once and writes its result once.
//
// Same results as the unfused chain, bit for bit (but for the sign and payload of NaN results,
// which compilers choose): each step calls the function the single-op kernel of that op calls
// (elementwise/ops.glsl, elementwise/analytic.glsl, the math library's pow), on the element
// type that kernel's variant computes in (arith_tag: f32 elements in f64 where the device
// flushes f32 subnormals, rounded back to f32 after every step as the unfused chain's stores
// round them); sums and products are `precise`, so no product is contracted into the next
// step's sum. tests/conformance/fusion_test.cpp checks this on random plans.
//
// What is generated: one element type T (the plan's dtype) for every value but Bool ones:
// compare results and select predicates, which may also be inputs. Plans outside that (complex
// abs, whose result is real; Bool arithmetic or Bool branches; more than Launch::kMaxOperands
// operands; an output sharing storage with an input) take the step-by-step path
// (Backend::fused), which gives the same results.
//
// Layouts: when every operand is one compact run after joint coalescing (inputs may be
// broadcast scalars, loaded once per invocation), a grid-stride loop over the elements;
// otherwise the strided walk of common/index.glsl over the jointly coalesced layout block.
//
// A plan ending in a reduction: the reduce kernel (shaders/reduce/) with its loads replaced by
// the chain, when every input is compact in the plan's shape or a broadcast scalar: the unfused
// reduce's passes and geometry over the chain's values, no intermediate tensor. Max and min are
// the unfused ones; float sums and products agree within the reordering the contract allows
// (the compiler may schedule them otherwise around the computed elements). Other layouts: the
// chain into a compact tensor, then the reduce kernel.
//
// Operand addresses follow the layout block in the uploaded words (p.value[0] = its length):
// KernelParams holds four addresses, a plan may have sixteen operands.
#include <string>
#include <vector>

#include "shaders/common/params.h"
#include "shaders/reduce/reduce.h"
#include "vulkan/kernels/dispatch.hpp"
#include "vulkan/runtime/compiler.hpp"

namespace tenferro::vk {

namespace {

enum class Kind : std::uint8_t { none, t, boolean };  // a value's kind (none: an unused input)

// How the generated kernel computes the plan: its element type and the choices that depend on
// the device (the key of the cached pipeline covers everything that shapes the source).
struct Form {
  DType dtype = DType::F32;  // of every non-Bool value
  std::string tag;           // arith_tag: f32 f32w f64 c32 c32w c64 i32 i64
  bool wide = false;         // f32 / c32 computed in f64 / c64, rounded after each step
  bool pow_f64_from_f32 = false;  // f32 pow through the f64 math library (pow_f32's form)
  bool analytic = false, pow = false;
  std::vector<Kind> in_kind, step_kind;
};

// The plan's form, or false when it is outside what the generator writes (see the top):
// inputs of `shape` (the plan's, before any reduction) none of which shares `out`'s storage.
bool analyze(const VulkanBackend& be, const FusionPlan& plan, std::span<const TensorView> inputs,
             const Shape& shape, const TensorView& out, Form& f) {
  if (plan.steps.empty() || inputs.size() + 1 > Launch::kMaxOperands) return false;
  f.in_kind.assign(inputs.size(), Kind::none);
  bool have_dtype = false;
  auto want_t = [&](DType d) {
    if (d == DType::Bool) return false;
    if (!have_dtype) f.dtype = d, have_dtype = true;
    return d == f.dtype;
  };
  // Each argument's use: T for arithmetic operands, Bool for a select's predicate.
  auto use = [&](int a, Kind k) {
    if (a >= 0) {
      if (static_cast<std::size_t>(a) >= f.step_kind.size()) return false;
      return f.step_kind[static_cast<std::size_t>(a)] == k;
    }
    const std::size_t i = static_cast<std::size_t>(-a - 1);
    if (i >= inputs.size()) return false;
    const DType d = inputs[i].dtype();
    if (k == Kind::boolean ? d != DType::Bool : !want_t(d)) return false;
    f.in_kind[i] = k;
    return true;
  };
  for (const FusionStep& s : plan.steps) {
    const OpFamily fam = op_info(s.op).family;
    const std::size_t n = s.args.size();
    bool ok = false;
    switch (fam) {
      case OpFamily::unary:
      case OpFamily::analytic:
        ok = n == 1 && use(s.args[0], Kind::t);
        f.analytic = f.analytic || fam == OpFamily::analytic;
        break;
      case OpFamily::binary:
      case OpFamily::compare:
        ok = n == 2 && use(s.args[0], Kind::t) && use(s.args[1], Kind::t);
        f.pow = f.pow || s.op == OpId::pow;
        break;
      case OpFamily::select:
        ok = n == 3 && use(s.args[0], Kind::boolean) && use(s.args[1], Kind::t) && use(s.args[2], Kind::t);
        break;
      case OpFamily::clamp:
        ok = n == 3 && use(s.args[0], Kind::t) && use(s.args[1], Kind::t) && use(s.args[2], Kind::t);
        break;
      TENFERRO_OP_FAMILIES_NOT_ELEMENTWISE:
        break;
    }
    if (!ok) return false;
    f.step_kind.push_back(fam == OpFamily::compare ? Kind::boolean : Kind::t);
  }
  if (!have_dtype) return false;
  // Complex abs has a real result (its own kernel); every other op keeps T.
  for (const FusionStep& s : plan.steps)
    if (s.op == OpId::abs && is_complex(f.dtype)) return false;
  if (f.analytic && !supports_analytic(be.device().caps(), OpId::exp, f.dtype)) return false;
  const Kind last = f.step_kind.back();
  if (out.dtype() != (last == Kind::boolean ? DType::Bool : f.dtype)) return false;
  for (const TensorView& in : inputs)
    if (in.shape() != shape || in.storage() == out.storage()) return false;
  f.tag = arith_tag(be, f.dtype);
  f.wide = f.tag.ends_with("w");
  f.pow_f64_from_f32 = f.pow && f.dtype == DType::F32 && !f.wide && be.device().caps().f64;
  return true;
}

const char* glsl_dtype_define(const Form& f) {
  switch (f.dtype) {
    case DType::F32: return f.wide ? "DT_F64" : "DT_F32";
    case DType::F64: return "DT_F64";
    case DType::C32: return f.wide ? "DT_C64" : "DT_C32";
    case DType::C64: return "DT_C64";
    case DType::I32: return "DT_I32";
    case DType::I64: return "DT_I64";
    case DType::Bool: break;
  }
  return "DT_BOOL";
}

using detail::cat;

std::string value_name(int a) { return a < 0 ? cat("x", -a - 1) : cat("v", a); }

// The expression of step s over argument names `a`, and whether it rounds (wide form).
std::string step_expr(const Form& f, const FusionStep& s, const std::vector<std::string>& a, bool& rounds) {
  const int code = static_cast<int>(s.op);
  rounds = false;
  switch (op_info(s.op).family) {
    case OpFamily::unary: return cat("unary_op_k(", code, ", ", a[0], ")");
    case OpFamily::analytic: rounds = true; return cat("analytic_op_k(", code, ", ", a[0], ")");
    case OpFamily::binary:
      rounds = true;
      if (s.op == OpId::pow && !is_integer(f.dtype)) {
        if (is_complex(f.dtype)) return cat("cm_pow(", a[0], ", ", a[1], ")");
        if (f.dtype == DType::F64 || f.wide) return cat("m_pow(", a[0], ", ", a[1], ")");
        if (f.pow_f64_from_f32)
          return cat("uintBitsToFloat(f32_narrow(m_pow(f32_widen(floatBitsToUint(", a[0],
                     ")), f32_widen(floatBitsToUint(", a[1], ")))))");
      }
      return cat("binary_op_k(", code, ", ", a[0], ", ", a[1], ")");
    case OpFamily::compare: return cat("compare_op_k(", static_cast<int>(s.dir), ", ", a[0], ", ", a[1], ")");
    case OpFamily::select: return cat(a[0], " ? ", a[1], " : ", a[2]);
    case OpFamily::clamp: rounds = true; return cat("op_min(op_max(", a[0], ", ", a[1], "), ", a[2], ")");
    TENFERRO_OP_FAMILIES_NOT_ELEMENTWISE:
      break;
  }
  TENFERRO_FAIL(internal, "fused", "plan", "[vulkan] not an elementwise step");
}

// The source's first lines: the element type, index width and library switches.
std::string preamble(const Form& f, bool idx64) {
  std::string s = "#version 450\n#extension GL_GOOGLE_include_directive : require\n";
  s += "// Generated by tenferro (src/vulkan/kernels/fused.cpp): one fusion plan.\n#define TF_FUSED 1\n";
  s += cat("#define ", glsl_dtype_define(f), "\n");
  if (f.wide) s += "#define TF_F32_STORAGE\n";
  if (f.pow_f64_from_f32) s += "#define TF_F32_BITS_WIDE\n";
  if (idx64) s += "#define IDX64\n";
  return s;
}

// What the steps call, after the kernel's declarations (types, params, access, complex).
std::string step_library(const Form& f) {
  std::string s = "uint tf_tag = 0u;  // the step whose error is raised\n#define TF_ERROR_TAG tf_tag\n";
  s += "#include \"common/errors.glsl\"\n";
  if (f.analytic || f.pow) {
    const bool f64 = f.dtype == DType::F64 || f.dtype == DType::C64 || f.wide || f.pow_f64_from_f32;
    s += f64 ? "#include \"common/math_f64.glsl\"\n" : "#include \"common/math_f32.glsl\"\n";
    if (is_complex(f.dtype)) s += "#include \"common/math_complex.glsl\"\n";
  }
  if (f.analytic) s += "#include \"elementwise/analytic.glsl\"\n";
  s += "#include \"elementwise/ops.glsl\"\n";
  if (f.wide) s += "T tf_round(T x) { return f32_widen(f32_narrow(x)); }  // the unfused chain's store\n";
  s += "layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer TfAddrs { uint64_t a[]; };\n";
  return s;
}

// Input i (address a<i + 1>) loaded at `off` into x<i>; `decl`: with its declaration.
std::string load(const Form& f, std::size_t i, std::string_view indent, std::string_view off, bool decl = true) {
  const bool b = f.in_kind[i] == Kind::boolean;
  return cat(indent, decl ? (b ? "const bool " : "const T ") : "", value_name(-static_cast<int>(i) - 1),
             b ? " = load_bool(a" : " = load_T(a", i + 1, ", ", off, ");\n");
}

// The steps as statements; the result is value_name(steps - 1).
std::string steps(const Form& f, const FusionPlan& plan, std::string_view indent) {
  std::string body;
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    const FusionStep& st = plan.steps[k];
    std::vector<std::string> a;
    for (int x : st.args) a.push_back(value_name(x));
    bool rounds = false;
    const std::string e = step_expr(f, st, a, rounds), v = value_name(static_cast<int>(k));
    if (is_integer(f.dtype) && (st.op == OpId::div || st.op == OpId::rem || st.op == OpId::pow))
      body += cat(indent, "tf_tag = ", static_cast<int>(st.op) + 1, "u;\n");
    body += cat(indent, f.step_kind[k] == Kind::boolean ? "const bool " : "precise T ", v, " = ", e, ";\n");
    if (f.wide && rounds) body += cat(indent, v, " = tf_round(", v, ");\n");
  }
  return body;
}

// The elementwise kernel. `contig`: one compact run per operand, `bcast` bit i + 1 marking
// input i as a broadcast scalar; else the strided walk over `nops` operands. Address table:
// [out, inputs...].
std::string generate(const Form& f, const FusionPlan& plan, bool contig, std::uint32_t bcast, bool idx64,
                     std::size_t nops) {
  std::string s = preamble(f, idx64);
  if (!contig) s += cat("#define TF_INDEX_OPERANDS ", nops, "\n");
  s += "#include \"common/types.glsl\"\n#include \"common/params.h\"\n";
  s += "layout(local_size_x_id = 0) in;\nlayout(push_constant) uniform Push { KernelParams p; };\n";
  s += "#include \"common/access.glsl\"\n";
  if (!contig) s += "#include \"common/index.glsl\"\n";
  s += "#include \"common/complex.glsl\"\n" + step_library(f);
  const std::string result = value_name(static_cast<int>(plan.steps.size()) - 1);
  auto store = [&](std::string_view off) {
    return cat(f.step_kind.back() == Kind::boolean ? "    store_bool(a0, " : "    store_T(a0, ", off, ", ", result, ");\n");
  };
  s += "void main() {\n  TfAddrs A = TfAddrs(p.layout_addr + 8ul * p.value[0]);\n";
  for (std::size_t j = 0; j < nops; ++j)
    if (j == 0 || f.in_kind[j - 1] != Kind::none) s += cat("  const uint64_t a", j, " = A.a[", j, "];\n");
  auto is_bcast = [&](std::size_t i) { return contig && (bcast >> (i + 1) & 1u) != 0; };
  if (contig) {
    for (std::size_t i = 0; i < f.in_kind.size(); ++i)
      if (f.in_kind[i] != Kind::none && is_bcast(i)) s += load(f, i, "  ", "IDX(0)");
    s += "  const IDX n = IDX(p.numel), step = IDX(gl_NumWorkGroups.x) * IDX(gl_WorkGroupSize.x);\n";
    s += "  for (IDX i = IDX(gl_GlobalInvocationID.x); i < n; i += step) {\n";
    for (std::size_t i = 0; i < f.in_kind.size(); ++i)
      if (f.in_kind[i] != Kind::none && !is_bcast(i)) s += load(f, i, "    ", "i");
    s += steps(f, plan, "    ") + store("i") + "  }\n}\n";
  } else {
    s += cat("  TF_FOR_EACH_ELEMENT(i, ", nops, "u) {\n    IDX o[TF_INDEX_OPERANDS];\n    operand_offsets(i, ", nops,
             "u, o);\n");
    for (std::size_t i = 0; i < f.in_kind.size(); ++i)
      if (f.in_kind[i] != Kind::none) s += load(f, i, "    ", cat("o[", i + 1, "]"));
    s += steps(f, plan, "    ") + store("o[0]") + "  }\n}\n";
  }
  return s;
}

// The reduce kernel (shaders/reduce/reduce_main.glsl) reading the chain's value: every input
// compact in the plan's shape (its elements at the reduce kernel's offsets) or, bit i + 1 of
// `bcast`, a broadcast scalar loaded once. Address table: [out (unused), inputs...].
std::string generate_reduce(const Form& f, const FusionPlan& plan, std::uint32_t bcast, bool idx64) {
  std::string s = preamble(f, idx64) + "#include \"reduce/reduce_head.glsl\"\n" + step_library(f);
  std::string prepare = "void tf_reduce_prepare() {\n  TfAddrs A = TfAddrs(p.layout_addr + 8ul * p.value[0]);\n";
  std::string loads;
  for (std::size_t i = 0; i < f.in_kind.size(); ++i) {
    if (f.in_kind[i] == Kind::none) continue;
    s += cat("uint64_t a", i + 1, ";\n");
    prepare += cat("  a", i + 1, " = A.a[", i + 1, "];\n");
    if ((bcast >> (i + 1) & 1u) != 0) {
      s += cat(f.in_kind[i] == Kind::boolean ? "bool " : "T ", value_name(-static_cast<int>(i) - 1), ";\n");
      prepare += load(f, i, "  ", "IDX(0)", false);
    } else {
      loads += load(f, i, "  ", "off");
    }
  }
  s += prepare + "}\n";
  s += "T tf_reduce_load(IDX off) {\n" + loads + steps(f, plan, "  ");
  s += cat("  return ", value_name(static_cast<int>(plan.steps.size()) - 1), ";\n}\n");
  return s + "#include \"reduce/reduce_main.glsl\"\n";
}

// Everything the source depends on besides the device: the pipeline cache's key.
std::string structure_key(const Form& f, const FusionPlan& plan, std::string_view mode, std::uint32_t bcast, bool idx64,
                          std::size_t nops) {
  std::string k = f.tag;
  k += ' ';
  k += mode;
  k += ' ';
  k += idx64 ? "idx64 " : "idx32 ";
  k += std::to_string(nops);
  k += ' ';
  k += std::to_string(bcast);
  k += " in";
  for (Kind x : f.in_kind) k += static_cast<char>('0' + static_cast<int>(x));
  for (const FusionStep& s : plan.steps) {
    k += ' ';
    k += std::to_string(static_cast<int>(s.op));
    k += '/';
    k += std::to_string(static_cast<int>(s.dir));
    for (int a : s.args) {
      k += ',';
      k += std::to_string(a);
    }
  }
  return k;
}

// The plan without its reduction, as an elementwise kernel writing `out` (of the plan's shape).
void elementwise_fused(VulkanBackend& be, const Form& f, const FusionPlan& plan, std::span<const TensorView> inputs,
                       const TensorView& out) {
  const std::int64_t numel = out.numel();
  const std::size_t nops = inputs.size() + 1;
  std::vector<const TensorView*> operands{&out};
  std::vector<Layout> ls{out.layout()};
  for (const TensorView& in : inputs) {
    operands.push_back(&in);
    ls.push_back(in.layout());
  }
  ls = coalesce_jointly(ls);
  std::uint32_t bcast = 0;
  const bool contig = contig_layouts(ls, bcast);
  std::int64_t reach = numel;
  std::vector<std::int64_t> words;
  if (!contig) words = layout_block(ls, numel, reach);
  const bool idx64 = needs_idx64(reach);
  if (contig) bcast &= ~1u;  // (the output is never a broadcast)

  Launch L;
  L.p.value[0] = words.size();
  for (std::size_t j = 0; j < nops; ++j) {
    const TensorView& v = *operands[j];
    L.range(j, range_of(v));
    std::uint64_t a = VulkanBackend::storage_of(v).allocation().address;
    if (contig) a += static_cast<std::uint64_t>(ls[j].offset) * dtype_size(v.dtype());
    words.push_back(static_cast<std::int64_t>(a));
  }
  L.p.numel = numel;
  L.p.rank = contig ? 0u : static_cast<std::uint32_t>(ls[0].shape.size());
  L.p.tag = static_cast<std::uint32_t>(plan.steps.back().op) + 1;
  constexpr std::int64_t kElemsPerInvocation = 4;
  L.groups = (numel + L.local * kElemsPerInvocation - 1) / (L.local * kElemsPerInvocation);
  const std::string key = structure_key(f, plan, contig ? "contig" : "strided", bcast, idx64, nops);
  launch_with(
      be,
      [&] {
        return be.pipelines().get_generated(key, [&] {
          return compile_glsl(generate(f, plan, contig, bcast, idx64, nops), "fused");
        });
      },
      L, words, operands);
}

// Every input compact in `shape` or a broadcast scalar (bit i + 1 of `bcast`): the reduce
// kernel's offsets of the chain's elements are theirs.
bool compact_inputs(std::span<const TensorView> inputs, const Shape& shape, std::uint32_t& bcast) {
  bcast = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Layout& l = inputs[i].layout();
    bool scalar = true;
    for (std::int64_t st : l.strides) scalar = scalar && st == 0;
    if (scalar && !shape.empty()) {
      bcast |= 1u << (i + 1);
    } else if (!l.is_compact() || l.shape != shape) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool fused_kernel(VulkanBackend& be, const FusionPlan& plan, std::span<const TensorView> inputs,
                  const TensorView& out) {
  const bool reduces = plan.reduce.has_value() && !plan.reduce_axes.empty();
  if (inputs.empty()) return false;
  const Shape shape = inputs[0].shape();  // (core broadcast rank-0 inputs to the plan's shape)
  Form f;
  FusionPlan chain = plan;
  chain.reduce.reset();
  chain.reduce_axes.clear();
  // (With a reduction, the chain's value has the plan's shape and out's dtype.)
  if (!analyze(be, chain, inputs, shape, out, f)) return false;
  if (!reduces) {
    if (out.numel() > 0) elementwise_fused(be, f, chain, inputs, out);
    return true;
  }
  if (f.step_kind.back() == Kind::boolean) return false;
  const OpId op = *plan.reduce;
  std::uint32_t bcast = 0;
  // The geometry's view: compact, of the chain's dtype and shape, at offset 0 of a compact
  // input of that dtype (only its layout is used; the kernel reads the inputs).
  const TensorView* geometry = nullptr;
  const bool compact = compact_inputs(inputs, shape, bcast);
  for (std::size_t i = 0; i < inputs.size() && geometry == nullptr; ++i)
    if (f.in_kind[i] == Kind::t && (bcast >> (i + 1) & 1u) == 0) geometry = &inputs[i];
  if (!compact || geometry == nullptr) {
    // Strided inputs: the chain into a compact tensor, then the reduction (two kernels, the
    // unfused reduction's summation order).
    const Tensor value = be.allocate(f.dtype, shape);
    elementwise_fused(be, f, chain, inputs, value);
    reduce_kernel(be, op, value, plan.reduce_axes, out);
    return true;
  }
  GeneratedLoad first;
  first.addresses.push_back(0);  // (out: written through KernelParams::addr[0])
  for (const TensorView& in : inputs) {
    first.inputs.push_back(&in);
    first.addresses.push_back(static_cast<std::int64_t>(VulkanBackend::storage_of(in).allocation().address +
                                                        static_cast<std::uint64_t>(in.layout().offset) *
                                                            dtype_size(in.dtype())));
  }
  first.pipeline = [&](bool idx64) {
    std::string key = structure_key(f, chain, "reduce", bcast, idx64, inputs.size() + 1);
    key += " r";
    key += std::to_string(static_cast<int>(op));
    return be.pipelines().get_generated(
        key, [&] { return compile_glsl(generate_reduce(f, chain, bcast, idx64), "fused"); },
        static_cast<std::uint32_t>(TF_RED_WORKGROUP), static_cast<int>(op));
  };
  const TensorView x(geometry->storage(), f.dtype, Layout::compact(shape));
  reduce_kernel_generated(be, op, x, plan.reduce_axes, out, first);
  return true;
}

}  // namespace tenferro::vk
