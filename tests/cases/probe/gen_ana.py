from lib import *
f = File("p_analytic")
def m(fn, x):
    try: return fn(x)
    except (ValueError, OverflowError): return None
ops = ["exp", "log", "sin", "cos", "tanh", "sqrt", "rsqrt", "expm1", "log1p", "erf"]
# specials (hand values)
spec = {
 "exp":   ([-INF, INF, NAN, 0.0, -1000.0], [0.0, INF, NAN, 1.0, 0.0]),
 "log":   ([0.0, -0.0, -1.0, INF, NAN, 1.0], [-INF, -INF, NAN, INF, NAN, 0.0]),
 "sin":   ([INF, -INF, NAN, 0.0], [NAN, NAN, NAN, 0.0]),
 "cos":   ([INF, NAN, 0.0], [NAN, NAN, 1.0]),
 "tanh":  ([INF, -INF, NAN, 100.0, -100.0, 1000.0, -1000.0], [1.0, -1.0, NAN, 1.0, -1.0, 1.0, -1.0]),
 "sqrt":  ([-1.0, INF, -INF, NAN, 0.0], [NAN, INF, NAN, NAN, 0.0]),
 "rsqrt": ([0.0, INF, -1.0, NAN, 4.0], [INF, 0.0, NAN, NAN, 0.5]),
 "expm1": ([-INF, INF, NAN, 0.0, -1000.0], [-1.0, INF, NAN, 0.0, -1.0]),
 "log1p": ([-1.0, -2.0, INF, NAN, 0.0], [-INF, NAN, INF, NAN, 0.0]),
 "erf":   ([INF, -INF, NAN, 0.0, 10.0, -10.0], [1.0, -1.0, NAN, 0.0, 1.0, -1.0]),
}
for op, (x, y) in spec.items():
    for dt in ("f32", "f64"):
        f.add(f"{op}_{dt}_specials", op, [T(dt, x)], expected=T(dt, y))
f.add("exp_f32_overflow", "exp", [T("f32", [89.0, 88.0, -104.0])], expected=T("f32", [INF, f32(math.exp(88.0)), 0.0]))
f.add("exp_f64_overflow", "exp", [T("f64", [710.0, 709.0])], expected=T("f64", [INF, math.exp(709.0)]), rtol=1e-14)
f.add("expm1_f64_overflow", "expm1", [T("f64", [710.0, -40.0])], expected=T("f64", [INF, math.expm1(-40.0)]), rtol=1e-14)
# f64 accuracy (few ulp)
acc = {
 "sin": [1e10, 1e22, 3.14159, 1e300, -7.5],
 "cos": [1e10, 1e22, 1.5707963267948966, 1e300],
 "exp": [700.0, -700.0, 1e-8, 2.5],
 "log": [1e-300, 1e300, 1.0000001, 5e-324],
 "tanh": [20.0, 1e-8, -0.7, 5.0],
 "expm1": [-1e-9, 1e-3, 20.0, -0.5],
 "log1p": [1e10, -0.5, 1e-3, -0.999999],
 "sqrt": [2e-300, 1e300, 5e-324, 2.0],
 "rsqrt": [2.0, 1e-300, 1e300, 3.0],
 "erf": [3.0, -0.5, 1e-3, 2.5, 0.9],
}
fnm = {"sin": math.sin, "cos": math.cos, "exp": math.exp, "log": math.log, "tanh": math.tanh, "expm1": math.expm1,
       "log1p": math.log1p, "sqrt": math.sqrt, "rsqrt": lambda x: 1/math.sqrt(x), "erf": math.erf}
for op, xs in acc.items():
    f.add(f"{op}_f64_accurate_hard", op, [T("f64", xs)], expected=T("f64", [fnm[op](x) for x in xs]), rtol=1e-14)
acc32 = {"sin": [1e4, 1e5, 100.0, 3.0], "cos": [1e4, 1e5, 100.0, 1.5707964], "exp": [80.0, -80.0, 10.0, 0.5],
         "log": [1e-38, 3e38, 1.0000001, 7.0], "tanh": [0.5, 9.0, -3.0, 1e-4], "expm1": [1e-4, -10.0, 5.0, 0.25],
         "log1p": [1e-4, 1e30, -0.99, 3.0], "sqrt": [2.0, 1e-38, 3e38, 0.5], "rsqrt": [2.0, 1e-38, 3e38, 0.5], "erf": [0.5, 1.5, -2.0, 3.5]}
for op, xs in acc32.items():
    xs = [f32(x) for x in xs]
    f.add(f"{op}_f32_accurate_hard", op, [T("f32", xs)], expected=T("f32", [f32(fnm[op](x)) for x in xs]))
# complex
def ctan(z): return cmath.tanh(z)
for dt in ("c32", "c64"):
    f.add(f"log_{dt}_branch_negzero", "log", [T(dt, [complex(-1, -0.0), complex(-1, 0.0), complex(-2, -0.0)])], expected=T(dt, [complex(0, -math.pi), complex(0, math.pi), complex(math.log(2), -math.pi)]))
    f.add(f"log_{dt}_zero", "log", [T(dt, [0j])], expected=T(dt, [complex(-INF, 0)]))
    f.add(f"log1p_{dt}_branch_negzero", "log1p", [T(dt, [complex(-2, -0.0), complex(-3, 0.0)])], expected=T(dt, [complex(0, -math.pi), complex(math.log(2), math.pi)]))
    f.add(f"sqrt_{dt}_pure_imag", "sqrt", [T(dt, [2j, -2j, complex(-0.0, 0), complex(0, -0.0)])], expected=T(dt, [1+1j, 1-1j, 0j, complex(0, -0.0)]))
    f.add(f"tanh_{dt}_large_real", "tanh", [T(dt, [complex(100, 1), complex(-100, 2)] + ([complex(1000, 1)] if dt == "c64" else []))],
          expected=T(dt, [complex(1, 0), complex(-1, 0)] + ([complex(1, 0)] if dt == "c64" else [])))
    f.add(f"exp_{dt}_pure_imag", "exp", [T(dt, [complex(0, math.pi), complex(0, math.pi/2), complex(1, 0)])], expected=T(dt, [-1, 1j, math.e]))
    f.add(f"rsqrt_{dt}_imag", "rsqrt", [T(dt, [2j, -4+0j])], expected=T(dt, [0.5-0.5j, -0.5j]))
    zs = [1+2j, -0.5+0.25j, 3-1j]
    for op, fn in (("sin", cmath.sin), ("cos", cmath.cos), ("tanh", cmath.tanh), ("exp", cmath.exp), ("log", cmath.log),
                   ("sqrt", cmath.sqrt), ("expm1", lambda z: cmath.exp(z)-1), ("log1p", lambda z: cmath.log(1+z))):
        f.add(f"{op}_{dt}_generic", op, [T(dt, zs)], expected=T(dt, [fn(z) for z in zs]), rtol=(1e-5 if dt == "c32" else 1e-13))
    f.add(f"erf_{dt}_unsupported", "erf", [T(dt, [1j])], error="unsupported")
f.add("sqrt_c64_huge", "sqrt", [T("c64", [1e300+1e300j, complex(-1e308, 1e308)])], expected=T("c64", [cmath.sqrt(1e300+1e300j), cmath.sqrt(complex(-1e308, 1e308))]), rtol=1e-13)
f.add("sqrt_c32_huge", "sqrt", [T("c32", [3e38+3e38j, complex(-3e38, 1e38)])], expected=T("c32", [cmath.sqrt(3e38+3e38j), cmath.sqrt(complex(-3e38, 1e38))]))
f.add("log_c64_huge", "log", [T("c64", [1e300+1e300j, complex(-1e308, -1e308)])], expected=T("c64", [cmath.log(1e300+1e300j), cmath.log(complex(-1e308, -1e308))]), rtol=1e-13)
f.add("log_c32_huge", "log", [T("c32", [3e38+3e38j])], expected=T("c32", [cmath.log(3e38+3e38j)]))
f.add("exp_c64_accurate", "exp", [T("c64", [complex(700, 1e10), complex(-1, 1e22)])], expected=T("c64", [cmath.exp(complex(700, 1e10)), cmath.exp(complex(-1, 1e22))]), rtol=1e-13)
f.add("abs_then_precision_c64", "abs", [T("c64", [complex(1, 1e-8)])], expected=T("f64", [math.hypot(1, 1e-8)]), rtol=1e-15)
f.add("exp_c64_inf_real_print", "exp", [T("c64", [complex(-INF, 0), complex(INF, 0), complex(-INF, 3)])])
# integer/bool unsupported and empty/rank0
for op in ops:
    f.add(f"{op}_bool_unsupported", op, [T("bool", [True])], error="unsupported")
    f.add(f"{op}_i64_empty_unsupported", op, [T("i64", [], [0])], error="unsupported")
    dt = "f32" if op != "erf" else "f64"
    f.add(f"{op}_{dt}_empty_2d", op, [T(dt, [], [2, 0, 3])], expected=T(dt, [], [2, 0, 3]))
    if op != "erf":
        f.add(f"{op}_c32_empty", op, [T("c32", [], [0])], expected=T("c32", [], [0]))
        f.add(f"{op}_c64_rank0", op, [S("c64", 0.5+0.5j)], expected=S("c64", {"exp": cmath.exp, "log": cmath.log, "sin": cmath.sin, "cos": cmath.cos, "tanh": cmath.tanh, "sqrt": cmath.sqrt, "rsqrt": lambda z: 1/cmath.sqrt(z), "expm1": lambda z: cmath.exp(z)-1, "log1p": lambda z: cmath.log(1+z)}[op](0.5+0.5j)))
    f.add(f"{op}_i32_rank0_unsupported", op, [S("i32", 1)], error="unsupported")
f.write()
