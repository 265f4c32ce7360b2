from lib import *
f = File("p_cast")
DT = ["bool", "i32", "i64", "f32", "f64", "c32", "c64"]
allowed = {("bool", d) for d in DT} | {(d, d) for d in DT} | {("i32", "i64"), ("i32", "f64"), ("i32", "c64"), ("i64", "f64"), ("i64", "c64"),
           ("f32", "f64"), ("f32", "c32"), ("f32", "c64"), ("f64", "c64"), ("c32", "c64")}
src = {"bool": [True, False, True], "i32": [-3, 0, 7], "i64": [-3, 0, 7], "f32": [-3.0, 0.0, 7.5], "f64": [-3.0, 0.0, 7.5],
       "c32": [-3+1j, 0j, 7.5-2j], "c64": [-3+1j, 0j, 7.5-2j]}
def conv(v, to):
    if to == "bool": return (v != 0)
    if to in ("i32", "i64"):
        if isinstance(v, complex): v = v.real
        return int(math.trunc(v))
    if to in ("f32", "f64"):
        if isinstance(v, complex): v = v.real
        return float(v)
    return complex(v)
for a in DT:
    for b in DT:
        exp = T(b, [conv(v, b) for v in src[a]])
        if (a, b) in allowed:
            f.add(f"convert_{a}_to_{b}", "convert", [T(a, src[a])], {"dtype": b}, expected=exp)
        else:
            f.add(f"convert_{a}_to_{b}_unsupported", "convert", [T(a, src[a])], {"dtype": b}, error="unsupported")
        f.add(f"cast_{a}_to_{b}", "cast", [T(a, src[a])], {"dtype": b}, expected=exp)
f.add("convert_empty_outside_lattice", "convert", [T("f64", [], [0])], {"dtype": "f32"}, error="unsupported")
f.add("convert_rank0_i64_to_f64_rounds", "convert", [S("i64", 2**53+1)], {"dtype": "f64"}, expected=S("f64", float(2**53)))
f.add("convert_i64_to_c64_large", "convert", [T("i64", [I64_MAX, I64_MIN])], {"dtype": "c64"}, expected=T("c64", [complex(2.0**63), complex(-2.0**63)]))
f.add("convert_i32_to_f64_extremes", "convert", [T("i32", [I32_MIN, I32_MAX])], {"dtype": "f64"}, expected=T("f64", [float(I32_MIN), float(I32_MAX)]))
f.add("convert_f32_to_f64_nan_inf", "convert", [T("f32", [NAN, -INF, 1e-45])], {"dtype": "f64"}, expected=T("f64", [NAN, -INF, float(np.float32(1e-45))]))
f.add("convert_f32_to_c32_nan", "convert", [T("f32", [NAN, INF])], {"dtype": "c32"}, expected=T("c32", [complex(NAN, 0), complex(INF, 0)]))
# cast boundaries float -> int
f.add("cast_f64_to_i32_bounds_ok", "cast", [T("f64", [2147483647.0, -2147483648.0, 2147483647.5, -0.9, 0.9])], {"dtype": "i32"}, expected=T("i32", [I32_MAX, I32_MIN, I32_MAX, 0, 0]))
f.add("cast_f64_to_i32_2p31_invalid", "cast", [T("f64", [0.0, 2147483648.0])], {"dtype": "i32"}, error="invalid_argument")
f.add("cast_f64_to_i32_below_min_invalid", "cast", [T("f64", [-2147483649.0])], {"dtype": "i32"}, error="invalid_argument")
f.add("cast_f32_to_i32_bounds_ok", "cast", [T("f32", [2147483520.0, -2147483648.0])], {"dtype": "i32"}, expected=T("i32", [2147483520, I32_MIN]))
f.add("cast_f32_to_i32_2p31_invalid", "cast", [T("f32", [2147483648.0])], {"dtype": "i32"}, error="invalid_argument")
f.add("cast_f64_to_i64_bounds_ok", "cast", [T("f64", [9223372036854774784.0, -9223372036854775808.0, 1e18])], {"dtype": "i64"}, expected=T("i64", [9223372036854774784, I64_MIN, 10**18]))
f.add("cast_f64_to_i64_2p63_invalid", "cast", [T("f64", [9223372036854775808.0])], {"dtype": "i64"}, error="invalid_argument")
f.add("cast_f64_to_i64_below_min_invalid", "cast", [T("f64", [-9223372036854777856.0])], {"dtype": "i64"}, error="invalid_argument")
f.add("cast_f32_to_i64_bounds_ok", "cast", [T("f32", [9223371487098961920.0, -9223372036854775808.0])], {"dtype": "i64"}, expected=T("i64", [9223371487098961920, I64_MIN]))
f.add("cast_f32_to_i64_2p63_invalid", "cast", [T("f32", [9223372036854775808.0])], {"dtype": "i64"}, error="invalid_argument")
f.add("cast_c64_to_i64_2p63_invalid", "cast", [T("c64", [complex(9223372036854775808.0, 0)])], {"dtype": "i64"}, error="invalid_argument")
f.add("cast_c64_to_i32_nan_imag_ok", "cast", [T("c64", [complex(1.5, NAN), complex(-2.5, INF)])], {"dtype": "i32"}, expected=T("i32", [1, -2]))
f.add("cast_c32_to_i64_inf_real_invalid", "cast", [T("c32", [complex(-INF, 0)])], {"dtype": "i64"}, error="invalid_argument")
f.add("cast_f32_nan_to_i32_rank0", "cast", [S("f32", NAN)], {"dtype": "i32"}, error="invalid_argument")
f.add("cast_f64_nan_to_bool", "cast", [T("f64", [NAN, -0.0, 5e-324, -INF])], {"dtype": "bool"}, expected=T("bool", [True, False, True, True]))
f.add("cast_c64_to_bool_parts", "cast", [T("c64", [complex(0, -0.0), complex(0, 1e-300), complex(NAN, 0), complex(-0.0, -0.0)])], {"dtype": "bool"}, expected=T("bool", [False, True, True, False]))
f.add("cast_c32_to_bool_tiny_imag", "cast", [T("c32", [complex(0, 1e-45)])], {"dtype": "bool"}, expected=T("bool", [True]))
f.add("cast_nan_to_bool_then", "cast", [T("f32", [NAN])], {"dtype": "bool"}, expected=T("bool", [True]))
f.add("cast_f64_to_f32_overflow_inf", "cast", [T("f64", [1e300, -1e300, 1e-300, NAN])], {"dtype": "f32"}, expected=T("f32", [INF, -INF, 0.0, NAN]))
f.add("cast_c64_to_c32_overflow", "cast", [T("c64", [complex(1e300, -1e300)])], {"dtype": "c32"}, expected=T("c32", [complex(INF, -INF)]))
f.add("cast_i64_to_f32_rounding", "cast", [T("i64", [2**24+1, I64_MAX, -(2**53)-1])], {"dtype": "f32"}, expected=T("f32", [float(2**24), 2.0**63, -(2.0**53)]))
f.add("cast_i64_to_f64_rounding", "cast", [T("i64", [2**53+1, 2**53+3, I64_MIN])], {"dtype": "f64"}, expected=T("f64", [2.0**53, 2.0**53+4, -(2.0**63)]))
f.add("cast_i32_to_f32_rounding", "cast", [T("i32", [16777217, I32_MAX, -16777219])], {"dtype": "f32"}, expected=T("f32", [16777216.0, 2147483648.0, -16777220.0]))
f.add("cast_i64_to_i32_wrap", "cast", [T("i64", [2**32+5, -(2**31)-1, I64_MIN])], {"dtype": "i32"})
f.add("cast_i64_to_i32_in_range_extremes", "cast", [T("i64", [I32_MIN, I32_MAX, -1])], {"dtype": "i32"}, expected=T("i32", [I32_MIN, I32_MAX, -1]))
f.add("cast_i32_to_i64_sign_extend", "cast", [T("i32", [I32_MIN, -1])], {"dtype": "i64"}, expected=T("i64", [I32_MIN, -1]))
f.add("cast_bool_to_c32_rank0", "cast", [S("bool", True)], {"dtype": "c32"}, expected=S("c32", 1+0j))
f.add("cast_f64_to_i32_trunc_print_m2147483648p5", "cast", [T("f64", [-2147483648.5])], {"dtype": "i32"})
f.add("cast_empty_nan_path", "cast", [T("f64", [], [0, 4])], {"dtype": "i32"}, expected=T("i32", [], [0, 4]))
f.add("cast_c64_to_f32_real_part_rounds", "cast", [T("c64", [complex(0.1, 5.0)])], {"dtype": "f32"}, expected=T("f32", [f32(0.1)]))
f.add("cast_f64_to_i64_2p53_plus", "cast", [T("f64", [9007199254740993.0, -4503599627370497.5])], {"dtype": "i64"}, expected=T("i64", [int(9007199254740993.0), int(-4503599627370497.5)]))
f.add("cast_f32_subnormal_to_i32", "cast", [T("f32", [1e-45, -1e-45])], {"dtype": "i32"}, expected=T("i32", [0, 0]))
f.write()
