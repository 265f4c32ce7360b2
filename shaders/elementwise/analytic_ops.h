// Op codes of the analytic family (specialization constant 1 of elementwise/analytic.comp),
// included by the shader and by src/vulkan/kernels/analytic.cpp. KernelParams is unchanged.
#ifndef TENFERRO_SHADERS_ELEMENTWISE_ANALYTIC_OPS_H
#define TENFERRO_SHADERS_ELEMENTWISE_ANALYTIC_OPS_H

#define TF_AN_EXP 0
#define TF_AN_LOG 1
#define TF_AN_SIN 2
#define TF_AN_COS 3
#define TF_AN_TANH 4
#define TF_AN_SQRT 5
#define TF_AN_RSQRT 6
#define TF_AN_EXPM1 7
#define TF_AN_LOG1P 8
#define TF_AN_ERF 9

#endif  // TENFERRO_SHADERS_ELEMENTWISE_ANALYTIC_OPS_H
