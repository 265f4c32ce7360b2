// Source element type of the cast kernel from a SRC_* define (the destination comes from
// DT_* in common/types.glsl): SRC_T, SRC_R (real scalar), SRC_SIZE, SRC_KIND_*, load_Src().
#if defined(SRC_F32)
#define SRC_T float
#define SRC_R float
#define SRC_SIZE 4
#define SRC_KIND_FLOAT 1
#elif defined(SRC_F64)
#define SRC_T double
#define SRC_R double
#define SRC_SIZE 8
#define SRC_KIND_FLOAT 1
#elif defined(SRC_I32)
#define SRC_T int
#define SRC_R int
#define SRC_SIZE 4
#define SRC_KIND_INT 1
#elif defined(SRC_I64)
#define SRC_T int64_t
#define SRC_R int64_t
#define SRC_SIZE 8
#define SRC_KIND_INT 1
#elif defined(SRC_C32)
#define SRC_T vec2
#define SRC_R float
#define SRC_SIZE 8
#define SRC_KIND_COMPLEX 1
#elif defined(SRC_C64)
#define SRC_T dvec2
#define SRC_R double
#define SRC_SIZE 16
#define SRC_KIND_COMPLEX 1
#elif defined(SRC_BOOL)
#define SRC_T uint8_t
#define SRC_SIZE 1
#define SRC_KIND_BOOL 1
#endif

TF_ACCESS(Src, SRC_T, SRC_SIZE)
