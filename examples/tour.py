# examples/tour.cpp from Python: an MPS norm, a matrix chain, an elementwise expression and a
# reduction on the default device and the CPU (checked against NumPy by python/tests/test_tour.py).
import numpy as np
import tenferro as tf

def tour(device, seed=1):
    rng = np.random.default_rng(seed)
    A = tf.asarray(rng.random((8, 2, 8)), device=device)  # MPS site tensor: bond, physical, bond
    env = tf.ones((8, 8), device=device)                   # <psi|psi> of 10 sites, boundary of ones
    for _ in range(10):
        env = tf.einsum("ab,asc,bsd->cd", env, A, A)
    M = tf.asarray(rng.random((64, 64)), device=device) / 32.0
    chain = tf.einsum("ij,jk,kl->il", M, M, M)             # the planner picks the order
    x = tf.asarray(rng.random(1000), device=device)
    y = 2.0 * x * x - x / (x + 1.0)                        # runs where x lives
    return float(tf.sum(env)), float(tf.sum(chain)), float(tf.max(y))

if __name__ == "__main__":
    for dev in (tf.default_device(), tf.device("cpu")):
        print(dev, *tour(dev))
