from h import *
import struct, cmath
def f32(x):
    if isinstance(x, complex): return complex(f32(x.real), f32(x.imag))
    try: return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError: return math.copysign(INF, x)
f=F("b4")
args={"sin":[1e10,1e22,3.14159265358979,1e5,-7e7,710.0,2.0**60],
      "cos":[1e10,1e22,1.5707963267948966,1e5,-7e7,2.0**60],
      "exp":[709.0,-700.0,88.0,-87.0,0.693,50.5],
      "log":[1e-300,1e300,1.0000001,0.9999999,7.0,2.0**-1060],
      "tanh":[0.1,0.5,1.0,5.0,19.0,-0.3],
      "sqrt":[2.0,1e-300,1e300,7.0,2.0**-1070],
      "rsqrt":[2.0,1e-300,1e300,7.0,3.0],
      "expm1":[0.1,-0.1,1.0,-20.0,700.0,1e-8],
      "log1p":[0.1,-0.1,1e300,-0.999999,1e-8,7.0],
      "erf":[0.5,1.5,2.5,-0.9,4.0,1e-3]}
ref={"sin":math.sin,"cos":math.cos,"exp":math.exp,"log":math.log,"tanh":math.tanh,"sqrt":math.sqrt,"rsqrt":lambda x:1/math.sqrt(x),
     "expm1":math.expm1,"log1p":math.log1p,"erf":math.erf}
for op,xs in args.items():
    f.add(f"{op}_f64_ulp",op,[V("f64",xs)],exp=V("f64",[ref[op](x) for x in xs]),rtol=1e-15)
    x32=[f32(x) for x in xs]
    e=[]
    for x in x32:
        try: e.append(f32(ref[op](x)))
        except (OverflowError, ValueError, ZeroDivisionError): e.append(None)
    ok=[(a,b) for a,b in zip(x32,e) if b is not None and math.isfinite(b)]
    f.add(f"{op}_f32_ulp",op,[V("f32",[a for a,_ in ok])],exp=V("f32",[b for _,b in ok]),rtol=1e-6)
# complex f64 accuracy
zs=[complex(0.3,0.4),complex(-2.5,1.5),complex(10,-3),complex(1e-3,2),complex(-0.5,-7)]
cref={"exp":cmath.exp,"log":cmath.log,"sin":cmath.sin,"cos":cmath.cos,"tanh":cmath.tanh,"sqrt":cmath.sqrt,"rsqrt":lambda z:1/cmath.sqrt(z),
      "expm1":lambda z:cmath.exp(z)-1,"log1p":lambda z:cmath.log(1+z)}
for op,fn in cref.items():
    f.add(f"{op}_c64_ulp",op,[V("c64",zs)],exp=V("c64",[fn(z) for z in zs]),rtol=1e-15)
    z32=[f32(z) for z in zs]
    f.add(f"{op}_c32_ulp",op,[V("c32",z32)],exp=V("c32",[f32(fn(z)) for z in z32]),rtol=1e-6)
# pow accuracy
pa=[2.5,0.3,10.0,1.0001,7.0]; pb=[3.7,-2.2,300.0,1e5,-0.5]
f.add("pow_f64_ulp","pow",[V("f64",pa),V("f64",pb)],exp=V("f64",[math.pow(a,b) for a,b in zip(pa,pb)]),rtol=1e-15)
za=[complex(1,2),complex(-3,0.5),complex(0.5,-0.5)]; zb=[complex(0.5,1),complex(2,0),complex(-1.5,0.25)]
f.add("pow_c64_ulp","pow",[V("c64",za),V("c64",zb)],exp=V("c64",[a**b for a,b in zip(za,zb)]),rtol=1e-14)
f.add("pow_c64_int_exp","pow",[V("c64",[complex(1,1),complex(-2,0),complex(0,1)]),V("c64",[complex(3,0),complex(5,0),complex(4,0)])],
      exp=V("c64",[complex(-2,2),complex(-32,0),complex(1,0)]),rtol=1e-14)
f.add("pow_c64_neg_real_base_frac","pow",[V("c64",[complex(-8,0),complex(-8,-0.0)]),V("c64",[complex(1/3,0),complex(1/3,0)])],
      exp=V("c64",[complex(-8,0)**(1/3), complex(1.0,-1.7320508075688772)]),rtol=1e-14)
f.run()
