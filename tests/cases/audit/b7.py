from h import *
import random
rng=random.Random(21)
f=F("b7")
def mm(A,B,m,k,n,conjA=False,conjB=False):
    out=[]
    for i in range(m):
        for j in range(n):
            s=0
            for l in range(k):
                a=A[i*k+l]; b=B[l*n+j]
                if conjA: a=a.conjugate()
                if conjB: b=b.conjugate()
                if isinstance(a,complex) or isinstance(b,complex):
                    a=complex(a); b=complex(b)
                    pr=a.real*b.real-a.imag*b.imag; pi=a.real*b.imag+a.imag*b.real
                    s=complex(s.real+pr, s.imag+pi) if isinstance(s,complex) else complex(s+pr, pi)
                else:
                    s+=a*b
            out.append(s)
    return out
attrs={"lhs_contracting_dimensions":[1],"rhs_contracting_dimensions":[0]}
for dt in ("f64","f32"):
    m,k,n=12,10,9
    A=[float(rng.randint(-3,3)) for _ in range(m*k)]; B=[float(rng.randint(-3,3)) for _ in range(k*n)]
    A[5]=INF; A[17]=NAN; B[0*n+3]=0.0; B[5*n+4]=0.0
    for j in range(n): B[5*n+j]=0.0  # row 5 of B zero: A[0][5]=inf*0 -> NaN in row 0
    f.add(f"mm_{dt}_inf_times_zero","dot_general",[T(dt,[m,k],A),T(dt,[k,n],B)],attrs,exp=T(dt,[m,n],mm(A,B,m,k,n)))
for dt in ("c64","c32"):
    m,k,n=9,10,8
    A=[complex(rng.randint(-3,3),rng.randint(-3,3)) for _ in range(m*k)]; B=[complex(rng.randint(-3,3),rng.randint(-3,3)) for _ in range(k*n)]
    A[3]=complex(INF,0); B[3*n+2]=complex(0,0); B[3*n+5]=complex(1,0)
    for cj in ((False,False),(True,False),(False,True),(True,True)):
        a=dict(attrs); a["lhs_conj"],a["rhs_conj"]=cj
        f.add(f"mm_{dt}_inf_{cj[0]}{cj[1]}","dot_general",[T(dt,[m,k],A),T(dt,[k,n],B)],a,exp=T(dt,[m,n],mm(A,B,m,k,n,*cj)))
    # no specials, large, batch in middle, conj
    b=3; m,k,n=5,7,6
    L=[complex(rng.randint(-3,3),rng.randint(-3,3)) for _ in range(m*b*k)]  # shape [m,b,k]
    R=[complex(rng.randint(-3,3),rng.randint(-3,3)) for _ in range(k*n*b)]  # shape [k,n,b]
    out=[]
    for i in range(m):
        for j in range(n):
            for bb in range(b):
                s=0
                for l in range(k): s+=L[(i*b+bb)*k+l].conjugate()*R[(l*n+j)*b+bb]
                out.append(s)
    f.add(f"bmm_{dt}_mid","dot_general",[T(dt,[m,b,k],L),T(dt,[k,n,b],R)],
          {"lhs_batching_dimensions":[1],"rhs_batching_dimensions":[2],"lhs_contracting_dimensions":[2],"rhs_contracting_dimensions":[0],"lhs_conj":True},
          exp=T(dt,[m,n,b],out))
# contracting extent 0 with BLAS-size output
f.add("mm_k0_big","dot_general",[T("f64",[20,0],[]),T("f64",[0,30],[])],attrs,exp=T("f64",[20,30],[0.0]*600))
f.add("mm_k0_big_c64","dot_general",[T("c64",[20,0],[]),T("c64",[0,30],[])],attrs,exp=T("c64",[20,30],[0j]*600))
f.run()
