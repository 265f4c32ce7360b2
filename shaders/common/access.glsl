// Typed loads/stores through buffer device addresses: element `off` of the storage at `base`.
// TF_ACCESS(Name, Type, Size) declares load_Name(base, off) and store_Name(base, off, x).
#define TF_ACCESS(NAME, TYPE, SIZE)                                                       \
  layout(buffer_reference, std430, buffer_reference_align = SIZE) buffer NAME##Ref {      \
    TYPE v;                                                                               \
  };                                                                                      \
  TYPE load_##NAME(uint64_t base, IDX off) {                                              \
    return NAME##Ref(base + uint64_t(off) * uint64_t(SIZE)).v;                            \
  }                                                                                       \
  void store_##NAME(uint64_t base, IDX off, TYPE x) {                                     \
    NAME##Ref(base + uint64_t(off) * uint64_t(SIZE)).v = x;                               \
  }

TF_ACCESS(T, T, TF_SIZE)
TF_ACCESS(Bool, uint8_t, 1)
#ifdef R
TF_ACCESS(R, R, TF_RSIZE)
#endif

bool load_bool(uint64_t base, IDX off) { return uint(load_Bool(base, off)) != 0u; }
void store_bool(uint64_t base, IDX off, bool b) { store_Bool(base, off, uint8_t(b ? 1u : 0u)); }
