// Kernel-detected errors: OR the bit into the device error word and remember the first op's
// tag; the host rethrows at the next synchronization (STYLE.md B4). Requires `p`. The tag is
// TF_ERROR_TAG: p.tag (the op of a single-op kernel) unless the kernel defines it (a generated
// fused kernel names the step's op).
#ifndef TF_ERROR_TAG
#define TF_ERROR_TAG p.tag
#endif
layout(buffer_reference, std430, buffer_reference_align = 4) buffer ErrorRef {
  uint bits;
  uint tag;
};

void raise_error(uint bit) {
  ErrorRef e = ErrorRef(p.error_addr);
  atomicOr(e.bits, bit);
  atomicCompSwap(e.tag, 0u, TF_ERROR_TAG);
}
