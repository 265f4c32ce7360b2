// Complex products of the gemm shaders (gemm.comp, gemm_small.comp, gemm3m.comp; T = vec2 or
// dvec2, x = re, y = im), included where they define T as complex.
T mul(T a, T b) { return T(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
// alpha * x, beta * c: a real coefficient (imaginary part 0) scales both parts, with no 0 * Inf
// cross terms: a dot product of (Inf, NaN) times 1 stays (Inf, NaN), as the CPU backend's and
// NumPy's (the complex product mul() would give (NaN, NaN)).
T scale(T s, T x) { return s.y == 0.0 ? s.x * x : mul(s, x); }
