# Shader variants of the triangular family (explicit list, STYLE.md B7).
# triangular_<bits>[_idx64]: raw bits by element size; tril/triu is specialization constant 1.
foreach(_b b1 b4 b8 b16)
  string(TOUPPER "${_b}" _B)
  tenferro_shader_widths(triangular_${_b} copy/triangular.comp DEFINES DT_${_B})
endforeach()
