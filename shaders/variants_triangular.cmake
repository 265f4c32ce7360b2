# Shader variants of tril / triu (structural ops, variants.cmake's TF_STRUCTURAL_BITS):
# triangular_<bits>[_idx64], raw bits by element size; tril/triu is specialization constant 1.
foreach(_b IN LISTS TF_STRUCTURAL_BITS)
  string(TOUPPER "${_b}" _B)
  tenferro_shader_widths(triangular_${_b} copy/triangular.comp DEFINES DT_${_B})
endforeach()
