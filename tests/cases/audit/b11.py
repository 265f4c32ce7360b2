from h import *
import struct, random, cmath
rng=random.Random(1)
def f32(x):
    if isinstance(x,complex): return complex(f32(x.real),f32(x.imag))
    try: return struct.unpack("f",struct.pack("f",x))[0]
    except OverflowError: return math.copysign(INF,x)
f=F("b11")
ref={"sin":(math.sin,-50,50),"cos":(math.cos,-50,50),"exp":(math.exp,-80,80),"log":(math.log,1e-3,1e6),"tanh":(math.tanh,-5,5),
     "sqrt":(math.sqrt,0,1e6),"rsqrt":(lambda x:1/math.sqrt(x),1e-3,1e6),"expm1":(math.expm1,-5,5),"log1p":(math.log1p,-0.9,100),"erf":(math.erf,-3,3)}
for op,(fn,lo,hi) in ref.items():
    xs=[rng.uniform(lo,hi) for _ in range(300)]
    f.add(f"{op}_f64_300",op,[V("f64",xs)],exp=V("f64",[fn(x) for x in xs]),rtol=2e-15)
    x32=[f32(x) for x in xs]
    f.add(f"{op}_f32_300",op,[V("f32",x32)],exp=V("f32",[f32(fn(x)) for x in x32]),rtol=1e-6)
cref={"exp":cmath.exp,"log":cmath.log,"sin":cmath.sin,"cos":cmath.cos,"tanh":cmath.tanh,"sqrt":cmath.sqrt}
for op,fn in cref.items():
    zs=[complex(rng.uniform(-5,5),rng.uniform(-5,5)) for _ in range(200)]
    f.add(f"{op}_c64_200",op,[V("c64",zs)],exp=V("c64",[fn(z) for z in zs]),rtol=2e-15)
    z32=[f32(z) for z in zs]
    f.add(f"{op}_c32_200",op,[V("c32",z32)],exp=V("c32",[f32(fn(z)) for z in z32]),rtol=2e-6)
a=[rng.uniform(0.1,10) for _ in range(300)]; b=[rng.uniform(-10,10) for _ in range(300)]
f.add("pow_f64_300","pow",[V("f64",a),V("f64",b)],exp=V("f64",[math.pow(x,y) for x,y in zip(a,b)]),rtol=2e-15)
a32=[f32(x) for x in a]; b32=[f32(x) for x in b]
f.add("pow_f32_300","pow",[V("f32",a32),V("f32",b32)],exp=V("f32",[f32(math.pow(x,y)) for x,y in zip(a32,b32)]),rtol=2e-6)
f.add("div_f32_300","div",[V("f32",a32),V("f32",b32)],exp=V("f32",[f32(x/y) for x,y in zip(a32,b32)]),rtol=1e-7)
f.add("rem_f64_300","rem",[V("f64",b),V("f64",a)],exp=V("f64",[math.fmod(y,x) for x,y in zip(a,b)]),rtol=1e-16)
f.run()
