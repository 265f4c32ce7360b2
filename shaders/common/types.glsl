// Element types from -D defines (one per variant) and the index type.
//   DT_F32 DT_F64 DT_I32 DT_I64 DT_C32 DT_C64 DT_BOOL : T, R (real scalar), TF_SIZE, kind macros
//   DT_B1 DT_B4 DT_B8 DT_B16                          : raw bit types for fill/copy/select
//   IDX64                                             : 64-bit indexing (else 32-bit)
//   TF_F32_STORAGE with DT_F64 / DT_C64 : elements stored as f32 / c32 and computed in f64 / c64
//     (the "w" variants, for devices that flush f32 subnormals: access.glsl widens them exactly)
// Bool is one byte 0/1 in memory (SEMANTICS.md), read and written as uint8_t (8-bit storage).
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_control_flow_attributes : require

#if defined(DT_F32)
#define TF_RSIZE 4
#define T float
#define R float
#define TF_SIZE 4
#define TF_KIND_FLOAT 1
#elif defined(DT_F64)
#ifdef TF_F32_STORAGE
#define TF_RSIZE 4
#define TF_SIZE 4
#else
#define TF_RSIZE 8
#define TF_SIZE 8
#endif
#define T double
#define R double
#define TF_KIND_FLOAT 1
#define TF_F64 1
#elif defined(DT_I32)
#define TF_RSIZE 4
#define T int
#define R int
#define TF_SIZE 4
#define TF_KIND_INT 1
#elif defined(DT_I64)
#define TF_RSIZE 8
#define T int64_t
#define R int64_t
#define TF_SIZE 8
#define TF_KIND_INT 1
#elif defined(DT_C32)
#define TF_RSIZE 4
#define T vec2
#define R float
#define TF_SIZE 8
#define TF_KIND_COMPLEX 1
#elif defined(DT_C64)
#ifdef TF_F32_STORAGE
#define TF_RSIZE 4
#define TF_SIZE 8
#else
#define TF_RSIZE 8
#define TF_SIZE 16
#endif
#define T dvec2
#define R double
#define TF_KIND_COMPLEX 1
#define TF_F64 1
#elif defined(DT_BOOL)
#define T uint8_t
#define TF_SIZE 1
#define TF_KIND_BOOL 1
#elif defined(DT_B1)
#define T uint8_t
#define TF_SIZE 1
#elif defined(DT_B4)
#define T uint
#define TF_SIZE 4
#elif defined(DT_B8)
#define T uvec2
#define TF_SIZE 8
#elif defined(DT_B16)
#define T uvec4
#define TF_SIZE 16
#endif

#ifdef IDX64
#define IDX int64_t
#else
#define IDX int
#endif
