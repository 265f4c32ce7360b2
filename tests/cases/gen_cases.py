#!/usr/bin/env python3
"""Generates the op-case files of tests/cases (EVAL_FORMAT.md) with expected values computed
independently of tenferro, by the pure-Python model in case_model.py, plus hand-checked values
for edge cases.

Run from anywhere:  python3 tests/cases/gen_cases.py   (rewrites tests/cases/*.json)
"""
import cmath
import math
import sys

sys.dont_write_bytecode = True  # keep tests/cases free of __pycache__
from case_model import *  # noqa: E402,F401,F403  (the model's vocabulary: A, T, S, V, M, File, ...)

# ---------------------------------------------------------------------------------------
# elementwise.json
# ---------------------------------------------------------------------------------------


def gen_elementwise():
    f = File("elementwise")
    x23 = M("f32", [[1.5, -2.0, 0.0], [3.25, -0.5, 8.0]])
    f.add("neg_f32_2x3", "neg", [x23], expected=unary("neg", x23))
    xi = V("i32", [5, -7, 0, I32_MIN, I32_MAX])
    f.add("neg_i32_wraps_min", "neg", [xi], expected=V("i32", [-5, 7, 0, I32_MIN, -I32_MAX]))
    f.add("neg_i64_wraps_min", "neg", [V("i64", [I64_MIN, 3])], expected=V("i64", [I64_MIN, -3]))
    zc = V("c64", [1 + 2j, -3 - 0.5j])
    f.add("neg_c64", "neg", [zc], expected=V("c64", [-1 - 2j, 3 + 0.5j]))
    f.add("conj_c32", "conj", [V("c32", [1 + 2j, -3 - 4j])], expected=V("c32", [1 - 2j, -3 + 4j]))
    f.add("conj_f64_identity", "conj", [V("f64", [1.5, -2.5])], expected=V("f64", [1.5, -2.5]))
    f.add("conj_i32_identity", "conj", [V("i32", [4, -9])], expected=V("i32", [4, -9]))
    f.add("abs_f64", "abs", [V("f64", [-1.5, 0.0, 2.0, -INF])], expected=V("f64", [1.5, 0.0, 2.0, INF]))
    f.add("abs_i32_min_stays_min", "abs", [V("i32", [-3, 3, I32_MIN])], expected=V("i32", [3, 3, I32_MIN]))
    f.add("abs_i64_min_stays_min", "abs", [V("i64", [-3, I64_MIN])], expected=V("i64", [3, I64_MIN]))
    f.add("abs_c64_is_real_f64", "abs", [V("c64", [3 + 4j, -5j, 0j])], expected=V("f64", [5.0, 5.0, 0.0]))
    f.add("abs_c32_is_real_f32", "abs", [M("c32", [[3 + 4j], [1 + 1j]])],
          expected=M("f32", [[5.0], [f32(math.sqrt(2))]]))
    f.add("sign_f64_with_nan", "sign", [V("f64", [-2.5, 0.0, 3.0, NAN, -INF])],
          expected=V("f64", [-1.0, 0.0, 1.0, NAN, -1.0]))
    f.add("sign_i32", "sign", [V("i32", [-5, 0, 7, I32_MIN])], expected=V("i32", [-1, 0, 1, -1]))
    f.add("sign_c64_unit_and_zero", "sign", [V("c64", [3 + 4j, 0j, -2j])],
          expected=V("c64", [0.6 + 0.8j, 0j, -1j]))
    a, b = M("f32", [[1.0, 2.5], [-3.0, 0.125]]), M("f32", [[10.0, -0.5], [3.0, 4.0]])
    for op in ("add", "sub", "mul", "div", "maximum", "minimum", "pow"):
        f.add(f"{op}_f32_2x2", op, [a, b], expected=binary(op, a, b))
    a64, b64 = V("f64", [7.5, -7.5, 1e300, 0.1]), V("f64", [2.0, 2.0, 1e10, 0.2])
    for op in ("add", "sub", "mul", "div", "rem"):
        f.add(f"{op}_f64", op, [a64, b64], expected=binary(op, a64, b64))
    f.add("add_i32_overflow_wraps", "add", [V("i32", [I32_MAX, I32_MIN, 5]), V("i32", [1, -1, -7])],
          expected=V("i32", [I32_MIN, I32_MAX, -2]))
    f.add("add_i64_overflow_wraps", "add", [V("i64", [I64_MAX, 1]), V("i64", [1, 2])],
          expected=V("i64", [I64_MIN, 3]))
    f.add("sub_i64_underflow_wraps", "sub", [V("i64", [I64_MIN, 10]), V("i64", [1, 20])],
          expected=V("i64", [I64_MAX, -10]))
    f.add("mul_i32_overflow_wraps", "mul", [V("i32", [65536, 46341, -3]), V("i32", [65536, 46341, 4])],
          expected=V("i32", [0, wrap(46341 * 46341, "i32"), -12]))
    f.add("mul_i64_overflow_wraps", "mul", [V("i64", [2**62, 3]), V("i64", [4, -5])],
          expected=V("i64", [0, -15]))
    f.add("add_c64", "add", [V("c64", [1 + 2j, 0.5j]), V("c64", [3 - 1j, 2])], expected=V("c64", [4 + 1j, 2 + 0.5j]))
    f.add("mul_c64", "mul", [V("c64", [1 + 2j, 2j]), V("c64", [3 + 4j, 2j])], expected=V("c64", [-5 + 10j, -4]))
    f.add("div_c64", "div", [V("c64", [-5 + 10j, 1]), V("c64", [3 + 4j, 1j])], expected=V("c64", [1 + 2j, -1j]))
    f.add("sub_c32", "sub", [V("c32", [1 + 1j]), V("c32", [0.5 - 2j])], expected=V("c32", [0.5 + 3j]))
    # the one implicit promotion: a rank-0 real scalar with a complex tensor of the same precision
    f.add("add_rank0_f64_with_c64", "add", [S("f64", 2.0), V("c64", [1 + 1j, 2 - 1j])],
          expected=V("c64", [3 + 1j, 4 - 1j]))
    f.add("mul_c32_with_rank0_f32", "mul", [V("c32", [1 + 1j, -2j]), S("f32", 3.0)],
          expected=V("c32", [3 + 3j, -6j]))
    f.add("div_c64_by_rank0_f64", "div", [V("c64", [2 + 4j]), S("f64", 2.0)], expected=V("c64", [1 + 2j]))
    f.add("sub_rank0_f32_minus_c32", "sub", [S("f32", 1.0), V("c32", [1 + 1j, 3j])],
          expected=V("c32", [-1j, 1 - 3j]))
    f.add("div_f64_ieee_zero_divisor", "div", [V("f64", [1.0, -1.0, 0.0]), V("f64", [0.0, 0.0, 0.0])],
          expected=V("f64", [INF, -INF, NAN]))
    f.add("div_i32_truncates", "div", [V("i32", [7, -7, 7, -7, 0]), V("i32", [2, 2, -2, -2, 5])],
          expected=V("i32", [3, -3, -3, 3, 0]))
    f.add("div_i32_min_by_minus1_is_min", "div", [V("i32", [I32_MIN, I32_MIN]), V("i32", [-1, 1])],
          expected=V("i32", [I32_MIN, I32_MIN]))
    f.add("div_i64_min_by_minus1_is_min", "div", [V("i64", [I64_MIN, 9]), V("i64", [-1, -4])],
          expected=V("i64", [I64_MIN, -2]))
    f.add("div_i32_by_zero", "div", [V("i32", [1, 2]), V("i32", [1, 0])], error="numerical_failure")
    f.add("div_i64_by_zero", "div", [S("i64", 5), S("i64", 0)], error="numerical_failure")
    f.add("rem_f64_fmod_sign", "rem", [V("f64", [5.5, -5.5, 5.5, -5.5]), V("f64", [2.0, 2.0, -2.0, -2.0])],
          expected=V("f64", [1.5, -1.5, 1.5, -1.5]))
    f.add("rem_f32_by_zero_nan", "rem", [V("f32", [1.0, 3.0]), V("f32", [0.0, 2.0])], expected=V("f32", [NAN, 1.0]))
    f.add("rem_i32_c_sign_rule", "rem", [V("i32", [7, -7, 7, -7]), V("i32", [3, 3, -3, -3])],
          expected=V("i32", [1, -1, 1, -1]))
    f.add("rem_i32_min_by_minus1_is_zero", "rem", [V("i32", [I32_MIN]), V("i32", [-1])], expected=V("i32", [0]))
    f.add("rem_i64_min_by_minus1_is_zero", "rem", [V("i64", [I64_MIN, 10]), V("i64", [-1, 4])],
          expected=V("i64", [0, 2]))
    f.add("rem_i32_by_zero", "rem", [V("i32", [3]), V("i32", [0])], error="numerical_failure")
    f.add("pow_f64", "pow", [V("f64", [2.0, 2.0, 0.0, -2.0, 9.0]), V("f64", [10.0, 0.5, 0.0, 3.0, -0.5])],
          expected=V("f64", [1024.0, math.sqrt(2), 1.0, -8.0, 1 / 3]))
    f.add("pow_i32_wraps", "pow", [V("i32", [2, 3, -2, 2, 2, 7]), V("i32", [10, 0, 3, 31, 32, 1])],
          expected=V("i32", [1024, 1, -8, I32_MIN, 0, 7]))
    f.add("pow_i64", "pow", [V("i64", [3, -1, 10]), V("i64", [39, 7, 18])],
          expected=V("i64", [3**39, -1, 10**18]))
    f.add("pow_i32_negative_exponent", "pow", [V("i32", [2]), V("i32", [-1])], error="numerical_failure")
    f.add("pow_c64", "pow", [V("c64", [1j, 2 + 0j]), V("c64", [2 + 0j, 0.5 + 0j])],
          expected=V("c64", [-1 + 0j, math.sqrt(2) + 0j]))
    f.add("maximum_f64_nan_propagates", "maximum", [V("f64", [NAN, 1.0, 2.0]), V("f64", [1.0, NAN, -3.0])],
          expected=V("f64", [NAN, NAN, 2.0]))
    f.add("minimum_f32_nan_propagates", "minimum", [V("f32", [NAN, 1.0, 2.0]), V("f32", [1.0, NAN, -3.0])],
          expected=V("f32", [NAN, NAN, -3.0]))
    f.add("maximum_i64", "maximum", [V("i64", [I64_MIN, 5]), V("i64", [0, -5])], expected=V("i64", [0, 5]))
    f.add("minimum_i32", "minimum", [V("i32", [I32_MAX, -5]), V("i32", [0, 5])], expected=V("i32", [0, -5]))
    ca, cb = V("f32", [1.0, 2.0, 3.0, NAN]), V("f32", [2.0, 2.0, 2.0, NAN])
    for d in ("EQ", "NE", "LT", "LE", "GT", "GE"):
        f.add(f"compare_{d}_f32_nan", "compare", [ca, cb], {"direction": d}, expected=compare(ca, cb, d))
    ia, ib = M("i32", [[1, -5], [I32_MIN, 7]]), M("i32", [[1, 5], [I32_MAX, -7]])
    for d in ("NE", "LT", "GE"):
        f.add(f"compare_{d}_i32", "compare", [ia, ib], {"direction": d}, expected=compare(ia, ib, d))
    za, zb = V("c64", [1 + 1j, 1 + 1j, 2j]), V("c64", [1 + 1j, 1 - 1j, 2j])
    f.add("compare_EQ_c64", "compare", [za, zb], {"direction": "EQ"}, expected=V("bool", [True, False, True]))
    f.add("compare_NE_c64", "compare", [za, zb], {"direction": "NE"}, expected=V("bool", [False, True, False]))
    f.add("compare_NE_bool", "compare", [V("bool", [True, False, True]), V("bool", [True, True, False])],
          {"direction": "NE"}, expected=V("bool", [False, True, True]))
    f.add("compare_EQ_i64_rank0", "compare", [S("i64", I64_MAX), S("i64", I64_MAX)], {"direction": "EQ"},
          expected=S("bool", True))
    p = M("bool", [[True, False], [False, True]])
    st, sf = M("f64", [[1.0, 2.0], [3.0, 4.0]]), M("f64", [[-1.0, -2.0], [-3.0, -4.0]])
    f.add("select_f64_2x2", "select", [p, st, sf], expected=select(p, st, sf))
    f.add("select_rank0_pred", "select", [S("bool", False), st, sf], expected=sf)
    f.add("select_c64", "select", [V("bool", [True, False]), V("c64", [1j, 2j]), V("c64", [3, 4])],
          expected=V("c64", [1j, 4]))
    f.add("select_bool", "select", [V("bool", [True, False]), V("bool", [False, False]), V("bool", [True, True])],
          expected=V("bool", [False, True]))
    f.add("select_i64", "select", [V("bool", [False, True, True]), V("i64", [1, 2, 3]), V("i64", [-1, -2, -3])],
          expected=V("i64", [-1, 2, 3]))
    x = V("f64", [-5.0, 0.5, 7.0, NAN])
    f.add("clamp_f64_rank0_bounds", "clamp", [x, S("f64", -1.0), S("f64", 1.0)],
          expected=clamp(x, S("f64", -1.0), S("f64", 1.0)))
    xi = V("i32", [-5, 2, 9, 4])
    lo, hi = V("i32", [0, 3, 0, 5]), V("i32", [1, 4, 8, 1])
    f.add("clamp_i32_tensor_bounds", "clamp", [xi, lo, hi], expected=V("i32", [0, 3, 8, 1]))
    f.add("clamp_i64_lower_above_upper", "clamp", [V("i64", [5, 0]), S("i64", 3), S("i64", 1)],
          expected=V("i64", [1, 1]))
    f.add("add_f32_rank0", "add", [S("f32", 1.5), S("f32", 2.25)], expected=S("f32", 3.75))
    f.add("mul_f64_empty", "mul", [T("f64", [0, 3], []), T("f64", [0, 3], [])], expected=T("f64", [0, 3], []))
    f.add("neg_i32_empty", "neg", [T("i32", [2, 0], [])], expected=T("i32", [2, 0], []))
    big = iota("f64", [3, 4, 2])
    big2 = A("f64", [3, 4, 2], [0.5 * v - 3 for v in big.flat])
    f.add("sub_f64_rank3", "sub", [big, big2], expected=binary("sub", big, big2))
    f.add("add_bool_unsupported", "add", [V("bool", [True]), V("bool", [False])], error="unsupported")
    f.add("maximum_c64_unsupported", "maximum", [V("c64", [1j]), V("c64", [1])], error="unsupported")
    f.add("compare_LT_c64_unsupported", "compare", [V("c64", [1j]), V("c64", [1])], {"direction": "LT"},
          error="unsupported")
    f.add("add_dtype_mismatch", "add", [V("f32", [1.0]), V("f64", [1.0])], error="dtype_mismatch")
    f.add("add_shape_mismatch", "add", [V("f32", [1.0, 2.0]), V("f32", [1.0, 2.0, 3.0])], error="shape_mismatch")
    # Hand-checked edge values.
    # Complex pow at zeros follows NumPy: a^0 = 1 (any a), 0^b = 0 for b real > 0, else NaN.
    cnan = complex(NAN, NAN)
    for d in ("c32", "c64"):
        f.add(f"pow_{d}_zero_base_and_exponent", "pow",
              [V(d, [0j, 0j, 0j, 0j, 2 + 1j, 0j]), V(d, [0j, 2 + 0j, -1 + 0j, 1j, 0j, 0.5 + 0j])],
              expected=V(d, [1 + 0j, 0j, cnan, cnan, 1 + 0j, 0j]))
    # sign(z) = z / |z| where |z| overflows f32 (3e38 + 3e38i) or is subnormal.
    h = f32(3e38)
    f.add("sign_c32_huge_modulus", "sign", [V("c32", [complex(h, h), complex(-h, -0.0)])],
          expected=V("c32", [complex(f32(math.sqrt(0.5)), f32(math.sqrt(0.5))), -1 + 0j]))
    f.add("sign_c64_subnormal", "sign", [V("c64", [complex(5e-324, 5e-324), complex(0.0, -5e-324)])],
          expected=V("c64", [complex(math.sqrt(0.5), math.sqrt(0.5)), -1j]))
    # fmod by a subnormal divisor is exact (the long division needs normal operands: scaled).
    ra, rb = [1.0, 2.2250738585072014e-308, 3e-310, -1e300, 5e-324], [1e-310, 1e-310, 7e-311, 3e-320, 5e-324]
    f.add("rem_f64_subnormal_divisor", "rem", [V("f64", ra), V("f64", rb)],
          expected=V("f64", [math.fmod(x, y) for x, y in zip(ra, rb)]))
    # (-1)^y for huge even y is 1, not an overflow of exp(y log 1).
    f.add("pow_f64_minus_one_huge_even", "pow", [V("f64", [-1.0, -1.0, -1.0]), V("f64", [1e308, -1e308, 1e30])],
          expected=V("f64", [1.0, 1.0, 1.0]))
    # Divisors near the largest finite value: |b|^2 and Smith's b.x + b.y r must not overflow.
    f.add("div_c64_huge_divisor", "div", [V("c64", [1e308 + 0j, 1e308 + 1e308j]), V("c64", [1e308 + 1e308j] * 2)],
          expected=V("c64", [0.5 - 0.5j, 1 + 0j]))
    h = f32(3e38)
    e37 = f32(1e37)
    zq = [(complex(h, h), complex(h, h)), (complex(1e30, h), complex(h, e37)), (complex(h, 2.0), complex(e37, h))]
    zq = [(f32(a), b) for a, b in zq]
    f.add("div_c32_huge_divisor", "div", [V("c32", [a for a, _ in zq]), V("c32", [b for _, b in zq])],
          expected=V("c32", [f32(a / b) for a, b in zq]))
    # Complex quotients computed exactly (rationals), then rounded: a huge numerator must not
    # overflow inside ((1.7e308 + 1.7e308i) / (1 + i) = 1.7e308), quotients whose parts overflow
    # are infinite, not NaN (std::complex's division gave NaN - inf i below), subnormal operands
    # keep their bits (cases of the range probe, tools/gpu/probe_range.py).
    def cdiv_exact(a, b):
        from fractions import Fraction as Q
        ar, ai, br, bi = Q(a.real), Q(a.imag), Q(b.real), Q(b.imag)
        den = br * br + bi * bi
        def rd(v):
            return INF if v > Q(2) ** 1024 else (-INF if v < -Q(2) ** 1024 else float(v))
        return complex(rd((ar * br + ai * bi) / den), rd((ai * br - ar * bi) / den))
    za = [complex(1.7e308, 1.7e308), complex(1e308, 1e308), complex(1.7e308, 1e308), complex(1e-310, 1e-310),
          complex(-1.42144898599924e+219, -8.635935176606246e-104)]
    zb = [complex(1, 1), complex(0.5, 0.5), complex(-7.363804426559994e-241, 2.9407429744605007e-61),
          complex(1e-310, 2e-310), complex(-0.0, -1e-310)]  # the last: the small part makes the real part
    f.add("div_c64_scaled_operands", "div", [V("c64", za), V("c64", zb)],
          expected=V("c64", [cdiv_exact(a, b) for a, b in zip(za, zb)]))
    za, zb = [complex(h, h), complex(f32(1e-30), f32(3e38))], [complex(1, 1), complex(f32(1e-20), f32(2e-20))]
    f.add("div_c32_scaled_operands", "div", [V("c32", za), V("c32", zb)],
          expected=V("c32", [f32(cdiv_exact(a, b)) for a, b in zip(za, zb)]))
    # Real f32 divisors from 2^126 have a subnormal reciprocal (devices that divide through the
    # reciprocal and flush subnormals gave 0); |z| beyond the largest f32 is inf, below it finite.
    fa, fb = [h, f32(1e38), -h, 6.0, f32(2e-38)], [h, f32(2e38), f32(1.5e38), h, h]
    f.add("div_f32_huge_divisor", "div", [V("f32", fa), V("f32", fb)],
          expected=V("f32", [f32(x / y) for x, y in zip(fa, fb)]))
    f.add("abs_c32_huge_modulus", "abs", [V("c32", [complex(h, h), complex(f32(2e38), f32(1e38)), complex(-h, 0.0)])],
          expected=V("f32", [INF, f32(abs(complex(f32(2e38), f32(1e38)))), h]))
    # Infinite and NaN parts (C99 Annex G, as libgcc's __muldc3/__divdc3 behind std::complex):
    # an infinite factor times a nonzero one is infinite even where the naive formula gives NaN;
    # nonzero / 0 is infinite, infinite / finite infinite, finite / infinite zero.
    c = complex
    for d in ("c32", "c64"):
        f.add(f"mul_{d}_infinite_parts", "mul",
              [V(d, [c(1, 0), c(INF, 0), c(0, INF), c(1, NAN), c(NAN, NAN), c(0, 0)]),
               V(d, [c(INF, INF), c(1, NAN), c(INF, INF), c(INF, 0), c(INF, 0), c(INF, 0)])],
              expected=V(d, [c(INF, INF), c(INF, NAN), c(-INF, INF), c(INF, NAN), c(NAN, NAN), c(NAN, NAN)]))
        f.add(f"div_{d}_infinite_and_zero_parts", "div",
              [V(d, [c(0, 0), c(1, 0), c(INF, INF), c(INF, INF), c(1, 0), c(0, 0), c(NAN, 1), c(INF, 0)]),
               V(d, [c(INF, INF), c(INF, INF), c(1, 0), c(-1, 0), c(0, 0), c(0, 0), c(0, 0), c(INF, 0)])],
              expected=V(d, [c(0, 0), c(0, -0.0), c(INF, INF), c(-INF, -INF), c(INF, NAN), c(NAN, NAN),
                             c(NAN, INF), c(NAN, NAN)]))
        # pow = exp(b log a) through the same special values: (inf + 0i)^1 = inf + NaN i,
        # (inf + 0i)^-1 = 0, (2.5 - i)^(-inf + i) = exp(-inf + inf i) = 0, (-1)^(inf i) = 0.
        f.add(f"pow_{d}_infinite_parts", "pow",
              [V(d, [c(INF, 0), c(INF, 0), c(2.5, -1), c(0, INF), c(-1, 0), c(-INF, 1)]),
               V(d, [c(1, 0), c(-1, 0), c(-INF, 1), c(2.5, -1), c(0, INF), c(1, NAN)])],
              expected=V(d, [c(INF, NAN), c(0, -0.0), c(0, 0), c(INF, NAN), c(0, -0.0), c(INF, NAN)]))
    f.write()


# ---------------------------------------------------------------------------------------
# analytic.json
# ---------------------------------------------------------------------------------------


def gen_analytic():
    f = File("analytic")
    real_inputs = {
        "exp": [-2.0, 0.0, 0.5, 10.0, -INF, INF],
        "log": [0.5, 1.0, 2.0, 1e10, 0.0, -1.0, INF],
        "sin": [-3.0, 0.0, 0.5, 2.0, 100.0],
        "cos": [-3.0, 0.0, 0.5, 2.0, 100.0],
        "tanh": [-20.0, -0.5, 0.0, 0.5, 3.0, INF],
        "sqrt": [0.0, 0.25, 2.0, 1e6, -1.0, INF],
        "rsqrt": [0.25, 1.0, 2.0, 1e6, 0.0],
        "expm1": [-1.0, 1e-10, 1e-3, 0.0, 2.0],
        "log1p": [-0.5, 1e-10, 1e-3, 0.0, 3.0, -1.0],
        "erf": [-2.0, -0.5, 0.0, 0.1, 1.0, 3.0],
    }
    for op, vals in real_inputs.items():
        x = V("f64", vals)
        f.add(f"{op}_f64", op, [x], expected=unary(op, x))
        x32 = V("f32", [f32(v) for v in vals])
        f.add(f"{op}_f32", op, [x32], expected=unary(op, x32))
    # F64 accuracy: a tight tolerance catches results computed in F32
    for op, vals in (("exp", [1.0 / 3, 7.25]), ("log", [3.0, 123.456]), ("sin", [1.0 / 3, 2.5]),
                     ("tanh", [0.3, 0.9]), ("sqrt", [3.0, 1.0 / 7]), ("expm1", [1e-5, 0.7]),
                     ("log1p", [1e-5, 0.7]), ("erf", [0.3, 1.7])):
        x = V("f64", vals)
        f.add(f"{op}_f64_accurate", op, [x], expected=unary(op, x), rtol=1e-14)
    # tiny-argument accuracy: expm1/log1p must not lose digits to cancellation (relative check)
    f.add("expm1_f64_tiny_relative", "expm1", [V("f64", [1e-10 * 2**40])],
          expected=V("f64", [math.expm1(1e-10 * 2**40)]), rtol=1e-13)
    complex_inputs = [1 + 1j, -0.5 + 2j, 0.25 - 0.75j, 3 + 0j]
    for op in ("exp", "log", "sin", "cos", "tanh", "sqrt", "rsqrt", "expm1", "log1p"):
        z = V("c64", complex_inputs)
        f.add(f"{op}_c64", op, [z], expected=unary(op, z))
        z32 = V("c32", [f32(v) for v in complex_inputs])
        f.add(f"{op}_c32", op, [z32], expected=unary(op, z32))
    f.add("sqrt_c64_negative_real", "sqrt", [V("c64", [-4 + 0j])], expected=V("c64", [2j]))
    f.add("log_c64_negative_real", "log", [V("c64", [-1 + 0j])], expected=V("c64", [math.pi * 1j]))
    f.add("exp_f64_2x2", "exp", [M("f64", [[0.0, 1.0], [2.0, -1.0]])],
          expected=unary("exp", M("f64", [[0.0, 1.0], [2.0, -1.0]])))
    f.add("sin_f32_rank0", "sin", [S("f32", 1.0)], expected=S("f32", f32(math.sin(1.0))))
    f.add("exp_f64_empty", "exp", [T("f64", [0], [])], expected=T("f64", [0], []))
    for op in ("exp", "sqrt", "log", "tanh"):
        f.add(f"{op}_i32_unsupported", op, [V("i32", [1])], error="unsupported")
    f.add("sin_i64_unsupported", "sin", [V("i64", [1])], error="unsupported")
    f.add("erf_c64_unsupported", "erf", [V("c64", [1j])], error="unsupported")
    f.add("exp_bool_unsupported", "exp", [V("bool", [True])], error="unsupported")
    # Hand-checked edge values. The branch cut of sqrt on the negative reals: the sign of a zero
    # imaginary part picks the side.
    for d in ("c32", "c64"):
        f.add(f"sqrt_{d}_branch_cut_signed_zero", "sqrt", [V(d, [complex(-4.0, -0.0), complex(-4.0, 0.0)])],
              expected=V(d, [-2j, 2j]))
        f.add(f"rsqrt_{d}_branch_cut_signed_zero", "rsqrt", [V(d, [complex(-4.0, -0.0), complex(-4.0, 0.0)])],
              expected=V(d, [0.5j, -0.5j]))
    # log|z| of c32 values whose modulus exceeds the largest finite f32 (finite results).
    h = f32(3e38)
    f.add("log_c32_modulus_beyond_f32", "log", [V("c32", [complex(-h, h)])],
          expected=V("c32", [f32(cmath.log(complex(-h, h)))]))
    f.add("log1p_c32_modulus_beyond_f32", "log1p", [V("c32", [complex(h, h)])],
          expected=V("c32", [f32(cmath.log(complex(1 + h, h)))]))
    # sin / cos where cosh(y) overflows but sin(x) cosh(y) and cos(x) sinh(y) do not (|y| just
    # past log(2 max)), and at x = +-0 with an infinite sinh(y): the real part of sin and the
    # imaginary part of cos are zeros, not 0 * inf = NaN (cases of tools/gpu/probe_range.py).
    for d, y, big in (("c32", 89.5, 3e38), ("c64", 710.5, 1e308)):
        zs = [complex(0.5, y), complex(-0.5, -y), complex(2.0, y)]
        f.add(f"sin_{d}_cosh_overflows", "sin", [V(d, zs)], expected=V(d, [cmath.sin(z) for z in zs]))
        f.add(f"cos_{d}_cosh_overflows", "cos", [V(d, zs)], expected=V(d, [cmath.cos(z) for z in zs]))
        f.add(f"sin_{d}_zero_real_huge_imag", "sin", [V(d, [complex(0.0, big), complex(-0.0, -big)])],
              expected=V(d, [complex(0.0, INF), complex(-0.0, -INF)]))
        f.add(f"cos_{d}_zero_real_huge_imag", "cos", [V(d, [complex(0.0, big), complex(-0.0, big)])],
              expected=V(d, [complex(INF, -0.0), complex(INF, 0.0)]))
    # Tiny real parts times cosh / sinh of large ones: sin(1e-37 + 89.5i) has a real part of 37
    # (1e-37 / 2 first then the halves of exp: fine; the smallest c64 part halved was 0, not inf).
    zs = [complex(f32(1e-37), 89.5), complex(f32(-3e-38), 89.0)]
    f.add("sin_c32_tiny_real_cosh_large", "sin", [V("c32", zs)], expected=V("c32", [f32(cmath.sin(z)) for z in zs]))
    f.add("sin_c64_smallest_real_huge_imag", "sin", [V("c64", [complex(5e-324, 1.7e308)])],
          expected=V("c64", [complex(INF, INF)]))
    f.add("cos_c64_smallest_real_huge_imag", "cos", [V("c64", [complex(5e-324, 1.7e308)])],
          expected=V("c64", [complex(INF, -INF)]))
    # log|z| where |z| is not representable: scaled up first.
    f.add("log_c64_subnormal_modulus", "log", [V("c64", [complex(5e-324, 5e-324), complex(-1e-310, 3e-310)])],
          expected=V("c64", [complex(math.log(5e-324) + 0.5 * math.log(2), math.pi / 4),
                             complex(0.5 * math.log(10) + math.log(1e-310), math.atan2(3e-310, -1e-310))]))
    # Infinite and NaN parts: C99 Annex G special values (glibc's csin, ccos, ctanh, cexp, clog,
    # csqrt, as the CPU backend's std::complex; rsqrt = 1 / sqrt with __divdc3's values; log1p =
    # log|1 + z| + i atan2(y, 1 + x) as src/cpu/elementwise.cpp). Hand-checked.
    c, n, i = complex, NAN, INF
    special = {
        "sin": ([c(0, i), c(-0.0, i), c(0, n), c(i, 0), c(i, i), c(n, 0), c(n, i), c(1, i), c(-i, 1)],
                [c(0, i), c(-0.0, i), c(0, n), c(n, 0), c(n, i), c(n, 0), c(n, i), c(i, i), c(n, n)]),
        "cos": ([c(0, i), c(0, n), c(i, 0), c(i, i), c(n, 0), c(n, i), c(1, i), c(-i, 1)],
                [c(i, -0.0), c(n, 0), c(n, 0), c(i, n), c(n, 0), c(i, n), c(i, -i), c(n, n)]),
        "tanh": ([c(0, i), c(-0.0, n), c(i, i), c(-i, 2), c(i, 0.5), c(n, 0), c(1, i), c(n, 1)],
                 [c(0, n), c(-0.0, n), c(1, 0), c(-1, -0.0), c(1, 0), c(n, 0), c(n, n), c(n, n)]),
        "exp": ([c(i, i), c(i, n), c(-i, i), c(-i, n), c(-i, -i), c(i, 0), c(n, 0), c(1, i)],
                [c(i, n), c(i, n), c(0, 0), c(0, 0), c(0, -0.0), c(i, 0), c(n, 0), c(n, n)]),
        "log": ([c(1, n), c(n, 1), c(i, n), c(n, i), c(0, 0), c(-i, 1)],
                [c(n, n), c(n, n), c(i, n), c(i, n), c(-i, 0), c(i, math.pi)]),
        "log1p": ([c(0, n), c(n, 1), c(i, n), c(n, -i), c(-1, 0)],
                  [c(n, n), c(n, n), c(i, n), c(i, n), c(-i, 0)]),
        "sqrt": ([c(i, n), c(-i, n), c(1, i), c(n, i), c(-i, 1), c(i, -1), c(n, 1)],
                 [c(i, n), c(n, i), c(i, i), c(i, i), c(0, i), c(i, -0.0), c(n, n)]),
        "rsqrt": ([c(1, i), c(0, 0), c(i, 0), c(n, -i), c(-i, 1), c(n, 0)],
                  [c(0, -0.0), c(i, n), c(0, 0), c(0, 0), c(0, -0.0), c(n, n)]),
    }
    for op, (zs, ws) in special.items():
        for d in ("c32", "c64"):
            f.add(f"{op}_{d}_infinite_nan_parts", op, [V(d, zs)], expected=V(d, ws))
    f.write()


# ---------------------------------------------------------------------------------------
# cast.json
# ---------------------------------------------------------------------------------------


def gen_cast():
    f = File("cast")
    b = V("bool", [True, False, True])
    for to, one, z in (("f32", 1.0, 0.0), ("f64", 1.0, 0.0), ("i32", 1, 0), ("i64", 1, 0), ("c32", 1 + 0j, 0j),
                       ("c64", 1 + 0j, 0j), ("bool", True, False)):
        f.add(f"convert_bool_to_{to}", "convert", [b], {"dtype": to}, expected=V(to, [one, z, one]))
    xi = V("i32", [I32_MIN, -1, 0, I32_MAX])
    f.add("convert_i32_to_i64", "convert", [xi], {"dtype": "i64"}, expected=V("i64", xi.flat))
    f.add("convert_i32_to_f64", "convert", [xi], {"dtype": "f64"}, expected=V("f64", [float(v) for v in xi.flat]))
    f.add("convert_i32_to_c64", "convert", [xi], {"dtype": "c64"}, expected=V("c64", [complex(v) for v in xi.flat]))
    f.add("convert_i64_to_f64", "convert", [V("i64", [-(2**53), 12345678901])], {"dtype": "f64"},
          expected=V("f64", [-(2.0**53), 12345678901.0]))
    f.add("convert_i64_to_c64", "convert", [V("i64", [-7])], {"dtype": "complex128"}, expected=V("c64", [-7 + 0j]))
    x32 = V("f32", [f32(0.1), -2.5, INF, NAN])
    f.add("convert_f32_to_f64_exact", "convert", [x32], {"dtype": "f64"}, expected=V("f64", x32.flat), rtol=0.0)
    f.add("convert_f32_to_c32", "convert", [x32], {"dtype": "c32"},
          expected=V("c32", [complex(v, 0) for v in x32.flat]))
    f.add("convert_f32_to_c64", "convert", [V("f32", [1.5])], {"dtype": "c64"}, expected=V("c64", [1.5 + 0j]))
    f.add("convert_f64_to_c64", "convert", [M("f64", [[1.0, -2.0]])], {"dtype": "c64"},
          expected=M("c64", [[1 + 0j, -2 + 0j]]))
    f.add("convert_c32_to_c64", "convert", [V("c32", [1.5 - 2j])], {"dtype": "c64"}, expected=V("c64", [1.5 - 2j]))
    f.add("convert_f64_identity", "convert", [V("f64", [0.1])], {"dtype": "f64"}, expected=V("f64", [0.1]))
    f.add("convert_alias_float32_identity", "convert", [V("f32", [2.0])], {"dtype": "float32"},
          expected=V("f32", [2.0]))
    for frm, to, val in (("f64", "f32", 1.0), ("i64", "i32", 1), ("i32", "f32", 1), ("c64", "f64", 1j),
                         ("c64", "c32", 1j), ("f32", "i32", 1.0), ("f64", "i64", 1.0), ("i32", "bool", 1),
                         ("f32", "bool", 1.0), ("c32", "f32", 1j), ("i64", "c32", 1)):
        f.add(f"convert_{frm}_to_{to}_unsupported", "convert", [V(frm, [val])], {"dtype": to}, error="unsupported")
    f.add("cast_f64_to_i32_truncates", "cast", [V("f64", [1.9, -1.9, 0.5, -0.5, 2147483647.0, -2147483648.0])],
          {"dtype": "i32"}, expected=V("i32", [1, -1, 0, 0, I32_MAX, I32_MIN]))
    f.add("cast_f32_to_i64_truncates", "cast", [V("f32", [3.75, -3.75, 1e10])], {"dtype": "i64"},
          expected=V("i64", [3, -3, int(f32(1e10))]))
    f.add("cast_f64_to_i64_large", "cast", [V("f64", [3e9, -9.0e18])], {"dtype": "i64"},
          expected=V("i64", [3000000000, -9000000000000000000]))
    for name, frm, to, val in (("nan", "f64", "i32", NAN), ("inf", "f64", "i64", INF), ("neg_inf", "f32", "i32", -INF),
                               ("too_big", "f64", "i32", 3e9), ("too_small", "f64", "i32", -2147483649.0),
                               ("too_big_i64", "f32", "i64", 2.0**63), ("nan_f32", "f32", "i64", NAN),
                               ("complex_nan", "c64", "i32", complex(NAN, 0))):
        f.add(f"cast_{frm}_{name}_to_{to}_invalid", "cast", [V(frm, [1.0 if frm != "c64" else 1j, val])],
              {"dtype": to}, error="invalid_argument")
    f.add("cast_f64_to_f32_rounds", "cast", [V("f64", [0.1, 1e40, -1e-50])], {"dtype": "f32"},
          expected=V("f32", [f32(0.1), INF, -0.0]))
    f.add("cast_i64_to_i32_in_range", "cast", [V("i64", [-5, I32_MAX])], {"dtype": "i32"},
          expected=V("i32", [-5, I32_MAX]))
    f.add("cast_i32_to_f32_rounds", "cast", [V("i32", [16777217, -3])], {"dtype": "f32"},
          expected=V("f32", [16777216.0, -3.0]))
    f.add("cast_f32_to_bool", "cast", [V("f32", [0.0, 2.5, -0.0, NAN, -1e-30])], {"dtype": "bool"},
          expected=V("bool", [False, True, False, True, True]))
    f.add("cast_i32_to_bool", "cast", [V("i32", [0, -1, 7])], {"dtype": "bool"}, expected=V("bool", [False, True, True]))
    f.add("cast_c64_to_bool_either_part", "cast", [V("c64", [0j, 1j, 2 + 0j, 1 + 1j])], {"dtype": "bool"},
          expected=V("bool", [False, True, True, True]))
    f.add("cast_c64_to_f64_real_part", "cast", [V("c64", [1.5 - 2j, -3 + 4j])], {"dtype": "f64"},
          expected=V("f64", [1.5, -3.0]))
    f.add("cast_c32_to_i32_real_part", "cast", [V("c32", [2.75 + 9j, -2.75 - 9j])], {"dtype": "i32"},
          expected=V("i32", [2, -2]))
    f.add("cast_c64_to_c32", "cast", [V("c64", [0.1 + 0.2j])], {"dtype": "c32"}, expected=V("c32", [f32(0.1 + 0.2j)]))
    f.add("cast_f64_to_c32", "cast", [V("f64", [2.5])], {"dtype": "c32"}, expected=V("c32", [2.5 + 0j]))
    f.add("cast_bool_to_i64", "cast", [M("bool", [[True, False], [False, True]])], {"dtype": "i64"},
          expected=M("i64", [[1, 0], [0, 1]]))
    f.add("cast_i64_to_c64", "cast", [V("i64", [-4])], {"dtype": "c64"}, expected=V("c64", [-4 + 0j]))
    f.add("cast_i32_to_f64_rank0", "cast", [S("i32", -17)], {"dtype": "f64"}, expected=S("f64", -17.0))
    f.add("cast_empty", "cast", [T("f64", [0, 2], [])], {"dtype": "i32"}, expected=T("i32", [0, 2], []))
    f.add("cast_unknown_dtype_name", "cast", [V("f64", [1.0])], {"dtype": "f16"}, error="invalid_argument")
    f.add("convert_unknown_dtype_name", "convert", [V("f64", [1.0])], {"dtype": "float128"}, error="invalid_argument")
    f.write()


# ---------------------------------------------------------------------------------------
# structural.json
# ---------------------------------------------------------------------------------------


def gen_structural():
    f = File("structural")
    x23 = M("i32", [[1, 2, 3], [4, 5, 6]])
    x234 = iota("f32", [2, 3, 4])
    f.add("transpose_2d", "transpose", [x23], {"permutation": [1, 0]}, expected=M("i32", [[1, 4], [2, 5], [3, 6]]))
    f.add("transpose_3d_201", "transpose", [x234], {"permutation": [2, 0, 1]}, expected=transpose(x234, [2, 0, 1]))
    f.add("transpose_3d_120", "transpose", [x234], {"permutation": [1, 2, 0]}, expected=transpose(x234, [1, 2, 0]))
    f.add("transpose_identity_c64", "transpose", [iota("c64", [2, 2])], {"permutation": [0, 1]},
          expected=iota("c64", [2, 2]))
    f.add("transpose_rank0", "transpose", [S("f64", 3.0)], {"permutation": []}, expected=S("f64", 3.0))
    f.add("transpose_bool", "transpose", [M("bool", [[True, False, False]])], {"permutation": [1, 0]},
          expected=A("bool", [3, 1], [True, False, False]))
    # reshape takes elements in column-major order: [[1,2,3],[4,5,6]] is stored 1 4 2 5 3 6
    f.add("reshape_2x3_to_3x2_column_major", "reshape", [x23], {"shape": [3, 2]},
          expected=M("i32", [[1, 5], [4, 3], [2, 6]]))
    f.add("reshape_2x3_to_6_column_major", "reshape", [x23], {"shape": [6]}, expected=V("i32", [1, 4, 2, 5, 3, 6]))
    f.add("reshape_6_to_2x3_column_major", "reshape", [V("f64", [1, 2, 3, 4, 5, 6])], {"shape": [2, 3]},
          expected=M("f64", [[1, 3, 5], [2, 4, 6]]))
    f.add("reshape_3d", "reshape", [x234], {"shape": [4, 6]}, expected=reshape(x234, [4, 6]))
    f.add("reshape_3d_to_4d", "reshape", [x234], {"shape": [3, 1, 2, 4]}, expected=reshape(x234, [3, 1, 2, 4]))
    f.add("reshape_rank0_to_1x1", "reshape", [S("c32", 1 - 1j)], {"shape": [1, 1]}, expected=A("c32", [1, 1], [1 - 1j]))
    f.add("reshape_1x1_to_rank0", "reshape", [A("i64", [1, 1], [9])], {"shape": []}, expected=S("i64", 9))
    f.add("reshape_empty", "reshape", [T("f32", [0, 4], [])], {"shape": [2, 0, 3]}, expected=T("f32", [2, 0, 3], []))
    v3 = V("f64", [1.0, 2.0, 3.0])
    f.add("broadcast_in_dim_row", "broadcast_in_dim", [v3], {"shape": [2, 3], "broadcast_dimensions": [1]},
          expected=M("f64", [[1, 2, 3], [1, 2, 3]]))
    f.add("broadcast_in_dim_col", "broadcast_in_dim", [v3], {"shape": [3, 2], "broadcast_dimensions": [0]},
          expected=M("f64", [[1, 1], [2, 2], [3, 3]]))
    x13 = M("i32", [[7, 8, 9]])
    f.add("broadcast_in_dim_extent1", "broadcast_in_dim", [x13], {"shape": [2, 3], "broadcast_dimensions": [0, 1]},
          expected=M("i32", [[7, 8, 9], [7, 8, 9]]))
    f.add("broadcast_in_dim_transposing", "broadcast_in_dim", [x23], {"shape": [3, 4, 2], "broadcast_dimensions": [2, 0]},
          expected=broadcast_in_dim(x23, [3, 4, 2], [2, 0]))
    f.add("broadcast_in_dim_rank0", "broadcast_in_dim", [S("bool", True)], {"shape": [2, 2], "broadcast_dimensions": []},
          expected=M("bool", [[True, True], [True, True]]))
    sq = M("f64", [[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    f.add("extract_diagonal_3x3", "extract_diagonal", [sq], {"axes": [0, 1]}, expected=V("f64", [1, 5, 9]))
    f.add("extract_diagonal_3x3_swapped", "extract_diagonal", [sq], {"axes": [1, 0]}, expected=V("f64", [1, 5, 9]))
    y = iota("i64", [3, 2, 3])
    f.add("extract_diagonal_rank3_keep0_drop2", "extract_diagonal", [y], {"axes": [0, 2]},
          expected=extract_diagonal(y, 0, 2))
    f.add("extract_diagonal_rank3_keep2_drop0", "extract_diagonal", [y], {"axes": [2, 0]},
          expected=extract_diagonal(y, 2, 0))
    f.add("extract_diagonal_c64", "extract_diagonal", [M("c64", [[1j, 2], [3, 4j]])], {"axes": [0, 1]},
          expected=V("c64", [1j, 4j]))
    d = V("f32", [1.0, 2.0, 3.0])
    f.add("embed_diagonal_vector", "embed_diagonal", [d], {"axes": [0, 1]},
          expected=M("f32", [[1, 0, 0], [0, 2, 0], [0, 0, 3]]))
    f.add("embed_diagonal_vector_front", "embed_diagonal", [V("f32", [1.0, 2.0])], {"axes": [0, 1]},
          expected=M("f32", [[1, 0], [0, 2]]))
    e = M("i32", [[1, 2, 3], [4, 5, 6]])
    for a, b in ((0, 1), (0, 2), (1, 0), (1, 2)):
        f.add(f"embed_diagonal_2x3_a{a}_b{b}", "embed_diagonal", [e], {"axes": [a, b]},
              expected=embed_diagonal(e, a, b))
    x34 = iota("f64", [3, 4])
    for k in (-1, 0, 1, 2, -5, 10):
        f.add(f"tril_3x4_k{k}", "tril", [x34], {"k": k}, expected=triangular(x34, k, True))
        f.add(f"triu_3x4_k{k}", "triu", [x34], {"k": k}, expected=triangular(x34, k, False))
    xb = iota("i32", [3, 3, 2])
    f.add("tril_batched_k0", "tril", [xb], {"k": 0}, expected=triangular(xb, 0, True))
    f.add("triu_batched_k1", "triu", [xb], {"k": 1}, expected=triangular(xb, 1, False))
    f.add("triu_c64", "triu", [M("c64", [[1j, 2j], [3j, 4j]])], {"k": 0}, expected=M("c64", [[1j, 2j], [0, 4j]]))
    f.add("tril_bool", "tril", [M("bool", [[True, True], [True, True]])], {"k": 0},
          expected=M("bool", [[True, False], [True, True]]))
    x45 = iota("i64", [4, 5])
    f.add("slice_basic", "slice", [x45], {"start_indices": [1, 0], "limit_indices": [3, 5], "strides": [1, 1]},
          expected=slice_(x45, [1, 0], [3, 5], [1, 1]))
    f.add("slice_strided", "slice", [x45], {"start_indices": [0, 1], "limit_indices": [4, 5], "strides": [2, 3]},
          expected=slice_(x45, [0, 1], [4, 5], [2, 3]))
    # A stride larger than the axis: one element, no overflow in the extent's arithmetic.
    f.add("slice_stride_int64_max", "slice", [V("f64", [1.0, 2.0, 3.0])],
          {"start_indices": [0], "limit_indices": [3], "strides": [I64_MAX]}, expected=V("f64", [1.0]))
    f.add("slice_empty_result", "slice", [x45], {"start_indices": [2, 2], "limit_indices": [2, 5], "strides": [1, 1]},
          expected=T("i64", [0, 3], []))
    f.add("slice_full", "slice", [x234], {"start_indices": [0, 0, 0], "limit_indices": [2, 3, 4], "strides": [1, 1, 1]},
          expected=x234)
    f.add("slice_rank3_strided", "slice", [x234], {"start_indices": [1, 0, 1], "limit_indices": [2, 3, 4],
                                                   "strides": [1, 2, 2]},
          expected=slice_(x234, [1, 0, 1], [2, 3, 4], [1, 2, 2]))
    f.add("dynamic_slice_basic", "dynamic_slice", [x45, V("i32", [1, 2])], {"slice_sizes": [2, 2]},
          expected=dynamic_slice(x45, [1, 2], [2, 2]))
    f.add("dynamic_slice_clamps_high", "dynamic_slice", [x45, V("i64", [3, 4])], {"slice_sizes": [2, 3]},
          expected=slice_(x45, [2, 2], [4, 5], [1, 1]))
    f.add("dynamic_slice_clamps_negative", "dynamic_slice", [x45, V("i32", [-2, -9])], {"slice_sizes": [1, 5]},
          expected=slice_(x45, [0, 0], [1, 5], [1, 1]))
    u = M("i64", [[-1, -2], [-3, -4]])
    f.add("dynamic_update_slice_basic", "dynamic_update_slice", [x45, u, V("i32", [1, 1])],
          expected=dynamic_update_slice(x45, u, [1, 1]))
    f.add("dynamic_update_slice_clamps", "dynamic_update_slice", [x45, u, V("i64", [10, -3])],
          expected=dynamic_update_slice(x45, u, [2, 0]))
    f.add("dynamic_update_slice_f64", "dynamic_update_slice", [iota("f64", [3]), V("f64", [9.5]), V("i32", [2])],
          expected=V("f64", [1.0, 2.0, 9.5]))
    p = M("i32", [[1, 2, 3], [4, 5, 6]])
    f.add("pad_edges_zero_default", "pad", [p], {"edge_padding_low": [1, 0], "edge_padding_high": [0, 2],
                                                 "interior_padding": [0, 0]},
          expected=pad(p, [1, 0], [0, 2], [0, 0]))
    f.add("pad_with_value", "pad", [p, S("i32", -1)], {"edge_padding_low": [1, 1], "edge_padding_high": [1, 1],
                                                       "interior_padding": [0, 0]},
          expected=pad(p, [1, 1], [1, 1], [0, 0], -1))
    f.add("pad_interior", "pad", [p, S("i32", 0)], {"edge_padding_low": [0, 0], "edge_padding_high": [0, 0],
                                                    "interior_padding": [1, 2]},
          expected=pad(p, [0, 0], [0, 0], [1, 2]))
    f.add("pad_negative_edges_crop", "pad", [p], {"edge_padding_low": [0, -1], "edge_padding_high": [-1, 0],
                                                  "interior_padding": [0, 0]},
          expected=M("i32", [[2, 3]]))
    f.add("pad_negative_low_with_interior", "pad", [V("f64", [1, 2, 3]), S("f64", 9.0)],
          {"edge_padding_low": [-2], "edge_padding_high": [1], "interior_padding": [1]},
          expected=pad(V("f64", [1, 2, 3]), [-2], [1], [1], 9.0))
    f.add("pad_negative_high_with_interior", "pad", [V("f32", [1, 2, 3])],
          {"edge_padding_low": [1], "edge_padding_high": [-2], "interior_padding": [2]},
          expected=pad(V("f32", [1, 2, 3]), [1], [-2], [2]))
    f.add("pad_c64_value", "pad", [V("c64", [1j]), S("c64", 2 + 3j)],
          {"edge_padding_low": [1], "edge_padding_high": [1], "interior_padding": [0]},
          expected=V("c64", [2 + 3j, 1j, 2 + 3j]))
    f.add("pad_rank3_mixed", "pad", [x234, S("f32", -1.0)],
          {"edge_padding_low": [1, -1, 0], "edge_padding_high": [0, 1, -2], "interior_padding": [1, 0, 1]},
          expected=pad(x234, [1, -1, 0], [0, 1, -2], [1, 0, 1], -1.0))
    f.add("pad_empty_operand", "pad", [T("f64", [0], []), S("f64", 4.0)],
          {"edge_padding_low": [1], "edge_padding_high": [2], "interior_padding": [3]},
          expected=V("f64", [4.0, 4.0, 4.0]))
    # Paddings at the int64 limits whose sum is a small extent: x lands wholly outside.
    f.add("pad_low_int64_min_high_int64_max", "pad", [V("f64", [1, 2]), S("f64", 7.0)],
          {"edge_padding_low": [-2**63], "edge_padding_high": [2**63 - 1], "interior_padding": [0]},
          expected=V("f64", [7.0]))
    f.add("pad_low_int64_max_high_int64_min", "pad", [V("f64", [1, 2, 3])],
          {"edge_padding_low": [2**63 - 1], "edge_padding_high": [-2**63], "interior_padding": [0]},
          expected=V("f64", [0.0, 0.0]))
    # Empty shapes whose other extents' product passes int64.
    f.add("reshape_empty_to_huge_extents", "reshape", [T("f64", [0, 3], [])], {"shape": [0, 2**62, 2**62, 3]},
          expected=T("f64", [0, 2**62, 2**62, 3], []))
    c1, c2, c3 = M("f64", [[1, 2], [3, 4]]), M("f64", [[5, 6]]), M("f64", [[7], [8]])
    f.add("concatenate_axis0", "concatenate", [c1, c2], {"dimension": 0}, expected=concatenate([c1, c2], 0))
    f.add("concatenate_axis1_three", "concatenate", [c1, c3, c1], {"dimension": 1},
          expected=concatenate([c1, c3, c1], 1))
    f.add("concatenate_single", "concatenate", [c1], {"dimension": 1}, expected=c1)
    f.add("concatenate_with_empty", "concatenate", [T("i32", [0, 2], []), M("i32", [[1, 2]])], {"dimension": 0},
          expected=M("i32", [[1, 2]]))
    ya, yb = iota("c32", [2, 1, 2]), iota("c32", [2, 2, 2], 10)
    f.add("concatenate_rank3_middle", "concatenate", [ya, yb], {"dimension": 1}, expected=concatenate([ya, yb], 1))
    f.add("concatenate_bool", "concatenate", [V("bool", [True]), V("bool", [False, True])], {"dimension": 0},
          expected=V("bool", [True, False, True]))
    f.add("reverse_axis0", "reverse", [x23], {"dimensions": [0]}, expected=M("i32", [[4, 5, 6], [1, 2, 3]]))
    f.add("reverse_axis1", "reverse", [x23], {"dimensions": [1]}, expected=M("i32", [[3, 2, 1], [6, 5, 4]]))
    f.add("reverse_both", "reverse", [x23], {"dimensions": [1, 0]}, expected=M("i32", [[6, 5, 4], [3, 2, 1]]))
    f.add("reverse_none", "reverse", [x23], {"dimensions": []}, expected=x23)
    f.add("reverse_rank3", "reverse", [x234], {"dimensions": [0, 2]}, expected=reverse(x234, [0, 2]))
    f.write()


# ---------------------------------------------------------------------------------------
# reduce.json
# ---------------------------------------------------------------------------------------


def gen_reduce():
    f = File("reduce")
    x = M("f64", [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    for op in ("reduce_sum", "reduce_prod", "reduce_max", "reduce_min"):
        for dims in ([0], [1], [0, 1], [1, 0], []):
            tag = "".join(map(str, dims)) or "none"
            f.add(f"{op}_f64_2x3_dims{tag}", op, [x], {"dimensions": dims}, expected=reduce(op, x, dims))
    y = iota("i32", [2, 3, 4])
    for op in ("reduce_sum", "reduce_prod", "reduce_max", "reduce_min"):
        f.add(f"{op}_i32_rank3_dims02", op, [y], {"dimensions": [0, 2]}, expected=reduce(op, y, [0, 2]))
        f.add(f"{op}_i32_rank3_dims21", op, [y], {"dimensions": [2, 1]}, expected=reduce(op, y, [2, 1]))
    f.add("reduce_sum_i32_wraps", "reduce_sum", [V("i32", [I32_MAX, 1, 1])], {"dimensions": [0]},
          expected=S("i32", I32_MIN + 1))
    f.add("reduce_prod_i64_wraps", "reduce_prod", [V("i64", [2**32, 2**32, 3])], {"dimensions": [0]},
          expected=S("i64", 0))
    f.add("reduce_sum_i64_large", "reduce_sum", [M("i64", [[2**60, 2**60], [-(2**61), 5]])], {"dimensions": [0, 1]},
          expected=S("i64", 5))
    f.add("reduce_max_f32_nan_propagates", "reduce_max", [M("f32", [[1.0, NAN], [3.0, 2.0]])], {"dimensions": [0]},
          expected=V("f32", [3.0, NAN]))
    f.add("reduce_min_f64_nan_propagates", "reduce_min", [M("f64", [[1.0, NAN], [3.0, 2.0]])], {"dimensions": [1]},
          expected=V("f64", [NAN, 2.0]))
    f.add("reduce_max_f64_infs", "reduce_max", [V("f64", [-INF, -1e300])], {"dimensions": [0]}, expected=S("f64", -1e300))
    f.add("reduce_min_i64_extremes", "reduce_min", [V("i64", [I64_MAX, I64_MIN, 0])], {"dimensions": [0]},
          expected=S("i64", I64_MIN))
    z = M("c64", [[1 + 1j, 2 - 1j], [0.5j, -3]])
    f.add("reduce_sum_c64", "reduce_sum", [z], {"dimensions": [0]}, expected=reduce("reduce_sum", z, [0]))
    f.add("reduce_prod_c64", "reduce_prod", [z], {"dimensions": [1]}, expected=reduce("reduce_prod", z, [1]))
    z32 = iota("c32", [3, 2])
    f.add("reduce_sum_c32_all", "reduce_sum", [z32], {"dimensions": [0, 1]}, expected=reduce("reduce_sum", z32, [0, 1]))
    f32x = A("f32", [4, 3], [0.25 * i - 1 for i in range(12)])
    f.add("reduce_sum_f32_dims1", "reduce_sum", [f32x], {"dimensions": [1]}, expected=reduce("reduce_sum", f32x, [1]))
    f.add("reduce_sum_rank0_copy", "reduce_sum", [S("f64", 2.5)], {"dimensions": []}, expected=S("f64", 2.5))
    f.add("reduce_sum_keeps_empty_axis", "reduce_sum", [T("f64", [0, 3], [])], {"dimensions": [1]},
          expected=T("f64", [0], []))
    f.add("reduce_sum_zero_extent_axis", "reduce_sum", [T("f64", [0, 3], [])], {"dimensions": [0]},
          error="invalid_argument")
    f.add("reduce_sum_duplicate_axis", "reduce_sum", [x], {"dimensions": [0, 0]}, error="invalid_argument")
    f.add("reduce_max_axis_out_of_bounds", "reduce_max", [x], {"dimensions": [2]}, error="axis_out_of_bounds")
    f.add("reduce_max_c64_unsupported", "reduce_max", [z], {"dimensions": [0]}, error="unsupported")
    f.add("reduce_sum_bool_unsupported", "reduce_sum", [V("bool", [True])], {"dimensions": [0]}, error="unsupported")
    f.write()


# ---------------------------------------------------------------------------------------
# dot_general.json
# ---------------------------------------------------------------------------------------


def dg_attrs(lb, rb, lc, rc, **kw):
    a = {"lhs_batching_dimensions": lb, "rhs_batching_dimensions": rb,
         "lhs_contracting_dimensions": lc, "rhs_contracting_dimensions": rc}
    a.update(kw)
    return a


def gen_dot_general():
    f = File("dot_general")
    a, b = M("f64", [[1, 2, 3], [4, 5, 6]]), M("f64", [[1, 0], [0, 1], [2, -1]])
    f.add("matmul_f64_2x3_3x2", "dot_general", [a, b], dg_attrs([], [], [1], [0]),
          expected=M("f64", [[7, -1], [16, -1]]))
    f.add("matmul_f64_transposed_lhs", "dot_general", [a, M("f64", [[1, 2], [3, 4]])], dg_attrs([], [], [0], [0]),
          expected=dot_general(a, M("f64", [[1, 2], [3, 4]]), [], [], [0], [0]))
    a32, b32 = iota("f32", [3, 4]), A("f32", [4, 2], [0.5 * i - 1 for i in range(8)])
    f.add("matmul_f32_3x4_4x2", "dot_general", [a32, b32], dg_attrs([], [], [1], [0]),
          expected=dot_general(a32, b32, [], [], [1], [0]))
    # batch axes go last: lhs [b=2, m=2, k=3], rhs [b=2, k=3, n=1] -> [m, n, b]
    lb, rb = iota("f64", [2, 2, 3]), A("f64", [2, 3, 1], [1, -1, 2, 0.5, 0, 1])
    f.add("batched_output_batch_last", "dot_general", [lb, rb], dg_attrs([0], [0], [2], [1]),
          expected=dot_general(lb, rb, [0], [0], [2], [1]))
    lt, rt = iota("f64", [3, 2, 2]), iota("f64", [2, 3, 4], -5)
    f.add("batched_trailing_batch_axis", "dot_general", [lt, rt], dg_attrs([2], [0], [0], [1]),
          expected=dot_general(lt, rt, [2], [0], [0], [1]))
    f.add("inner_product_rank0", "dot_general", [V("f64", [1, 2, 3]), V("f64", [4, 5, 6])], dg_attrs([], [], [0], [0]),
          expected=S("f64", 32.0))
    f.add("outer_product", "dot_general", [V("f32", [1, 2]), V("f32", [3, 4, 5])], dg_attrs([], [], [], []),
          expected=M("f32", [[3, 4, 5], [6, 8, 10]]))
    l4, r4 = iota("f64", [2, 3, 2]), iota("f64", [3, 2, 2], 2)
    f.add("two_contracting_dims", "dot_general", [l4, r4], dg_attrs([], [], [1, 2], [0, 1]),
          expected=dot_general(l4, r4, [], [], [1, 2], [0, 1]))
    f.add("two_contracting_dims_swapped_order", "dot_general", [l4, r4], dg_attrs([], [], [2, 1], [1, 0]),
          expected=dot_general(l4, r4, [], [], [2, 1], [1, 0]))
    lbb, rbb = iota("f32", [2, 2, 3]), iota("f32", [2, 3, 2])
    f.add("two_batch_dims_config_order", "dot_general", [lbb, rbb], dg_attrs([1, 0], [2, 0], [2], [1]),
          expected=dot_general(lbb, rbb, [1, 0], [2, 0], [2], [1]))
    za, zb = M("c64", [[1 + 1j, 2], [0, 1j]]), M("c64", [[1, 1j], [2 - 1j, 1]])
    f.add("matmul_c64", "dot_general", [za, zb], dg_attrs([], [], [1], [0]),
          expected=dot_general(za, zb, [], [], [1], [0]))
    f.add("matmul_c64_lhs_conj", "dot_general", [za, zb], dg_attrs([], [], [1], [0], lhs_conj=True),
          expected=dot_general(za, zb, [], [], [1], [0], lconj=True))
    f.add("matmul_c64_both_conj", "dot_general", [za, zb], dg_attrs([], [], [1], [0], lhs_conj=True, rhs_conj=True),
          expected=dot_general(za, zb, [], [], [1], [0], True, True))
    zc, zd = iota("c32", [2, 3]), iota("c32", [3, 2], 2)
    f.add("matmul_c32_rhs_conj", "dot_general", [zc, zd], dg_attrs([], [], [1], [0], rhs_conj=True),
          expected=dot_general(zc, zd, [], [], [1], [0], False, True))
    f.add("vdot_c64_conj", "dot_general", [V("c64", [1j, 2]), V("c64", [1j, 3j])],
          dg_attrs([], [], [0], [0], lhs_conj=True), expected=S("c64", 1 + 6j))
    f.add("conj_on_real_is_identity", "dot_general", [a, b], dg_attrs([], [], [1], [0], lhs_conj=True, rhs_conj=True),
          expected=M("f64", [[7, -1], [16, -1]]))
    f.add("contracting_extent_zero_gives_zeros", "dot_general", [T("f64", [2, 0], []), T("f64", [0, 3], [])],
          dg_attrs([], [], [1], [0]), expected=T("f64", [2, 3], [0.0] * 6))
    f.add("free_extent_zero", "dot_general", [T("f32", [0, 2], []), iota("f32", [2, 3])], dg_attrs([], [], [1], [0]),
          expected=T("f32", [0, 3], []))
    big_l = A("f64", [5, 7], [math.sin(i) for i in range(35)])
    big_r = A("f64", [7, 6], [math.cos(i) for i in range(42)])
    f.add("matmul_f64_5x7_7x6", "dot_general", [big_l, big_r], dg_attrs([], [], [1], [0]),
          expected=dot_general(big_l, big_r, [], [], [1], [0]))
    f.add("contracting_extent_mismatch", "dot_general", [a, M("f64", [[1, 2], [3, 4]])], dg_attrs([], [], [1], [0]),
          error="shape_mismatch")
    f.add("batch_extent_mismatch", "dot_general", [iota("f64", [2, 2, 2]), iota("f64", [3, 2, 2])],
          dg_attrs([0], [0], [2], [1]), error="shape_mismatch")
    f.add("integer_unsupported", "dot_general", [M("i32", [[1]]), M("i32", [[1]])], dg_attrs([], [], [1], [0]),
          error="unsupported")
    f.add("dtype_mismatch", "dot_general", [M("f32", [[1]]), M("f64", [[1]])], dg_attrs([], [], [1], [0]),
          error="dtype_mismatch")
    f.add("contracting_axis_out_of_bounds", "dot_general", [a, b], dg_attrs([], [], [2], [0]),
          error="axis_out_of_bounds")
    f.add("contracting_lists_differ_in_length", "dot_general", [a, b], dg_attrs([], [], [1], [0, 1]),
          error="invalid_argument")
    f.add("repeated_contracting_axis", "dot_general", [l4, r4], dg_attrs([], [], [1, 1], [0, 0]),
          error="invalid_argument")
    f.write()


# ---------------------------------------------------------------------------------------
# indexing.json
# ---------------------------------------------------------------------------------------


def g_attrs(offset_dims, collapsed, sim, ivd, sizes, obd=None, sibd=None):
    a = {"offset_dims": offset_dims, "collapsed_slice_dims": collapsed, "start_index_map": sim,
         "index_vector_dim": ivd, "slice_sizes": sizes}
    if obd is not None:
        a["operand_batching_dims"], a["start_indices_batching_dims"] = obd, sibd
    return a


def s_attrs(uwd, iwd, sdod, ivd, ibd=None, sibd=None, combiner=None, oob=None):
    a = {"update_window_dims": uwd, "inserted_window_dims": iwd, "scatter_dims_to_operand_dims": sdod,
         "index_vector_dim": ivd}
    if ibd is not None:
        a["input_batching_dims"], a["scatter_indices_batching_dims"] = ibd, sibd
    if combiner:
        a["combiner"] = combiner
    if oob:
        a["out_of_bounds"] = oob
    return a


def add_gather(f, name, x, ind, attrs):
    exp = gather(x, ind, attrs["offset_dims"], attrs["collapsed_slice_dims"], attrs["start_index_map"],
                 attrs["index_vector_dim"], attrs["slice_sizes"], attrs.get("operand_batching_dims", ()),
                 attrs.get("start_indices_batching_dims", ()))
    f.add(name, "gather", [x, ind], attrs, expected=exp)


def add_scatter(f, name, x, ind, upd, attrs):
    exp = scatter(x, ind, upd, attrs["update_window_dims"], attrs["inserted_window_dims"],
                  attrs["scatter_dims_to_operand_dims"], attrs["index_vector_dim"],
                  attrs.get("input_batching_dims", ()), attrs.get("scatter_indices_batching_dims", ()),
                  attrs.get("combiner", "add"), attrs.get("out_of_bounds", "clamp"))
    f.add(name, "scatter", [x, ind, upd], attrs, expected=exp)


def gen_indexing():
    f = File("indexing")
    x32 = M("i64", [[1, 2], [3, 4], [5, 6]])
    rows = g_attrs([1], [0], [0], 1, [1, 2])
    f.add("gather_two_windows", "gather", [x32, A("i64", [2, 1], [0, 2])], rows,
          expected=M("i64", [[1, 2], [5, 6]]))
    f.add("gather_implicit_index_vector", "gather", [x32, V("i32", [2, 0, 1])], g_attrs([1], [0], [0], 1, [1, 2]),
          expected=M("i64", [[5, 6], [1, 2], [3, 4]]))
    f.add("gather_clamps_out_of_range_starts", "gather", [x32, A("i32", [3, 1], [5, -4, 1])], rows,
          expected=M("i64", [[5, 6], [1, 2], [3, 4]]))
    x33 = M("f32", [[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    add_gather(f, "gather_window_2x2_clamped", x33, A("i64", [2, 2], [2, 2, 0, 1]),
               g_attrs([1, 2], [], [0, 1], 1, [2, 2]))
    x34 = iota("f64", [3, 4])
    add_gather(f, "gather_points_2d_index_vectors", x34, M("i32", [[0, 1], [2, 3], [1, 0]]),
               g_attrs([], [0, 1], [0, 1], 1, [1, 1]))
    add_gather(f, "gather_points_reversed_start_index_map", x34, M("i32", [[1, 0], [3, 2]]),
               g_attrs([], [0, 1], [1, 0], 1, [1, 1]))
    add_gather(f, "gather_offset_dim_first", x34, V("i64", [3, 1]), g_attrs([0], [1], [1], 1, [3, 1]))
    add_gather(f, "gather_index_vector_dim0", x34, M("i32", [[0, 2], [1, 3]]), g_attrs([], [0, 1], [0, 1], 0, [1, 1]))
    add_gather(f, "gather_batched_indices_2x2", x34, A("i32", [2, 2, 1], [0, 1, 2, 3]),
               g_attrs([2], [1], [1], 2, [3, 1]))
    add_gather(f, "gather_keep_collapsible_dim", x34, A("i32", [2, 1], [1, 2]), g_attrs([1, 2], [], [0], 1, [1, 4]))
    xb = iota("f32", [2, 3])
    add_gather(f, "gather_batching_dims", xb, V("i32", [2, 0]), g_attrs([], [1], [1], 1, [1, 1], [0], [0]))
    xb3 = iota("i32", [3, 2, 4])
    add_gather(f, "gather_batching_dims_with_window", xb3, A("i64", [2, 1], [3, 1]),
               g_attrs([1, 2], [], [2], 1, [3, 1, 2], [1], [0]))
    add_gather(f, "gather_c64", V("c64", [1j, 2, 3j]), A("i32", [2, 1], [2, 0]), g_attrs([], [0], [0], 1, [1]))
    add_gather(f, "gather_bool", V("bool", [True, False, True]), A("i32", [2, 1], [1, 1]), g_attrs([], [0], [0], 1, [1]))
    add_gather(f, "gather_float_indices_exact", V("f64", [10, 20, 30]), A("f32", [2, 1], [2.0, 0.0]),
               g_attrs([], [0], [0], 1, [1]))
    add_gather(f, "gather_empty_indices", x34, T("i32", [0, 2], []), g_attrs([], [0, 1], [0, 1], 1, [1, 1]))
    f.add("gather_non_integer_float_index", "gather", [V("f64", [1, 2]), A("f64", [1, 1], [0.5])],
          g_attrs([], [0], [0], 1, [1]), error="invalid_argument")
    f.add("gather_bool_index_tensor", "gather", [V("f64", [1, 2]), A("bool", [1, 1], [True])],
          g_attrs([], [0], [0], 1, [1]), error="invalid_argument")
    f.add("gather_slice_sizes_wrong_length", "gather", [x34, A("i32", [1, 1], [0])], g_attrs([1], [0], [0], 1, [1]),
          error="rank_mismatch")
    f.add("gather_collapsed_dim_out_of_bounds", "gather", [x34, A("i32", [1, 1], [0])],
          g_attrs([1], [2], [0], 1, [1, 4]), error="axis_out_of_bounds")
    f.add("gather_slice_larger_than_extent", "gather", [x34, A("i32", [1, 1], [0])],
          g_attrs([1, 2], [], [0], 1, [4, 4]), error="invalid_argument")

    # scatter
    z5 = V("f32", [0, 0, 0, 0, 0])
    pts = s_attrs([], [0], [0], 1)
    f.add("scatter_add_duplicates_combine", "scatter", [z5, A("i32", [3, 1], [1, 3, 1]), V("f32", [1, 2, 3])], pts,
          expected=V("f32", [0, 4, 0, 2, 0]))
    base = V("i32", [10, 20, 30, 40])
    ind = A("i64", [3, 1], [0, 2, 2])
    upd = V("i32", [5, -3, 7])
    for comb in ("add", "mul", "max", "min"):
        add_scatter(f, f"scatter_{comb}_i32", base, ind, upd, s_attrs([], [0], [0], 1, combiner=comb))
    add_scatter(f, "scatter_replace_distinct", base, A("i32", [2, 1], [3, 0]), V("i32", [-1, -2]),
                s_attrs([], [0], [0], 1, combiner="replace"))
    f.add("scatter_add_i32_wraps", "scatter", [V("i32", [I32_MAX]), A("i32", [1, 1], [0]), V("i32", [1])], pts,
          expected=V("i32", [I32_MIN]))
    m33 = iota("f64", [3, 3])
    row = M("f64", [[10, 20, 30]])
    add_scatter(f, "scatter_add_row_window", m33, A("i32", [1, 1], [1]), row, s_attrs([1], [0], [0], 1))
    add_scatter(f, "scatter_replace_column_window", m33, A("i32", [1, 1], [2]), M("f64", [[7], [8], [9]]),
                s_attrs([0], [1], [1], 1, combiner="replace"))
    # out-of-bounds windows: clamped into the operand by default; with skip (StableHLO) each
    # element whose operand index lies outside is dropped, the rest of its window applied
    oob_ind, oob_upd = A("i32", [3, 1], [7, -2, 1]), V("f32", [1, 2, 4])
    add_scatter(f, "scatter_clamps_out_of_bounds_default", z5, oob_ind, oob_upd, pts)
    f.add("scatter_clamp_explicit", "scatter", [z5, oob_ind, oob_upd], s_attrs([], [0], [0], 1, oob="clamp"),
          expected=V("f32", [2, 4, 0, 0, 1]))
    f.add("scatter_skip_out_of_bounds", "scatter", [z5, oob_ind, oob_upd], s_attrs([], [0], [0], 1, oob="skip"),
          expected=V("f32", [0, 4, 0, 0, 0]))
    win_ind, win_upd = A("i32", [2, 1], [4, 2]), M("f32", [[1, 2], [10, 20]])
    f.add("scatter_window_clamped", "scatter", [z5, win_ind, win_upd], s_attrs([1], [], [0], 1),
          expected=V("f32", [0, 0, 10, 21, 2]))
    f.add("scatter_window_skipped", "scatter", [z5, win_ind, win_upd], s_attrs([1], [], [0], 1, oob="skip"),
          expected=V("f32", [0, 0, 10, 20, 1]))
    # A 2-d window hanging off two sides of the operand, with starts below 0 and beyond the end,
    # next to one inside (model-computed: per element).
    add_scatter(f, "scatter_window_skipped_2d_partial", iota("f64", [3, 4]), M("i32", [[-1, 2], [2, -1], [1, 1]]),
                A("f64", [3, 2, 2], [float(i + 1) for i in range(12)]),
                s_attrs([1, 2], [], [0, 1], 1, oob="skip"))
    add_scatter(f, "scatter_window_skipped_2d_partial_replace", iota("f64", [3, 4]),
                M("i32", [[-1, 3], [2, 2], [5, 0]]), A("f64", [3, 2, 2], [float(i + 1) for i in range(12)]),
                s_attrs([1, 2], [], [0, 1], 1, combiner="replace", oob="skip"))
    # Starts at the int64 limits (a start of INT64_MIN cannot be negated) skip their windows.
    add_scatter(f, "scatter_window_skipped_int64_extreme_starts", iota("f64", [3, 4]),
                M("i64", [[-2**63, 1], [1, 2**63 - 1], [1, -2**63 + 1], [2**63 - 1, -2**63], [1, 1]]),
                A("f64", [5, 2, 2], [float(i + 1) for i in range(20)]), s_attrs([1, 2], [], [0, 1], 1, oob="skip"))
    add_scatter(f, "scatter_points_skipped_int64_extreme_indices", iota("i64", [3, 4]),
                M("i64", [[-2**63, 1], [2, 2**63 - 1], [2, 3]]), V("i64", [100, 200, 300]),
                s_attrs([], [0, 1], [0, 1], 1, oob="skip"))
    add_scatter(f, "scatter_2d_points", iota("i64", [3, 4]), M("i32", [[0, 1], [2, 3], [0, 1]]), V("i64", [100, 200, 300]),
                s_attrs([], [0, 1], [0, 1], 1))
    add_scatter(f, "scatter_implicit_index_vector", V("f64", [1, 2, 3]), V("i32", [2, 2]), V("f64", [0.5, 0.25]),
                s_attrs([], [0], [0], 1, combiner="mul"))
    add_scatter(f, "scatter_batching_dims", iota("f32", [2, 3]), V("i32", [2, 0]), V("f32", [100, 200]),
                s_attrs([], [1], [1], 1, [0], [0]))
    add_scatter(f, "scatter_max_f64_nan", V("f64", [1, 2]), A("i32", [2, 1], [0, 1]), V("f64", [NAN, 5]),
                s_attrs([], [0], [0], 1, combiner="max"))
    add_scatter(f, "scatter_add_c64", V("c64", [1j, 2]), A("i32", [2, 1], [1, 1]), V("c64", [1j, 1 + 1j]), pts)
    add_scatter(f, "scatter_replace_bool", V("bool", [False, False, True]), A("i32", [1, 1], [1]), V("bool", [True]),
                s_attrs([], [0], [0], 1, combiner="replace"))
    f.add("scatter_add_bool_unsupported", "scatter", [V("bool", [False]), A("i32", [1, 1], [0]), V("bool", [True])],
          pts, error="unsupported")
    f.add("scatter_unknown_combiner", "scatter", [z5, A("i32", [1, 1], [0]), V("f32", [1])],
          s_attrs([], [0], [0], 1, combiner="sub"), error="invalid_argument")
    f.add("scatter_unknown_out_of_bounds", "scatter", [z5, A("i32", [1, 1], [0]), V("f32", [1])],
          s_attrs([], [0], [0], 1, oob="wrap"), error="invalid_argument")
    f.add("scatter_updates_dtype_mismatch", "scatter", [z5, A("i32", [1, 1], [0]), V("f64", [1])], pts,
          error="dtype_mismatch")
    f.write()


# ---------------------------------------------------------------------------------------
# errors.json: one case per row (and clause) of SEMANTICS.md "Which kind for which rule"
# ---------------------------------------------------------------------------------------


def gen_errors():
    f = File("errors")
    x23, x34 = iota("f64", [2, 3]), iota("f64", [3, 4])
    e = f.add
    # dtype_mismatch
    e("dtype_operands_differ_add", "add", [V("f32", [1]), V("i32", [1])], error="dtype_mismatch")
    e("dtype_operands_differ_compare", "compare", [V("f64", [1]), V("f32", [1])], {"direction": "EQ"},
      error="dtype_mismatch")
    e("dtype_select_pred_not_bool", "select", [V("i32", [1]), V("f32", [1]), V("f32", [2])], error="dtype_mismatch")
    e("dtype_select_branches_differ", "select", [V("bool", [True]), V("f32", [1]), V("f64", [2])],
      error="dtype_mismatch")
    e("dtype_concatenate_differ", "concatenate", [V("f32", [1]), V("f64", [1])], {"dimension": 0},
      error="dtype_mismatch")
    e("dtype_rank0_real_with_complex_other_precision", "add", [S("f32", 1.0), V("c64", [1j])], error="dtype_mismatch")
    # shape_mismatch
    e("shape_elementwise_differ", "mul", [V("f32", [1, 2]), V("f32", [1, 2, 3])], error="shape_mismatch")
    e("shape_elementwise_no_implicit_broadcast", "add", [M("f32", [[1, 2]]), V("f32", [1, 2])], error="shape_mismatch")
    e("shape_concatenate_other_axes", "concatenate", [iota("f32", [2, 2]), iota("f32", [2, 3])], {"dimension": 0},
      error="shape_mismatch")
    e("shape_dot_contracted_extents", "dot_general", [x23, x23],
      dg_attrs([], [], [1], [0]), error="shape_mismatch")
    e("shape_dot_batch_extents", "dot_general", [iota("f64", [2, 3]), iota("f64", [3, 3])],
      dg_attrs([0], [0], [1], [1]), error="shape_mismatch")
    e("shape_broadcast_extent", "broadcast_in_dim", [V("f64", [1, 2, 3])], {"shape": [2, 4], "broadcast_dimensions": [1]},
      error="shape_mismatch")
    e("shape_reshape_count", "reshape", [x23], {"shape": [4]}, error="shape_mismatch")
    # A count past int64 is a count mismatch too (SEMANTICS: reshape, same element count).
    e("shape_reshape_count_past_int64", "reshape", [V("f64", [1.0])], {"shape": [1 << 32, 1 << 32]},
      error="shape_mismatch")
    e("shape_clamp_bounds", "clamp", [V("f64", [1, 2]), V("f64", [0, 0, 0]), S("f64", 1.0)], error="shape_mismatch")
    # rank_mismatch
    e("rank_transpose_permutation_length", "transpose", [x23], {"permutation": [0]}, error="rank_mismatch")
    e("rank_broadcast_dims_length", "broadcast_in_dim", [V("f64", [1, 2, 3])],
      {"shape": [3, 3], "broadcast_dimensions": [0, 1]}, error="rank_mismatch")
    e("rank_slice_vectors", "slice", [x23], {"start_indices": [0], "limit_indices": [1], "strides": [1]},
      error="rank_mismatch")
    # pad extents past int64 or negative through paddings at the int64 limits
    e("invalid_pad_low_int64_min", "pad", [V("f64", [1, 2])],
      {"edge_padding_low": [-2**63], "edge_padding_high": [0], "interior_padding": [0]}, error="invalid_argument")
    e("invalid_pad_extent_past_int64", "pad", [V("f64", [1, 2])],
      {"edge_padding_low": [2], "edge_padding_high": [2**63 - 1], "interior_padding": [0]}, error="invalid_argument")
    e("invalid_pad_interior_past_int64", "pad", [V("f64", [1, 2, 3])],
      {"edge_padding_low": [0], "edge_padding_high": [0], "interior_padding": [2**62]}, error="invalid_argument")
    e("rank_pad_vectors", "pad", [x23], {"edge_padding_low": [0], "edge_padding_high": [0, 0],
                                         "interior_padding": [0, 0]}, error="rank_mismatch")
    e("rank_gather_slice_sizes", "gather", [x34, A("i32", [1, 1], [0])], g_attrs([1], [0], [0], 1, [1, 4, 1]),
      error="rank_mismatch")
    e("rank_concatenate_ranks_differ", "concatenate", [V("f32", [1, 2]), M("f32", [[1, 2]])], {"dimension": 0},
      error="rank_mismatch")
    e("rank_tril_rank1", "tril", [V("f64", [1, 2, 3])], {"k": 0}, error="rank_mismatch")
    e("rank_triu_rank0", "triu", [S("f64", 1.0)], {"k": 0}, error="rank_mismatch")
    # axis_out_of_bounds
    e("axis_transpose_entry", "transpose", [x23], {"permutation": [0, 2]}, error="axis_out_of_bounds")
    e("axis_reduce", "reduce_sum", [x23], {"dimensions": [2]}, error="axis_out_of_bounds")
    e("axis_reverse", "reverse", [x23], {"dimensions": [5]}, error="axis_out_of_bounds")
    e("axis_concatenate", "concatenate", [x23, x23], {"dimension": 2}, error="axis_out_of_bounds")
    e("axis_gather_start_index_map", "gather", [x34, A("i32", [1, 1], [0])], g_attrs([1, 2], [], [4], 1, [1, 4]),
      error="axis_out_of_bounds")
    e("axis_scatter_inserted_window_dims", "scatter", [V("f32", [0, 0]), A("i32", [1, 1], [0]), V("f32", [1])],
      s_attrs([], [3], [0], 1), error="axis_out_of_bounds")
    e("axis_dot_contracting", "dot_general", [x23, x34], dg_attrs([], [], [2], [0]), error="axis_out_of_bounds")
    # invalid_argument
    e("invalid_transpose_repeated_axis", "transpose", [x23], {"permutation": [0, 0]}, error="invalid_argument")
    e("invalid_reduce_repeated_axis", "reduce_prod", [x23], {"dimensions": [1, 1]}, error="invalid_argument")
    e("invalid_reverse_repeated_axis", "reverse", [x23], {"dimensions": [0, 0]}, error="invalid_argument")
    e("invalid_slice_start_after_limit", "slice", [x34], {"start_indices": [2, 0], "limit_indices": [1, 4],
                                                          "strides": [1, 1]}, error="invalid_argument")
    e("invalid_slice_limit_past_extent", "slice", [x34], {"start_indices": [0, 0], "limit_indices": [3, 5],
                                                          "strides": [1, 1]}, error="invalid_argument")
    e("invalid_slice_zero_stride", "slice", [x34], {"start_indices": [0, 0], "limit_indices": [3, 4],
                                                    "strides": [1, 0]}, error="invalid_argument")
    e("invalid_slice_negative_stride", "slice", [x34], {"start_indices": [0, 0], "limit_indices": [3, 4],
                                                        "strides": [-1, 1]}, error="invalid_argument")
    e("invalid_pad_negative_interior", "pad", [x23], {"edge_padding_low": [0, 0], "edge_padding_high": [0, 0],
                                                      "interior_padding": [0, -1]}, error="invalid_argument")
    e("invalid_pad_negative_output_extent", "pad", [x34], {"edge_padding_low": [0, -3], "edge_padding_high": [0, -3],
                                                           "interior_padding": [0, 0]}, error="invalid_argument")
    e("invalid_dynamic_slice_larger_than_extent", "dynamic_slice", [x34, V("i32", [0, 0])], {"slice_sizes": [4, 1]},
      error="invalid_argument")
    e("invalid_scatter_window_larger_than_operand", "scatter",
      [V("f32", [1, 1, 1, 1, 1]), A("i32", [2, 1], [0, 0]), A("f32", [2, 6], [1] * 12)],
      s_attrs([1], [], [0], 1), error="invalid_argument")
    e("invalid_dynamic_slice_starts_length", "dynamic_slice", [x34, V("i32", [0])], {"slice_sizes": [1, 1]},
      error="invalid_argument")
    e("invalid_dynamic_update_slice_starts_length", "dynamic_update_slice",
      [x34, M("f64", [[1.0]]), V("i32", [0, 0, 0])], error="invalid_argument")
    e("invalid_dynamic_update_slice_update_too_large", "dynamic_update_slice",
      [V("f64", [1, 2]), V("f64", [1, 2, 3]), V("i32", [0])], error="invalid_argument")
    e("invalid_dot_paired_lists_lengths", "dot_general", [x23, x34], dg_attrs([], [], [1], [0, 1]),
      error="invalid_argument")
    e("invalid_dot_batching_lists_lengths", "dot_general", [iota("f64", [2, 3]), iota("f64", [2, 3])],
      dg_attrs([0], [], [1], [1]), error="invalid_argument")
    e("invalid_reduce_extent0_axis", "reduce_max", [T("f32", [2, 0], [])], {"dimensions": [1]},
      error="invalid_argument")
    e("invalid_extract_diagonal_equal_axes", "extract_diagonal", [iota("f64", [3, 3])], {"axes": [1, 1]},
      error="invalid_argument")
    e("invalid_gather_index_not_integer", "gather", [V("f64", [1, 2, 3]), A("f32", [1, 1], [1.5])],
      g_attrs([], [0], [0], 1, [1]), error="invalid_argument")
    e("invalid_scatter_index_not_integer", "scatter", [V("f64", [1, 2, 3]), A("f64", [1, 1], [0.25]), V("f64", [1])],
      s_attrs([], [0], [0], 1), error="invalid_argument")
    e("invalid_cast_nan_to_int", "cast", [V("f64", [NAN])], {"dtype": "i32"}, error="invalid_argument")
    e("invalid_cast_inf_to_int", "cast", [V("f32", [-INF])], {"dtype": "i64"}, error="invalid_argument")
    e("invalid_cast_out_of_range_to_int", "cast", [V("f64", [1e19])], {"dtype": "i64"}, error="invalid_argument")
    e("invalid_concatenate_no_inputs", "concatenate", [], {"dimension": 0}, error="invalid_argument")
    # unsupported
    e("unsupported_bool_add", "add", [V("bool", [True]), V("bool", [True])], error="unsupported")
    e("unsupported_bool_mul", "mul", [V("bool", [True]), V("bool", [True])], error="unsupported")
    e("unsupported_bool_neg", "neg", [V("bool", [True])], error="unsupported")
    e("unsupported_complex_maximum", "maximum", [V("c64", [1j]), V("c64", [1j])], error="unsupported")
    e("unsupported_complex_compare_GT", "compare", [V("c32", [1j]), V("c32", [1j])], {"direction": "GT"},
      error="unsupported")
    e("unsupported_complex_clamp", "clamp", [V("c64", [1j]), S("c64", 0j), S("c64", 1 + 0j)], error="unsupported")
    e("unsupported_complex_reduce_min", "reduce_min", [V("c32", [1j])], {"dimensions": [0]}, error="unsupported")
    e("unsupported_complex_rem", "rem", [V("c64", [1j]), V("c64", [1j])], error="unsupported")
    e("unsupported_integer_exp", "exp", [V("i32", [1])], error="unsupported")
    e("unsupported_integer_erf", "erf", [V("i64", [1])], error="unsupported")
    e("unsupported_integer_dot_general", "dot_general", [V("i64", [1]), V("i64", [1])], dg_attrs([], [], [0], [0]),
      error="unsupported")
    e("unsupported_convert_f64_to_f32", "convert", [V("f64", [1])], {"dtype": "f32"}, error="unsupported")
    e("unsupported_convert_c64_to_f64", "convert", [V("c64", [1j])], {"dtype": "f64"}, error="unsupported")
    e("unsupported_bool_scatter_add", "scatter", [V("bool", [False]), A("i32", [1, 1], [0]), V("bool", [True])],
      s_attrs([], [0], [0], 1), error="unsupported")
    # numerical_failure
    e("numerical_i32_div_by_zero", "div", [M("i32", [[4, 5]]), M("i32", [[2, 0]])], error="numerical_failure")
    e("numerical_i64_rem_by_zero", "rem", [V("i64", [4]), V("i64", [0])], error="numerical_failure")
    e("numerical_i64_negative_exponent", "pow", [V("i64", [2, 2]), V("i64", [1, -3])], error="numerical_failure")
    # case-file level: wrong input count, missing or ill-typed attrs (the tool raises invalid_argument)
    e("attr_wrong_input_count", "add", [V("f32", [1])], error="invalid_argument")
    e("attr_missing_permutation", "transpose", [x23], error="invalid_argument")
    e("attr_ill_typed_k", "tril", [x23], {"k": "one"}, error="invalid_argument")
    e("attr_unknown_direction", "compare", [V("f32", [1]), V("f32", [1])], {"direction": "XX"},
      error="invalid_argument")
    e("attr_unknown_dtype", "convert", [V("f32", [1])], {"dtype": "f8"}, error="invalid_argument")
    e("attr_diagonal_axes_not_pair", "extract_diagonal", [iota("f64", [3, 3])], {"axes": [0]},
      error="invalid_argument")
    f.write()


if __name__ == "__main__":
    gen_elementwise()
    gen_analytic()
    gen_cast()
    gen_structural()
    gen_reduce()
    gen_dot_general()
    gen_indexing()
    gen_errors()
