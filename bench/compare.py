"""The benchmark programs in NumPy and in JAX (jax.jit on the CPU), on the
inputs the Rust harness wrote (`BENCH_DATA`, see benches/programs.rs), at the
same sizes. Writes the median times as JSON.

    python bench/compare.py DATA_DIR OUT.json
    python bench/compare.py --gpu DATA_DIR OUT.json   # CuPy and JAX on the GPU

With `--gpu` the same programs run in CuPy (the NumPy code on `cupy` arrays,
`cupyx.scipy.sparse` for SpMV) and in JAX on the GPU; inputs are copied to the
device before timing and every timed call waits for the device to finish.

Each program is written the way a NumPy or JAX user would write it (whole-array
operations; scipy.sparse for SpMV in NumPy; lax loops under jit in JAX). Every
JAX result is compared with the NumPy one before timing.
"""

import json
import os
import statistics
import sys
import time

import numpy as np

GPU = "--gpu" in sys.argv
if GPU:
    sys.argv.remove("--gpu")
    import cupy as xp  # the array library NumPy programs run on
else:
    xp = np
# The NumPy (or CuPy) system's name in the results.
LIB = "cupy" if GPU else "numpy"

os.environ.setdefault("JAX_PLATFORMS", "cuda" if GPU else "cpu")
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

RUNS = int(os.environ.get("BENCH_RUNS", "7"))


def load(data, name, dtype, shape=None):
    a = np.fromfile(os.path.join(data, name), dtype=dtype)
    return a.reshape(shape) if shape is not None else a


def dev(a):
    """`a` in the array library's memory (on the GPU with `--gpu`)."""
    return xp.asarray(a)


def done(r):
    """Waits until `r` (a JAX or NumPy/CuPy result) is computed."""
    jax.block_until_ready(r)
    if GPU:
        xp.cuda.Device().synchronize()
    return r


def median_time(f, runs=RUNS):
    """Median wall time of `f()` after one warm-up call (JAX compiles then)."""
    done(f())
    ts = []
    for _ in range(runs):
        t = time.perf_counter()
        done(f())
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def host(a):
    return a.get() if GPU and isinstance(a, xp.ndarray) else a


def close(a, b, what, rtol=1e-3, atol=1e-3, frac=0.0):
    a, b = np.asarray(host(a), dtype=np.float64), np.asarray(host(b), dtype=np.float64)
    if a.shape != b.shape:
        raise SystemExit(f"{what}: shapes differ {a.shape} vs {b.shape}")
    bad = ~np.isclose(a, b, rtol=rtol, atol=atol)
    if bad.mean() > frac:
        raise SystemExit(f"{what}: NumPy and JAX differ at {bad.sum()} of {a.size} elements")


# ---------------------------------------------------------------- programs


def dotp(data, p):
    xs, ys = load(data, "dotp_xs.f32", np.float32), load(data, "dotp_ys.f32", np.float32)
    dx, dy = dev(xs), dev(ys)
    f_np = lambda: xp.dot(dx, dy)
    jx, jy = jnp.asarray(xs), jnp.asarray(ys)
    f_jit = jax.jit(lambda a, b: jnp.dot(a, b))
    f_jax = lambda: f_jit(jx, jy)
    close(f_np(), f_jax(), "dotp", rtol=1e-2)
    return {"dotp": (f_np, f_jax)}


def _bs(xp, opts, r, v):
    price, strike, years = opts[:, 0], opts[:, 1], opts[:, 2]

    def cnd(d):
        k = 1.0 / (1.0 + 0.2316419 * xp.abs(d))
        poly = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))))
        w = np.float32(0.3989422804014327) * xp.exp(-0.5 * d * d) * poly
        return xp.where(d > 0, 1.0 - w, w)

    v_sqrt_t = v * xp.sqrt(years)
    d1 = (xp.log(price / strike) + (r + 0.5 * v * v) * years) / v_sqrt_t
    d2 = d1 - v_sqrt_t
    c1, c2 = cnd(d1), cnd(d2)
    x = strike * xp.exp(-r * years)
    return price * c1 - x * c2, x * (1.0 - c2) - price * (1.0 - c1)


def black_scholes(data, p):
    opts = load(data, "black_scholes_opts.f32", np.float32, (-1, 3))
    r, v = np.float32(p["r"]), np.float32(p["v"])
    do = dev(opts)
    f_np = lambda: _bs(xp, do, r, v)
    jo = jnp.asarray(opts)
    f_jit = jax.jit(lambda o: _bs(jnp, o, r, v))
    f_jax = lambda: f_jit(jo)
    a, b = f_np(), f_jax()
    close(a[0], b[0], "black_scholes call")
    return {"black_scholes": (f_np, f_jax)}


def mandelbrot(data, p):
    w, h, limit = p["w"], p["h"], p["limit"]
    x0, y0, dx, dy = (np.float32(p[k]) for k in ("x0", "y0", "dx", "dy"))
    cr = (x0 + np.arange(w, dtype=np.float32) * dx)[None, :].repeat(h, 0)
    ci = (y0 + np.arange(h, dtype=np.float32) * dy)[:, None].repeat(w, 1)

    dcr, dci = dev(cr), dev(ci)

    def f_np():
        zr, zi = xp.zeros_like(dcr), xp.zeros_like(dcr)
        k = xp.zeros(dcr.shape, np.uint32)
        for _ in range(limit):
            live = zr * zr + zi * zi <= 4.0
            zr, zi = xp.where(live, zr * zr - zi * zi + dcr, zr), xp.where(live, 2.0 * zr * zi + dci, zi)
            k += live
        return k

    @jax.jit
    def jit(cr, ci):
        def step(_, s):
            zr, zi, k = s
            live = zr * zr + zi * zi <= 4.0
            return (jnp.where(live, zr * zr - zi * zi + cr, zr), jnp.where(live, 2.0 * zr * zi + ci, zi),
                    k + live.astype(jnp.uint32))

        z = jnp.zeros_like(cr)
        return lax.fori_loop(0, limit, step, (z, z, jnp.zeros(cr.shape, jnp.uint32)))[2]

    jcr, jci = jnp.asarray(cr), jnp.asarray(ci)
    f_jax = lambda: jit(jcr, jci)
    close(f_np(), f_jax(), "mandelbrot", atol=0.5, frac=0.01)
    # The same NumPy and JAX programs stand against both accel forms.
    return {"mandelbrot_while": (f_np, f_jax), "mandelbrot_unrolled": (f_np, f_jax)}


def nbody(data, p):
    n, dt, eps2 = p["n"], np.float32(p["dt"]), np.float32(p["eps2"])
    pos = load(data, "nbody_pos.f32", np.float32, (n, 3))
    mass = load(data, "nbody_mass.f32", np.float32)
    vel = np.zeros_like(pos)
    block = 1024  # rows of the n x n pair matrices at a time (all of them would not fit)
    dpos, dvel, dmass = dev(pos), dev(vel), dev(mass)

    def accel_np(pos):
        acc = xp.empty_like(pos)
        for s in range(0, n, block):
            d = pos[None, :, :] - pos[s:s + block, None, :]
            inv = 1.0 / xp.sqrt((d * d).sum(-1) + eps2)
            acc[s:s + block] = ((dmass * inv * inv * inv)[:, :, None] * d).sum(1)
        return acc

    def f_np():
        v2 = dvel + accel_np(dpos) * dt
        return dpos + v2 * dt, v2

    @jax.jit
    def jit(pos, vel, mass):
        def rows(pb):
            d = pos[None, :, :] - pb[:, None, :]
            inv = 1.0 / jnp.sqrt((d * d).sum(-1) + eps2)
            return ((mass * inv * inv * inv)[:, :, None] * d).sum(1)

        nb = (n + block - 1) // block
        padded = jnp.pad(pos, ((0, nb * block - n), (0, 0)))
        acc = lax.map(rows, padded.reshape(nb, block, 3)).reshape(-1, 3)[:n]
        v2 = vel + acc * dt
        return pos + v2 * dt, v2

    jp, jv, jm = jnp.asarray(pos), jnp.asarray(vel), jnp.asarray(mass)
    f_jax = lambda: jit(jp, jv, jm)
    close(f_np()[0], f_jax()[0], "nbody", rtol=1e-3, atol=1e-4)
    return {"nbody": (f_np, f_jax)}


def spmv(data, p):
    if GPU:
        import cupyx.scipy.sparse as sparse
    else:
        import scipy.sparse as sparse

    out = {}
    for kind, m in p.items():
        rows, cols = m["rows"], m["cols"]
        off = load(data, f"spmv_{kind}_offsets.u32", np.uint32).astype(np.int32)
        idx = load(data, f"spmv_{kind}_cols.u32", np.uint32).astype(np.int32)
        vals = load(data, f"spmv_{kind}_vals.f32", np.float32)
        x = load(data, f"spmv_{kind}_x.f32", np.float32)
        a = sparse.csr_matrix((dev(vals), dev(idx), dev(off)), shape=(rows, cols))
        f_np = (lambda a, x: lambda: a @ x)(a, dev(x))
        row_ids = jnp.asarray(np.repeat(np.arange(rows, dtype=np.int32), np.diff(off)))
        jit = jax.jit(lambda v, c, r, x, rows=rows: jax.ops.segment_sum(v * x[c], r, num_segments=rows))
        jv, jc, jx = jnp.asarray(vals), jnp.asarray(idx), jnp.asarray(x)
        f_jax = (lambda jit, jv, jc, row_ids, jx: lambda: jit(jv, jc, row_ids, jx))(jit, jv, jc, row_ids, jx)
        close(f_np(), f_jax(), f"spmv {kind}", rtol=1e-3, atol=1e-3)
        out[f"spmv_{kind}"] = (f_np, f_jax)
    return out


def _fluid(xp, loop, d, u, v, dt, visc, diff, iters):
    """One step of stable fluids with clamped (edge) boundaries."""
    h, w = d.shape

    def pad(x):
        return xp.pad(x, 1, mode="edge")

    def nsew(x):
        p = pad(x)
        return p[:-2, 1:-1], p[2:, 1:-1], p[1:-1, :-2], p[1:-1, 2:]

    def diffuse(x0, a):
        def body(_, x):
            n, s, wv, e = nsew(x)
            return (x0 + a * (n + s + wv + e)) / (1.0 + 4.0 * a)

        return loop(iters, body, x0)

    def advect(d0, u, v):
        jj = xp.arange(w, dtype=xp.float32)[None, :]
        ii = xp.arange(h, dtype=xp.float32)[:, None]
        x = xp.clip(jj - dt * u, 0.0, w - 1)
        y = xp.clip(ii - dt * v, 0.0, h - 1)
        j0, i0 = xp.floor(x).astype(xp.int32), xp.floor(y).astype(xp.int32)
        j1, i1 = xp.minimum(j0 + 1, w - 1), xp.minimum(i0 + 1, h - 1)
        s1, t1 = x - j0, y - i0
        s0, t0 = 1.0 - s1, 1.0 - t1
        return s0 * (t0 * d0[i0, j0] + t1 * d0[i1, j0]) + s1 * (t0 * d0[i0, j1] + t1 * d0[i1, j1])

    def project(u, v):
        _, _, uw, ue = nsew(u)
        vn, vs, _, _ = nsew(v)
        div = -0.5 * (ue - uw + vs - vn)

        def body(_, p):
            n, s, wv, e = nsew(p)
            return (div + n + s + wv + e) * 0.25

        p = loop(iters, body, xp.zeros_like(div))
        pn, ps, pw, pe = nsew(p)
        return u - 0.5 * (pe - pw), v - 0.5 * (ps - pn)

    u1, v1 = diffuse(u, visc * dt), diffuse(v, visc * dt)
    u2, v2 = project(u1, v1)
    u3, v3 = advect(u2, u2, v2), advect(v2, u2, v2)
    u4, v4 = project(u3, v3)
    return advect(diffuse(d, diff * dt), u4, v4), u4, v4


def _py_loop(n, body, x):
    for i in range(n):
        x = body(i, x)
    return x


def fluid(data, p):
    h, w = p["h"], p["w"]
    args = [np.float32(p[k]) for k in ("dt", "visc", "diff")] + [p["iters"]]
    d, u, v = (load(data, f"fluid_{k}.f32", np.float32, (h, w)) for k in ("dens", "u", "v"))
    dd, du, dv = dev(d), dev(u), dev(v)
    f_np = lambda: _fluid(xp, _py_loop, dd, du, dv, *args)
    jit = jax.jit(lambda d, u, v: _fluid(jnp, lambda n, b, x: lax.fori_loop(0, n, b, x), d, u, v, *args))
    jd, ju, jv = jnp.asarray(d), jnp.asarray(u), jnp.asarray(v)
    f_jax = lambda: jit(jd, ju, jv)
    close(f_np()[0], f_jax()[0], "fluid", rtol=1e-3, atol=1e-4, frac=0.001)
    return {"fluid": (f_np, f_jax)}


def _canny_edges(xp, img, low, high):
    r = (img & 0xFF).astype(xp.float32)
    g = ((img >> 8) & 0xFF).astype(xp.float32)
    b = ((img >> 16) & 0xFF).astype(xp.float32)
    grey = (0.3 * r + 0.59 * g + 0.11 * b) / 255.0
    p = xp.pad(grey, ((0, 0), (2, 2)), mode="edge")
    bx = (p[:, :-4] + 4.0 * p[:, 1:-3] + 6.0 * p[:, 2:-2] + 4.0 * p[:, 3:-1] + p[:, 4:]) / 16.0
    p = xp.pad(bx, ((2, 2), (0, 0)), mode="edge")
    blur = (p[:-4] + 4.0 * p[1:-3] + 6.0 * p[2:-2] + 4.0 * p[3:-1] + p[4:]) / 16.0
    p = xp.pad(blur, 1, mode="edge")
    nw, n, ne = p[:-2, :-2], p[:-2, 1:-1], p[:-2, 2:]
    w, e = p[1:-1, :-2], p[1:-1, 2:]
    sw, s, se = p[2:, :-2], p[2:, 1:-1], p[2:, 2:]
    gx = (ne + 2.0 * e + se) - (nw + 2.0 * w + sw)
    gy = (sw + 2.0 * s + se) - (nw + 2.0 * n + ne)
    mag = xp.sqrt(gx * gx + gy * gy)
    d = (xp.round(xp.arctan2(gy, gx) * np.float32(4.0 / np.pi)).astype(xp.int32) + 4) % 4
    m = xp.pad(mag, 1, mode="edge")
    a = xp.where(d == 0, m[1:-1, :-2], xp.where(d == 1, m[:-2, :-2], xp.where(d == 2, m[:-2, 1:-1], m[:-2, 2:])))
    bb = xp.where(d == 0, m[1:-1, 2:], xp.where(d == 1, m[2:, 2:], xp.where(d == 2, m[2:, 1:-1], m[2:, :-2])))
    return xp.where((mag < low) | (mag < a) | (mag < bb), 0.0, xp.where(mag >= high, 1.0, 0.5)).astype(xp.float32)


def canny(data, p):
    h, w, low, high = p["h"], p["w"], np.float32(p["low"]), np.float32(p["high"])
    img = load(data, "canny_img.u32", np.uint32, (h, w))

    dimg = dev(img)

    def f_np():
        e = _canny_edges(xp, dimg, low, high)
        return e, xp.flatnonzero(e == 1.0)

    jit = jax.jit(lambda im: _canny_edges(jnp, im, low, high))
    ji = jnp.asarray(img)

    def f_jax():
        # The strong edges' positions have a data-dependent size: selected
        # outside jit.
        e = jit(ji)
        return e, jnp.flatnonzero(e == 1.0)

    close(f_np()[0], f_jax()[0], "canny", atol=0.01, frac=0.01)
    return {"canny": (f_np, f_jax)}


def radix_sort(data, p):
    keys = load(data, "radix_sort_keys.i32", np.int32)
    dkeys = dev(keys)
    f_np = lambda: xp.sort(dkeys)
    jk = jnp.asarray(keys)
    jit = jax.jit(jnp.sort)
    f_jax = lambda: jit(jk)
    close(f_np(), f_jax(), "radix_sort", rtol=0, atol=0)
    return {"radix_sort": (f_np, f_jax)}


def kmeans(data, p):
    n, k, iters = p["n"], p["k"], p["iters"]
    pts = load(data, "kmeans_points.f32", np.float32, (n, 2))
    init = load(data, "kmeans_init.f32", np.float32, (k, 2))

    dpts, dinit = dev(pts), dev(init)

    def f_np():
        cs = dinit.copy()
        for _ in range(iters):
            d = ((dpts[:, None, :] - cs[None, :, :]) ** 2).sum(-1)
            near = d.argmin(1)
            cnt = xp.bincount(near, minlength=k)
            sx = xp.bincount(near, weights=dpts[:, 0], minlength=k)
            sy = xp.bincount(near, weights=dpts[:, 1], minlength=k)
            new = xp.stack([sx, sy], 1) / xp.maximum(cnt, 1)[:, None]
            cs = xp.where(cnt[:, None] > 0, new, cs).astype(np.float32)
        return cs

    @jax.jit
    def jit(pts, init):
        def body(_, cs):
            d = ((pts[:, None, :] - cs[None, :, :]) ** 2).sum(-1)
            near = d.argmin(1)
            cnt = jax.ops.segment_sum(jnp.ones(n, jnp.float32), near, num_segments=k)
            sums = jax.ops.segment_sum(pts, near, num_segments=k)
            return jnp.where(cnt[:, None] > 0, sums / jnp.maximum(cnt, 1)[:, None], cs)

        return lax.fori_loop(0, iters, body, init)

    jp, ji = jnp.asarray(pts), jnp.asarray(init)
    f_jax = lambda: jit(jp, ji)
    close(f_np(), f_jax(), "kmeans", rtol=1e-3, atol=1e-3)
    return {"kmeans": (f_np, f_jax)}


def histogram(data, p):
    bins = p["bins"]
    xs = load(data, "histogram_xs.u32", np.uint32)
    dxs = dev(xs)
    f_np = lambda: xp.bincount(dxs % bins, minlength=bins)
    jx = jnp.asarray(xs)
    jit = jax.jit(lambda x: jnp.bincount(x % bins, length=bins))
    f_jax = lambda: jit(jx)
    close(f_np(), f_jax(), "histogram", rtol=0, atol=0)
    return {"histogram": (f_np, f_jax)}


PROGRAMS = [dotp, black_scholes, mandelbrot, nbody, spmv, fluid, canny, radix_sort, kmeans, histogram]


def main():
    if len(sys.argv) != 3:
        raise SystemExit("usage: compare.py [--gpu] DATA_DIR OUT.json")
    data, out = sys.argv[1], sys.argv[2]
    with open(os.path.join(data, "manifest.json")) as f:
        manifest = json.load(f)
    only = os.environ.get("BENCH_ONLY")
    results, timed = {}, {}
    for prog in PROGRAMS:
        name = prog.__name__
        if name not in manifest or (only and only not in name):
            continue
        for row, (f_np, f_jax) in prog(data, manifest[name]).items():
            key = (id(f_np), id(f_jax))  # one pair may stand for two rows
            if key not in timed:
                timed[key] = (median_time(f_np), median_time(f_jax))
            t_np, t_jax = timed[key]
            results[row] = {LIB: t_np, "jax": t_jax}
            print(f"{row:<22} {LIB} {t_np * 1e3:10.3f} ms   jax {t_jax * 1e3:10.3f} ms", flush=True)
            # Written after every row: a run stopped at a time limit keeps what it timed.
            save(out, manifest, results)
    save(out, manifest, results)
    print(f"results written to {out}")


def save(out, manifest, results):
    doc = {
        "scale": manifest.get("scale"),
        "device": jax.devices()[0].device_kind if GPU else "cpu",
        "versions": {LIB: xp.__version__, "jax": jax.__version__},
        "results": results,
        "manifest": manifest,
    }
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out, "w") as f:
        json.dump(doc, f, indent=2)


if __name__ == "__main__":
    main()
