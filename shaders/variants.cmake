# The shader variants (STYLE.md B7: an explicit list, no file(GLOB)), their element types derived
# from ops.def (cmake/TenferroOps.cmake): a family's kernels exist for every dtype some op of the
# family allows. Included by src/vulkan/CMakeLists.txt after cmake/TenferroShaders.cmake. Names
# follow <kernel>_<dtype>[_<variant>]; tenferro_shader_widths makes a 32-bit and an _idx64
# indexing form. Ops are not variants: the op code is specialization constant 1.

# Raw-bit kernels (fill, copy, select, permute, gather, triangular) by element size.
set(_tf_bits_of_bool b1)
set(_tf_bits_of_f32 b4)
set(_tf_bits_of_i32 b4)
set(_tf_bits_of_f64 b8)
set(_tf_bits_of_i64 b8)
set(_tf_bits_of_c32 b8)
set(_tf_bits_of_c64 b16)
function(tenferro_family_bits family out)
  tenferro_family_dtypes(${family} _types)
  set(_bits "")
  foreach(_b b1 b4 b8 b16)
    foreach(_t IN LISTS _types)
      if(_tf_bits_of_${_t} STREQUAL _b AND NOT _b IN_LIST _bits)
        list(APPEND _bits ${_b})
      endif()
    endforeach()
  endforeach()
  set(${out} ${_bits} PARENT_SCOPE)
endfunction()
tenferro_family_bits(structural TF_STRUCTURAL_BITS)
tenferro_family_bits(select TF_SELECT_BITS)

foreach(_b IN LISTS TF_STRUCTURAL_BITS)
  string(TOUPPER "${_b}" _B)
  tenferro_shader_widths(fill_${_b} copy/fill.comp DEFINES DT_${_B})
  tenferro_shader_widths(copy_${_b} copy/copy.comp DEFINES DT_${_B})
  # Strided copies of rank >= 2 (record_permute): tiles through shared memory, 32-bit indexing
  # only (larger copies use copy_<b>_idx64).
  tenferro_shader(permute_${_b} copy/permute.comp DEFINES DT_${_B})
  # Contiguous fast path (record_dispatch takes it when every coalesced operand is rank <= 1
  # with stride 1 or 0): 32-bit indexing only, 4 elements per invocation.
  tenferro_shader(fill_${_b}_contig copy/fill.comp DEFINES DT_${_B} TF_CONTIG)
  tenferro_shader(copy_${_b}_contig copy/copy.comp DEFINES DT_${_B} TF_CONTIG)
endforeach()
foreach(_b IN LISTS TF_SELECT_BITS)
  string(TOUPPER "${_b}" _B)
  tenferro_shader_widths(select_${_b} elementwise/select.comp DEFINES DT_${_B})
  tenferro_shader(select_${_b}_contig elementwise/select.comp DEFINES DT_${_B} TF_CONTIG)
endforeach()

# Typed elementwise kernels: <kernel>_<dtype>, its _idx64 form and its _contig form. abs of a
# complex operand has a real result: unary_abs_<complex dtype>.
foreach(_family unary binary compare clamp)
  tenferro_family_dtypes(${_family} _types)
  foreach(_t IN LISTS _types)
    string(TOUPPER "${_t}" _T)
    tenferro_shader_widths(${_family}_${_t} elementwise/${_family}.comp DEFINES DT_${_T})
    tenferro_shader(${_family}_${_t}_contig elementwise/${_family}.comp DEFINES DT_${_T} TF_CONTIG)
    if(_family STREQUAL "unary" AND _t MATCHES "^c")
      tenferro_shader_widths(unary_abs_${_t} elementwise/unary.comp DEFINES DT_${_T} ABS_COMPLEX)
      tenferro_shader(unary_abs_${_t}_contig elementwise/unary.comp DEFINES DT_${_T} ABS_COMPLEX TF_CONTIG)
    endif()
  endforeach()
endforeach()

# f32 / c32 elements computed in f64 / c64 (TF_F32_STORAGE, types.glsl): the "w" variants, taken
# where the device flushes f32 subnormals (src/vulkan/kernels/dispatch.cpp arith_tag). compare and
# select work on the bits and need none.
foreach(_k unary binary)
  tenferro_shader_widths(${_k}_f32w elementwise/${_k}.comp DEFINES DT_F64 TF_F32_STORAGE)
  tenferro_shader_widths(${_k}_c32w elementwise/${_k}.comp DEFINES DT_C64 TF_F32_STORAGE)
  tenferro_shader(${_k}_f32w_contig elementwise/${_k}.comp DEFINES DT_F64 TF_F32_STORAGE TF_CONTIG)
  tenferro_shader(${_k}_c32w_contig elementwise/${_k}.comp DEFINES DT_C64 TF_F32_STORAGE TF_CONTIG)
endforeach()
tenferro_shader_widths(unary_abs_c32w elementwise/unary.comp DEFINES DT_C64 TF_F32_STORAGE ABS_COMPLEX)
tenferro_shader(unary_abs_c32w_contig elementwise/unary.comp DEFINES DT_C64 TF_F32_STORAGE ABS_COMPLEX TF_CONTIG)
tenferro_shader_widths(clamp_f32w elementwise/clamp.comp DEFINES DT_F64 TF_F32_STORAGE)
tenferro_shader(clamp_f32w_contig elementwise/clamp.comp DEFINES DT_F64 TF_F32_STORAGE TF_CONTIG)

# One file per further family.
foreach(_family analytic cast reduce triangular gemm ozaki indexing)
  include(${CMAKE_CURRENT_LIST_DIR}/variants_${_family}.cmake)
endforeach()
