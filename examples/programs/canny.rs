//! Canny edge detection, the six data-parallel phases (the Accelerate paper's
//! §5.7), shared by the example and the benchmarks: greyscale, a separable
//! 5-tap Gaussian blur (two stencils), the Sobel gradient's magnitude and
//! quantised direction, non-maximum suppression with a low and a high
//! threshold (1 = strong edge, 0.5 = weak, 0 = none), and the selection of the
//! strong edges' positions. (The seventh phase, connecting weak edges to strong
//! ones, is sequential in the paper and not part of this program.)
//!
//! `canny_program!()` instantiates the program; the benchmarks instantiate it
//! again under other compiler settings (no fusion, no sharing).

macro_rules! canny_program {
    ($($settings:tt)*) => {
        #[allow(unused_imports)] // the types are in scope also when a program fails to compile
        use accel::prelude::*;
        accel::accel! {
            $($settings)*

            /// The edge classes of an RGBA image (`0xAABBGGRR` per pixel), and
            /// the row-major positions of the strong edges, in order.
            pub fn canny(img: &Matrix<u32>, low: f32, high: f32) -> (Matrix<f32>, Vector<usize>) {
                let grey = img.map(|p| {
                    let r = (p & 0xff) as f32;
                    let g = ((p >> 8) & 0xff) as f32;
                    let b = ((p >> 16) & 0xff) as f32;
                    (0.3 * r + 0.59 * g + 0.11 * b) / 255.0
                });
                let blur_x = grey.stencil(Boundary::Clamp, |[[a, b, c, d, e]]| (a + 4.0 * b + 6.0 * c + 4.0 * d + e) / 16.0);
                let blur = blur_x.stencil(Boundary::Clamp, |[[a], [b], [c], [d], [e]]| (a + 4.0 * b + 6.0 * c + 4.0 * d + e) / 16.0);
                let grad = blur.stencil(Boundary::Clamp, |[[nw, n, ne], [w, _, e], [sw, s, se]]| {
                    let gx = (ne + 2.0 * e + se) - (nw + 2.0 * w + sw);
                    let gy = (sw + 2.0 * s + se) - (nw + 2.0 * n + ne);
                    let mag = (gx * gx + gy * gy).sqrt();
                    // The direction in eighths of a turn, folded to 0..4:
                    // 0 east-west, 1 the south-east diagonal, 2 north-south, 3 south-west.
                    let octant = (gy.atan2(gx) * (4.0 / std::f32::consts::PI)).round() as i32;
                    (mag, (octant + 4) % 4)
                });
                let edges = grad.stencil(Boundary::Clamp, |[[nw, n, ne], [w, c, e], [sw, s, se]]| {
                    let (mag, dir) = c;
                    let (a, b) = match dir {
                        0 => (w.0, e.0),
                        1 => (nw.0, se.0),
                        2 => (n.0, s.0),
                        _ => (ne.0, sw.0),
                    };
                    let class = if mag < low || mag < a || mag < b {
                        0.0f32
                    } else if mag >= high {
                        1.0
                    } else {
                        0.5
                    };
                    class
                });
                let strong = edges.flatten().enumerate().filter(|(_, e)| e == 1.0).map(|(i, _)| i);
                (edges, strong)
            }
        }
    };
}

canny_program!();
