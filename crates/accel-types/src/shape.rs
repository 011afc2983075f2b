//! Row-major shape arithmetic shared by arrays, kernels and the interpreter.

/// Number of elements of a shape (the product of its extents).
pub fn size(shape: &[usize]) -> usize {
    shape.iter().product()
}

/// Number of elements, or `None` when the product overflows.
pub fn checked_size(shape: &[usize]) -> Option<usize> {
    shape.iter().try_fold(1usize, |acc, &n| acc.checked_mul(n))
}

/// Whether `inner` is the first rows of `outer`: the same rank, the same
/// extents but the outermost, which is no larger. Then the row-major
/// elements of `inner` are the first ones of `outer`, at the same offsets.
pub fn leading_block(inner: &[usize], outer: &[usize]) -> bool {
    inner.len() == outer.len()
        && match (inner.split_first(), outer.split_first()) {
            (Some((i, irest)), Some((o, orest))) => i <= o && irest == orest,
            _ => true,
        }
}

/// Row-major offset of `ix` in `shape`; `ix` must be inside the shape.
#[inline(always)]
pub fn to_linear(shape: &[usize], ix: &[usize]) -> usize {
    let mut l = 0;
    for (n, i) in shape.iter().zip(ix) {
        l = l * n + i;
    }
    l
}

/// Row-major offset of `ix`, or `None` when `ix` is outside `shape`.
#[inline(always)]
pub fn to_linear_checked(shape: &[usize], ix: &[usize]) -> Option<usize> {
    if shape.len() != ix.len() || shape.iter().zip(ix).any(|(n, i)| i >= n) {
        return None;
    }
    Some(to_linear(shape, ix))
}

/// The index at row-major offset `l` of `shape`.
#[inline(always)]
pub fn from_linear<const R: usize>(shape: &[usize; R], mut l: usize) -> [usize; R] {
    let mut ix = [0; R];
    for d in (0..R).rev() {
        let n = shape[d];
        if n != 0 {
            ix[d] = l % n;
            l /= n;
        }
    }
    ix
}

/// The same as [`from_linear`] for a shape whose rank is known only at run time.
pub fn from_linear_dyn(shape: &[usize], mut l: usize) -> Vec<usize> {
    let mut ix = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        let n = shape[d];
        if n != 0 {
            ix[d] = l % n;
            l /= n;
        }
    }
    ix
}

/// Component-wise minimum: the extent of `zip_with` (as in Accelerate).
#[inline(always)]
pub fn intersect<const R: usize>(a: [usize; R], b: [usize; R]) -> [usize; R] {
    let mut s = a;
    for d in 0..R {
        s[d] = a[d].min(b[d]);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leading_blocks_are_first_rows() {
        assert!(leading_block(&[2, 5], &[3, 5]));
        assert!(leading_block(&[3, 5], &[3, 5]));
        assert!(leading_block(&[0, 5], &[3, 5]));
        assert!(leading_block(&[4], &[9]));
        assert!(leading_block(&[], &[]));
        assert!(!leading_block(&[4, 5], &[3, 5]));
        assert!(!leading_block(&[2, 4], &[3, 5]));
        assert!(!leading_block(&[2], &[3, 5]));
    }

    #[test]
    fn linear_round_trip() {
        let sh = [3, 4, 5];
        for l in 0..size(&sh) {
            let ix = from_linear(&sh, l);
            assert_eq!(to_linear(&sh, &ix), l);
            assert_eq!(to_linear_checked(&sh, &ix), Some(l));
        }
        assert_eq!(to_linear_checked(&sh, &[3, 0, 0]), None);
        assert_eq!(checked_size(&[usize::MAX, 2]), None);
    }
}
