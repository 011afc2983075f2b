"""The corpus's Python forms: NumPy (as a NumPy user writes it, whole-array
operations, `@` for products) and Numba (`@njit(parallel=True)`, the suite's
loops with the outer independent one as `prange`).

Run by the corpus harness (benches/corpus/harness.rs), never by hand:

    python3 bench/corpus.py PROGRAM DIR

DIR holds the inputs the harness wrote (`inputs.txt`: `array NAME DTYPE
DIM..` and `scalar NAME VALUE` lines, each array in `NAME.bin`, little-endian,
row-major). For each form this writes its result, flattened to float64 in the
order of the Rust result, to `DIR/FORM.bin`, and prints `FORM SECONDS` (the
median of the timed calls, after one untimed call that also compiles Numba's
form). A form whose library is missing is left out, with a line on stderr.
"""

import sys
import time

import numpy as np

try:
    import numba
    from numba import njit, prange
except ImportError:  # NumPy alone: the harness shows no Numba column
    numba = None

    def njit(*_args, **_kwargs):
        return lambda f: f

    prange = range

F32 = np.float32
FORMS = {}


def forms(name):
    """Registers `(numpy_form, numba_form)` for program `name`."""

    def register(pair):
        FORMS[name] = pair()
        return pair

    return register


# ---------------------------------------------------------------- PolyBench


@forms("gemm")
def _():
    def np_form(a, b, c, alpha, beta):
        return F32(alpha) * (a @ b) + F32(beta) * c

    @njit(parallel=True)
    def nb(a, b, c, alpha, beta):
        ni, nk = a.shape
        nj = b.shape[1]
        out = c.copy()
        for i in prange(ni):
            for j in range(nj):
                out[i, j] *= beta
            for k in range(nk):
                t = alpha * a[i, k]
                for j in range(nj):
                    out[i, j] += t * b[k, j]
        return out

    return np_form, lambda a, b, c, alpha, beta: nb(a, b, c, F32(alpha), F32(beta))


@forms("2mm")
def _():
    def np_form(a, b, c, d, alpha, beta):
        return (F32(alpha) * a @ b) @ c + F32(beta) * d

    @njit(parallel=True)
    def nb(a, b, c, d, alpha, beta):
        ni, nk = a.shape
        nj = b.shape[1]
        nl = c.shape[1]
        tmp = np.zeros((ni, nj), dtype=np.float32)
        out = d.copy()
        for i in prange(ni):
            for k in range(nk):
                t = alpha * a[i, k]
                for j in range(nj):
                    tmp[i, j] += t * b[k, j]
        for i in prange(ni):
            for j in range(nl):
                out[i, j] *= beta
            for k in range(nj):
                t = tmp[i, k]
                for j in range(nl):
                    out[i, j] += t * c[k, j]
        return out

    return np_form, lambda a, b, c, d, alpha, beta: nb(a, b, c, d, F32(alpha), F32(beta))


@njit(parallel=True)
def _nb_matmul(a, b):
    n, kk = a.shape
    m = b.shape[1]
    out = np.zeros((n, m), dtype=a.dtype)
    for i in prange(n):
        for k in range(kk):
            t = a[i, k]
            for j in range(m):
                out[i, j] += t * b[k, j]
    return out


@forms("3mm")
def _():
    def np_form(a, b, c, d):
        return (a @ b) @ (c @ d)

    def nb(a, b, c, d):
        return _nb_matmul(_nb_matmul(a, b), _nb_matmul(c, d))

    return np_form, nb


@forms("atax")
def _():
    def np_form(a, x):
        return a.T @ (a @ x)

    @njit(parallel=True)
    def nb(a, x):
        m, n = a.shape
        tmp = np.zeros(m, dtype=np.float32)
        for i in prange(m):
            s = F32(0.0)
            for j in range(n):
                s += a[i, j] * x[j]
            tmp[i] = s
        y = np.zeros(n, dtype=np.float32)
        for j in prange(n):
            s = F32(0.0)
            for i in range(m):
                s += a[i, j] * tmp[i]
            y[j] = s
        return y

    return np_form, nb


@forms("bicg")
def _():
    def np_form(a, p, r):
        return [r @ a, a @ p]

    @njit(parallel=True)
    def nb(a, p, r):
        n, m = a.shape
        s = np.zeros(m, dtype=np.float32)
        q = np.zeros(n, dtype=np.float32)
        for j in prange(m):
            t = F32(0.0)
            for i in range(n):
                t += r[i] * a[i, j]
            s[j] = t
        for i in prange(n):
            t = F32(0.0)
            for j in range(m):
                t += a[i, j] * p[j]
            q[i] = t
        return s, q

    return np_form, lambda a, p, r: list(nb(a, p, r))


@forms("mvt")
def _():
    def np_form(a, x1, x2, y1, y2):
        return [x1 + a @ y1, x2 + a.T @ y2]

    @njit(parallel=True)
    def nb(a, x1, x2, y1, y2):
        n = a.shape[0]
        o1 = x1.copy()
        o2 = x2.copy()
        for i in prange(n):
            t = o1[i]
            for j in range(n):
                t += a[i, j] * y1[j]
            o1[i] = t
        for i in prange(n):
            t = o2[i]
            for j in range(n):
                t += a[j, i] * y2[j]
            o2[i] = t
        return o1, o2

    return np_form, lambda a, x1, x2, y1, y2: list(nb(a, x1, x2, y1, y2))


@forms("gemver")
def _():
    def np_form(a, u1, v1, u2, v2, y, z, alpha, beta):
        a2 = a + np.outer(u1, v1) + np.outer(u2, v2)
        x = F32(beta) * (a2.T @ y) + z
        w = F32(alpha) * (a2 @ x)
        return [a2, x, w]

    @njit(parallel=True)
    def nb(a, u1, v1, u2, v2, y, z, alpha, beta):
        n = a.shape[0]
        a2 = np.empty_like(a)
        for i in prange(n):
            for j in range(n):
                a2[i, j] = a[i, j] + u1[i] * v1[j] + u2[i] * v2[j]
        x = np.zeros(n, dtype=np.float32)
        for i in prange(n):
            t = F32(0.0)
            for j in range(n):
                t += beta * a2[j, i] * y[j]
            x[i] = t + z[i]
        w = np.zeros(n, dtype=np.float32)
        for i in prange(n):
            t = F32(0.0)
            for j in range(n):
                t += alpha * a2[i, j] * x[j]
            w[i] = t
        return a2, x, w

    return np_form, lambda a, u1, v1, u2, v2, y, z, alpha, beta: list(
        nb(a, u1, v1, u2, v2, y, z, F32(alpha), F32(beta))
    )


@forms("gesummv")
def _():
    def np_form(a, b, x, alpha, beta):
        return F32(alpha) * (a @ x) + F32(beta) * (b @ x)

    @njit(parallel=True)
    def nb(a, b, x, alpha, beta):
        n = a.shape[0]
        y = np.zeros(n, dtype=np.float32)
        for i in prange(n):
            t = F32(0.0)
            u = F32(0.0)
            for j in range(n):
                t += a[i, j] * x[j]
                u += b[i, j] * x[j]
            y[i] = alpha * t + beta * u
        return y

    return np_form, lambda a, b, x, alpha, beta: nb(a, b, x, F32(alpha), F32(beta))


@forms("syrk")
def _():
    def np_form(c, a, alpha, beta):
        low = np.tril(np.ones(c.shape, dtype=bool))
        return np.where(low, F32(beta) * c + F32(alpha) * (a @ a.T), c)

    @njit(parallel=True)
    def nb(c, a, alpha, beta):
        n, m = a.shape
        out = c.copy()
        for i in prange(n):
            for j in range(i + 1):
                out[i, j] *= beta
            for k in range(m):
                t = alpha * a[i, k]
                for j in range(i + 1):
                    out[i, j] += t * a[j, k]
        return out

    return np_form, lambda c, a, alpha, beta: nb(c, a, F32(alpha), F32(beta))


@forms("syr2k")
def _():
    def np_form(c, a, b, alpha, beta):
        low = np.tril(np.ones(c.shape, dtype=bool))
        alpha = F32(alpha)
        return np.where(low, F32(beta) * c + (alpha * (b @ a.T) + alpha * (a @ b.T)), c)

    @njit(parallel=True)
    def nb(c, a, b, alpha, beta):
        n, m = a.shape
        out = c.copy()
        for i in prange(n):
            for j in range(i + 1):
                out[i, j] *= beta
            for k in range(m):
                for j in range(i + 1):
                    out[i, j] += a[j, k] * alpha * b[i, k] + b[j, k] * alpha * a[i, k]
        return out

    return np_form, lambda c, a, b, alpha, beta: nb(c, a, b, F32(alpha), F32(beta))


@forms("trmm")
def _():
    def np_form(a, b, alpha):
        # B := alpha * (I + strictly lower part of A)^T B.
        m = a.shape[0]
        return F32(alpha) * ((np.tril(a, -1) + np.eye(m, dtype=np.float32)).T @ b)

    @njit(parallel=True)
    def nb(a, b, alpha):
        m, n = b.shape
        out = np.empty_like(b)
        for i in prange(m):
            for j in range(n):
                out[i, j] = b[i, j]
            for k in range(i + 1, m):
                t = a[k, i]
                for j in range(n):
                    out[i, j] += t * b[k, j]
            for j in range(n):
                out[i, j] *= alpha
        return out

    return np_form, lambda a, b, alpha: nb(a, b, F32(alpha))


@forms("symm")
def _():
    def np_form(c, a, b, alpha, beta):
        # A symmetric, stored in its lower triangle.
        low = np.tril(a, -1)
        sym = low + low.T + np.diag(np.diag(a))
        return F32(beta) * c + F32(alpha) * (sym @ b)

    @njit(parallel=True)
    def nb(c, a, b, alpha, beta):
        m, n = c.shape
        out = np.empty_like(c)
        for i in prange(m):
            for j in range(n):
                t = F32(0.0)
                for k in range(m):
                    aik = a[i, k] if k <= i else a[k, i]
                    t += aik * b[k, j]
                out[i, j] = beta * c[i, j] + alpha * t
        return out

    return np_form, lambda c, a, b, alpha, beta: nb(c, a, b, F32(alpha), F32(beta))


@forms("doitgen")
def _():
    def np_form(a, c4):
        return a @ c4

    @njit(parallel=True)
    def nb(a, c4):
        nr, nq, np_ = a.shape
        out = np.zeros_like(a)
        for r in prange(nr):
            for q in range(nq):
                for s in range(np_):
                    t = a[r, q, s]
                    for p in range(np_):
                        out[r, q, p] += t * c4[s, p]
        return out

    return np_form, nb


@forms("covariance")
def _():
    def np_form(data, float_n):
        d = data - data.mean(axis=0, dtype=np.float32)
        return (d.T @ d) / (F32(float_n) - F32(1.0))

    @njit(parallel=True)
    def nb(data, float_n):
        n, m = data.shape
        mean = np.zeros(m, dtype=np.float32)
        for j in prange(m):
            t = F32(0.0)
            for i in range(n):
                t += data[i, j]
            mean[j] = t / float_n
        d = np.empty_like(data)
        for i in prange(n):
            for j in range(m):
                d[i, j] = data[i, j] - mean[j]
        cov = np.zeros((m, m), dtype=np.float32)
        for i in prange(m):
            for j in range(i, m):
                t = F32(0.0)
                for k in range(n):
                    t += d[k, i] * d[k, j]
                t /= float_n - F32(1.0)
                cov[i, j] = t
                cov[j, i] = t
        return cov

    return np_form, lambda data, float_n: nb(data, F32(float_n))


@forms("correlation")
def _():
    def np_form(data, float_n):
        fn = F32(float_n)
        mean = data.mean(axis=0, dtype=np.float32)
        std = np.sqrt(((data - mean) ** 2).mean(axis=0, dtype=np.float32))
        std = np.where(std <= F32(0.1), F32(1.0), std)
        d = (data - mean) / (np.sqrt(fn) * std)
        corr = d.T @ d
        np.fill_diagonal(corr, F32(1.0))
        return corr

    @njit(parallel=True)
    def nb(data, float_n):
        n, m = data.shape
        mean = np.zeros(m, dtype=np.float32)
        std = np.zeros(m, dtype=np.float32)
        for j in prange(m):
            t = F32(0.0)
            for i in range(n):
                t += data[i, j]
            mean[j] = t / float_n
            s = F32(0.0)
            for i in range(n):
                e = data[i, j] - mean[j]
                s += e * e
            s = np.sqrt(s / float_n)
            std[j] = F32(1.0) if s <= F32(0.1) else s
        d = np.empty_like(data)
        sq = np.sqrt(float_n)
        for i in prange(n):
            for j in range(m):
                d[i, j] = (data[i, j] - mean[j]) / (sq * std[j])
        corr = np.zeros((m, m), dtype=np.float32)
        for i in prange(m):
            corr[i, i] = F32(1.0)
            for j in range(i + 1, m):
                t = F32(0.0)
                for k in range(n):
                    t += d[k, i] * d[k, j]
                corr[i, j] = t
                corr[j, i] = t
        return corr

    return np_form, lambda data, float_n: nb(data, F32(float_n))


# ---------------------------------------------------------------- PolyBench stencils


@forms("jacobi-1d")
def _():
    third = F32(0.33333)

    def np_form(a, b, tsteps):
        a, b = a.copy(), b.copy()
        for _ in range(int(tsteps)):
            b[1:-1] = third * (a[:-2] + a[1:-1] + a[2:])
            a[1:-1] = third * (b[:-2] + b[1:-1] + b[2:])
        return [a, b]

    @njit(parallel=True)
    def nb(a, b, tsteps):
        a = a.copy()
        b = b.copy()
        n = a.shape[0]
        for _ in range(tsteps):
            for i in prange(1, n - 1):
                b[i] = third * (a[i - 1] + a[i] + a[i + 1])
            for i in prange(1, n - 1):
                a[i] = third * (b[i - 1] + b[i] + b[i + 1])
        return a, b

    return np_form, lambda a, b, tsteps: list(nb(a, b, int(tsteps)))


@forms("jacobi-2d")
def _():
    fifth = F32(0.2)

    def np_form(a, b, tsteps):
        a, b = a.copy(), b.copy()
        for _ in range(int(tsteps)):
            b[1:-1, 1:-1] = fifth * (a[1:-1, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:] + a[2:, 1:-1] + a[:-2, 1:-1])
            a[1:-1, 1:-1] = fifth * (b[1:-1, 1:-1] + b[1:-1, :-2] + b[1:-1, 2:] + b[2:, 1:-1] + b[:-2, 1:-1])
        return a

    @njit(parallel=True)
    def nb(a, b, tsteps):
        a = a.copy()
        b = b.copy()
        n = a.shape[0]
        for _ in range(tsteps):
            for i in prange(1, n - 1):
                for j in range(1, n - 1):
                    b[i, j] = fifth * (a[i, j] + a[i, j - 1] + a[i, j + 1] + a[i + 1, j] + a[i - 1, j])
            for i in prange(1, n - 1):
                for j in range(1, n - 1):
                    a[i, j] = fifth * (b[i, j] + b[i, j - 1] + b[i, j + 1] + b[i + 1, j] + b[i - 1, j])
        return a

    return np_form, lambda a, b, tsteps: nb(a, b, int(tsteps))


@forms("heat-3d")
def _():
    eighth, two = F32(0.125), F32(2.0)

    def np_step(s, d):
        c = s[1:-1, 1:-1, 1:-1]
        d[1:-1, 1:-1, 1:-1] = (
            eighth * (s[2:, 1:-1, 1:-1] - two * c + s[:-2, 1:-1, 1:-1])
            + eighth * (s[1:-1, 2:, 1:-1] - two * c + s[1:-1, :-2, 1:-1])
            + eighth * (s[1:-1, 1:-1, 2:] - two * c + s[1:-1, 1:-1, :-2])
            + c
        )

    def np_form(a, b, tsteps):
        a, b = a.copy(), b.copy()
        for _ in range(int(tsteps)):
            np_step(a, b)
            np_step(b, a)
        return a

    @njit(parallel=True)
    def nb_step(s, d):
        n = s.shape[0]
        for i in prange(1, n - 1):
            for j in range(1, n - 1):
                for k in range(1, n - 1):
                    c = s[i, j, k]
                    d[i, j, k] = (
                        eighth * (s[i + 1, j, k] - two * c + s[i - 1, j, k])
                        + eighth * (s[i, j + 1, k] - two * c + s[i, j - 1, k])
                        + eighth * (s[i, j, k + 1] - two * c + s[i, j, k - 1])
                        + c
                    )

    def nb(a, b, tsteps):
        a, b = a.copy(), b.copy()
        for _ in range(int(tsteps)):
            nb_step(a, b)
            nb_step(b, a)
        return a

    return np_form, nb


@forms("fdtd-2d")
def _():
    half, c7 = F32(0.5), F32(0.7)

    def np_form(fict, ex, ey, hz):
        ex, ey, hz = ex.copy(), ey.copy(), hz.copy()
        for f in fict:
            ey[0, :] = f
            ey[1:, :] -= half * (hz[1:, :] - hz[:-1, :])
            ex[:, 1:] -= half * (hz[:, 1:] - hz[:, :-1])
            hz[:-1, :-1] -= c7 * (ex[:-1, 1:] - ex[:-1, :-1] + ey[1:, :-1] - ey[:-1, :-1])
        return [ex, ey, hz]

    @njit(parallel=True)
    def nb(fict, ex, ey, hz):
        ex = ex.copy()
        ey = ey.copy()
        hz = hz.copy()
        nx, ny = ex.shape
        for t in range(fict.shape[0]):
            for j in range(ny):
                ey[0, j] = fict[t]
            for i in prange(1, nx):
                for j in range(ny):
                    ey[i, j] -= half * (hz[i, j] - hz[i - 1, j])
            for i in prange(nx):
                for j in range(1, ny):
                    ex[i, j] -= half * (hz[i, j] - hz[i, j - 1])
            for i in prange(nx - 1):
                for j in range(ny - 1):
                    hz[i, j] -= c7 * (ex[i, j + 1] - ex[i, j] + ey[i + 1, j] - ey[i, j])
        return ex, ey, hz

    return np_form, lambda fict, ex, ey, hz: list(nb(fict, ex, ey, hz))


# ---------------------------------------------------------------- the driver


def load(d):
    args = {}
    with open(f"{d}/inputs.txt") as f:
        for line in f:
            w = line.split()
            if w[0] == "array":
                shape = tuple(int(x) for x in w[3:])
                args[w[1]] = np.fromfile(f"{d}/{w[1]}.bin", dtype=np.dtype(w[2]).newbyteorder("<")).reshape(shape)
            elif w[0] == "scalar":
                args[w[1]] = float(w[2])
    return args


def flat(result):
    parts = result if isinstance(result, (list, tuple)) else [result]
    return np.concatenate([np.asarray(p, dtype=np.float64).ravel() for p in parts])


def timed(f, args):
    samples = []
    start = time.perf_counter()
    while len(samples) < 3 or (len(samples) < 21 and time.perf_counter() - start < 1.5):
        t = time.perf_counter()
        f(**args)
        samples.append(time.perf_counter() - t)
    samples.sort()
    return samples[len(samples) // 2]


def main():
    name, d = sys.argv[1], sys.argv[2]
    if name not in FORMS:
        sys.exit(f"corpus.py: no Python form of `{name}`")
    args = load(d)
    np_form, nb_form = FORMS[name]
    for form, f in [("numpy", np_form), ("numba", nb_form)]:
        if form == "numba" and numba is None:
            print("corpus.py: numba is not installed: no Numba column", file=sys.stderr)
            continue
        flat(f(**args)).astype("<f8").tofile(f"{d}/{form}.bin")
        print(form, timed(f, args), flush=True)


if __name__ == "__main__":
    main()
