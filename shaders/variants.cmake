# The explicit list of shader variants (STYLE.md B7: no file(GLOB)). Included by
# src/vulkan/CMakeLists.txt after cmake/TenferroShaders.cmake. Names follow
# <kernel>_<dtype>[_<variant>]; every variant exists in a 32-bit and an _idx64 indexing form.
# Ops are not variants: the elementwise op code is specialization constant 1.
foreach(_b b1 b4 b8 b16)
  string(TOUPPER "${_b}" _B)
  tenferro_shader_widths(fill_${_b} copy/fill.comp DEFINES DT_${_B})
  tenferro_shader_widths(copy_${_b} copy/copy.comp DEFINES DT_${_B})
  tenferro_shader_widths(select_${_b} elementwise/select.comp DEFINES DT_${_B})
endforeach()
foreach(_t f32 f64 i32 i64 c32 c64)
  string(TOUPPER "${_t}" _T)
  tenferro_shader_widths(unary_${_t} elementwise/unary.comp DEFINES DT_${_T})
  tenferro_shader_widths(binary_${_t} elementwise/binary.comp DEFINES DT_${_T})
  tenferro_shader_widths(compare_${_t} elementwise/compare.comp DEFINES DT_${_T})
endforeach()
foreach(_t c32 c64)
  string(TOUPPER "${_t}" _T)
  tenferro_shader_widths(unary_abs_${_t} elementwise/unary.comp DEFINES DT_${_T} ABS_COMPLEX)
endforeach()
tenferro_shader_widths(compare_bool elementwise/compare.comp DEFINES DT_BOOL)
foreach(_t f32 f64 i32 i64)
  string(TOUPPER "${_t}" _T)
  tenferro_shader_widths(clamp_${_t} elementwise/clamp.comp DEFINES DT_${_T})
endforeach()
# f32 / c32 elements computed in f64 / c64 (TF_F32_STORAGE, types.glsl), taken where the device
# flushes f32 subnormals (src/vulkan/kernels/dispatch.cpp arith_tag); compare and select work on
# the bits and need none. The _contig forms below.
foreach(_k unary binary)
  tenferro_shader_widths(${_k}_f32w elementwise/${_k}.comp DEFINES DT_F64 TF_F32_STORAGE)
  tenferro_shader_widths(${_k}_c32w elementwise/${_k}.comp DEFINES DT_C64 TF_F32_STORAGE)
endforeach()
tenferro_shader_widths(unary_abs_c32w elementwise/unary.comp DEFINES DT_C64 TF_F32_STORAGE ABS_COMPLEX)
tenferro_shader_widths(clamp_f32w elementwise/clamp.comp DEFINES DT_F64 TF_F32_STORAGE)

# Contiguous fast path (record_dispatch picks it when every coalesced operand is rank <= 1 with
# stride 1 or 0): <kernel>_<dtype>_contig, 32-bit indexing only, 4 elements per invocation.
foreach(_b b1 b4 b8 b16)
  string(TOUPPER "${_b}" _B)
  tenferro_shader(fill_${_b}_contig copy/fill.comp DEFINES DT_${_B} TF_CONTIG)
  tenferro_shader(copy_${_b}_contig copy/copy.comp DEFINES DT_${_B} TF_CONTIG)
  tenferro_shader(select_${_b}_contig elementwise/select.comp DEFINES DT_${_B} TF_CONTIG)
endforeach()
foreach(_t f32 f64 i32 i64 c32 c64)
  string(TOUPPER "${_t}" _T)
  tenferro_shader(unary_${_t}_contig elementwise/unary.comp DEFINES DT_${_T} TF_CONTIG)
  tenferro_shader(binary_${_t}_contig elementwise/binary.comp DEFINES DT_${_T} TF_CONTIG)
  tenferro_shader(compare_${_t}_contig elementwise/compare.comp DEFINES DT_${_T} TF_CONTIG)
endforeach()
foreach(_t c32 c64)
  string(TOUPPER "${_t}" _T)
  tenferro_shader(unary_abs_${_t}_contig elementwise/unary.comp DEFINES DT_${_T} ABS_COMPLEX TF_CONTIG)
endforeach()
tenferro_shader(compare_bool_contig elementwise/compare.comp DEFINES DT_BOOL TF_CONTIG)
foreach(_t f32 f64 i32 i64)
  string(TOUPPER "${_t}" _T)
  tenferro_shader(clamp_${_t}_contig elementwise/clamp.comp DEFINES DT_${_T} TF_CONTIG)
endforeach()
foreach(_k unary binary)
  tenferro_shader(${_k}_f32w_contig elementwise/${_k}.comp DEFINES DT_F64 TF_F32_STORAGE TF_CONTIG)
  tenferro_shader(${_k}_c32w_contig elementwise/${_k}.comp DEFINES DT_C64 TF_F32_STORAGE TF_CONTIG)
endforeach()
tenferro_shader(unary_abs_c32w_contig elementwise/unary.comp DEFINES DT_C64 TF_F32_STORAGE ABS_COMPLEX TF_CONTIG)
tenferro_shader(clamp_f32w_contig elementwise/clamp.comp DEFINES DT_F64 TF_F32_STORAGE TF_CONTIG)

# Strided copies of rank >= 2 (record_permute): 32x32 tiles through shared memory, 32-bit
# indexing only (larger copies use copy_<b>_idx64).
foreach(_b b1 b4 b8 b16)
  string(TOUPPER "${_b}" _B)
  tenferro_shader(permute_${_b} copy/permute.comp DEFINES DT_${_B})
endforeach()

# One file per family added after the elementwise/copy kernels.
foreach(_family analytic cast reduce triangular gemm ozaki indexing)
  include(${CMAKE_CURRENT_LIST_DIR}/variants_${_family}.cmake)
endforeach()
