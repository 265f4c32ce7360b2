# Shader variants of the indexing family (gather by element size, scatter by dtype; from ops.def).
# gather moves raw bits (b1 b4 b8 b16); scatter combines typed values (combiner = spec constant 1).
# The index dtype (I32/I64) is a flag of the parameter block, not a variant.
list(APPEND TENFERRO_SHADER_INCLUDES
  ${TENFERRO_SHADER_DIR}/indexing/indexing_params.h
  ${TENFERRO_SHADER_DIR}/indexing/indexing.glsl)
tenferro_family_bits(gather _bits)
foreach(_b IN LISTS _bits)
  string(TOUPPER "${_b}" _B)
  tenferro_shader_widths(gather_${_b} indexing/gather.comp DEFINES DT_${_B})
endforeach()
tenferro_family_dtypes(scatter _types)
foreach(_t IN LISTS _types)
  string(TOUPPER "${_t}" _T)
  tenferro_shader_widths(scatter_${_t} indexing/scatter.comp DEFINES DT_${_T})
endforeach()
# f32 / c32 combined in double where the driver flushes f32 subnormals (variants_analytic.cmake).
tenferro_shader_widths(scatter_f32w indexing/scatter.comp DEFINES DT_F64 TF_F32_STORAGE)
tenferro_shader_widths(scatter_c32w indexing/scatter.comp DEFINES DT_C64 TF_F32_STORAGE)
