// Accuracy-changing choices of a backend: whether products and elementwise ops may trade
// accuracy (within documented bounds) for speed. Each backend holds its own; a new backend
// starts with default_accuracy(), the process defaults from the environment
// (docs/configuration.md, "Accuracy options"). The Vulkan provider applies them; the CPU backend
// computes every op in its dtype with none of these forms, so they change nothing there.
#pragma once
#include <cstdint>
#include <string>

namespace tenferro {

class Backend;
class Device;

/// f64 (and c64, f32, c32) products by the Ozaki-II scheme on exact 8-bit residue products,
/// where the time model expects a gain on tensor cores (docs/gemm.md).
enum class OzakiMode : std::uint8_t {
  off,          ///< the FMA kernels only
  certified,    ///< within the FMA kernels' componentwise bound; a failed certificate recomputes
  uncertified,  ///< f64 only, on AccuracyOptions::ozaki_moduli moduli: a normwise error bound
};
/// Complex products in the 3-multiply form: faster on large products, less accurate in the
/// imaginary part (docs/gemm.md).
enum class Gemm3M : std::uint8_t {
  never,   ///< the 4-multiply form only
  large,   ///< products with M, N, K >= 2048
  always,  ///< every complex product with K > 0
};
/// f32 / c32 elementwise ops, reductions and scatter combiners computed in f64 / c64 from
/// exactly widened operands, keeping subnormals where the driver flushes them (docs/accuracy.md).
enum class F32ViaF64 : std::uint8_t {
  never,
  always,         ///< f32 and c32 on every device with f64
  where_flushed,  ///< f32 where `tenferro devices` says "f32 denormals: flushed by the driver"
};

struct AccuracyOptions {
  OzakiMode ozaki = OzakiMode::certified;
  int ozaki_moduli = 0;  ///< OzakiMode::uncertified: 8 to 20; otherwise unused
  Gemm3M gemm_3m = Gemm3M::never;
  F32ViaF64 f32_via_f64 = F32ViaF64::where_flushed;
  bool operator==(const AccuracyOptions&) const = default;
};

/// The process defaults: TENFERRO_VK_GEMM_OZAKI, TENFERRO_VK_GEMM_3M, TENFERRO_VK_F32_VIA_F64
/// (docs/configuration.md), else the AccuracyOptions defaults. Read on each call until the
/// first success, then kept. Throws Error{invalid_argument} naming the variable for a value
/// outside its accepted forms.
AccuracyOptions default_accuracy();
/// Sets the choices of `be` for the work submitted after the call (work already recorded keeps
/// its choice). Thread-safe. Throws Error{invalid_argument} (op "set_accuracy", arg
/// "ozaki_moduli") for OzakiMode::uncertified with ozaki_moduli outside 8 to 20; nothing changes
/// then. The CPU backend keeps them (accuracy() returns them) but computes as before.
void set_accuracy(Backend& be, const AccuracyOptions& a);
/// The choices `be` runs with now.
AccuracyOptions accuracy(const Backend& be);
/// The same for a device (the user API's handle, tenferro/device.hpp).
void set_accuracy(const Device& device, const AccuracyOptions& a);
AccuracyOptions accuracy(const Device& device);

/// Threads of the CPU backend's kernels (the calling thread included; one pool per process,
/// docs/design.md, "CPU threads"): the value of set_cpu_threads, else TENFERRO_NUM_THREADS,
/// else the CPUs this process may run on.
int cpu_threads();
/// Sets the CPU backend's thread count for the kernels that start after the call; 0 restores
/// the default. Thread-safe. Throws Error{invalid_argument} (op "set_cpu_threads", arg "n") for
/// n outside 0 to 1024; nothing changes then.
void set_cpu_threads(int n);

/// The OPENBLAS_CORETYPE that gives OpenBLAS kernels for this CPU's vector units ("SkylakeX"
/// with AVX-512, "Haswell" with AVX2 and FMA) when the kernels it chose when it was loaded are
/// older: a VM that hides the CPU's model makes OpenBLAS fall back to its generic SSE3 kernels
/// ("Prescott"), 3-4x slower (bin_matmul_1024). Empty when its choice fits, when
/// OPENBLAS_CORETYPE is set, or on other processors. OpenBLAS reads the variable once, when it
/// is loaded, so it has to be in the process's environment from the start (the CLI restarts
/// itself with it; docs/configuration.md).
std::string blas_coretype_hint();

}  // namespace tenferro
