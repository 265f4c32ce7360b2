# Shader variants of the Ozaki-II products (src/vulkan/kernels/gemm/ozaki.cpp):
# ozaki_f64 (shaders/ozaki/ozaki.comp: the scan, split and combine passes, specialization
# constant 1; the number of moduli, constant 2) and ozaki_ext (the same for f32, c32 and c64
# products: TFO_EXT), the residue products ozaki_mm (portable) and
# ozaki_mm_nv (VK_NV_cooperative_matrix; created only on devices that list its u8 shape).
list(APPEND TENFERRO_SHADER_INCLUDES ${TENFERRO_SHADER_DIR}/ozaki/ozaki_params.h)
tenferro_shader(ozaki_f64 ozaki/ozaki.comp)
tenferro_shader(ozaki_ext ozaki/ozaki.comp DEFINES TFO_EXT)
tenferro_shader(ozaki_mm ozaki/ozaki_mm.comp)
tenferro_shader(ozaki_mm_nv ozaki/ozaki_mm_nv.comp)
