//! Expand fusion.
#[test]
fn dump() {
    let src = r#"
fn sieve_like(xs: &Vector<u32>, d: &Vector<u32>) -> Vector<u32> {
    let ys = xs.expand(|x| x % 5, |x, k| x * 3 + k);
    ys.map(|y| y + 1).permute(d, |[j]| Some([(ys[[j]] as usize) % d.len()]), |a, b| a + b)
}
"#;
    let (p, plan) = accel_core::compile_source(src, "sieve_like").unwrap();
    let shared = accel_core::sharing::recover(&p);
    println!("{}", shared.arena.show(shared.body));
    println!("{plan}");
}
