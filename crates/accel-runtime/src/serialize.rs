//! `Serialize` and `Deserialize` for arrays (the `serde` feature of `accel`).
//! An array is its shape and its elements in row-major order, in any serde
//! format: `{"shape": [2, 3], "elements": [1, 2, 3, 4, 5, 6]}` in JSON.
//! Reading one checks that the shape has the array's rank and holds exactly
//! the elements given; an array on a device is downloaded first, and a
//! failed download is the serializer's error.

use crate::array::Array;
use crate::elem::Elem;
use serde::{de, ser, ser::SerializeStruct, Deserialize, Deserializer, Serialize, Serializer};

impl<T: Elem + Serialize, const R: usize> Serialize for Array<T, R> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let elements = self.try_to_vec().map_err(ser::Error::custom)?;
        let mut st = s.serialize_struct("Array", 2)?;
        st.serialize_field("shape", &self.shape()[..])?;
        st.serialize_field("elements", &elements)?;
        st.end()
    }
}

/// What an array is read from.
#[derive(Deserialize)]
#[serde(rename = "Array", deny_unknown_fields)]
struct Parts<T> {
    shape: Vec<usize>,
    elements: Vec<T>,
}

impl<'de, T: Elem + Deserialize<'de>, const R: usize> Deserialize<'de> for Array<T, R> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let p = Parts::<T>::deserialize(d)?;
        let shape: [usize; R] = p.shape.as_slice().try_into().map_err(|_| {
            de::Error::custom(format!(
                "a shape of {} extents for an array of rank {R}",
                p.shape.len()
            ))
        })?;
        Array::from_vec(shape, p.elements).map_err(de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use crate::array::{Matrix, Vector};

    #[test]
    fn arrays_round_trip_through_json() {
        let m = Matrix::from_vec([2, 3], vec![1.5f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
        let text = serde_json::to_string(&m).unwrap();
        assert_eq!(text, r#"{"shape":[2,3],"elements":[1.5,2.0,3.0,4.0,5.0,6.0]}"#);
        let back: Matrix<f32> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, m);
        // Tuples are elements like any other.
        let pairs = Vector::from_vec([2], vec![(1u32, true), (7, false)]).unwrap();
        let back: Vector<(u32, bool)> =
            serde_json::from_str(&serde_json::to_string(&pairs).unwrap()).unwrap();
        assert_eq!(back, pairs);
        // Empty arrays keep their shape.
        let empty = Matrix::<i64>::from_vec([0, 4], vec![]).unwrap();
        let back: Matrix<i64> = serde_json::from_str(&serde_json::to_string(&empty).unwrap()).unwrap();
        assert_eq!(back.shape(), [0, 4]);
    }

    #[test]
    fn bad_shapes_are_errors() {
        let wrong_rank = serde_json::from_str::<Vector<f32>>(r#"{"shape":[2,1],"elements":[1,2]}"#);
        assert!(wrong_rank.unwrap_err().to_string().contains("rank 1"));
        let wrong_count = serde_json::from_str::<Vector<f32>>(r#"{"shape":[3],"elements":[1,2]}"#);
        assert!(wrong_count.is_err());
        let unknown = serde_json::from_str::<Vector<f32>>(r#"{"shape":[1],"elements":[1],"x":0}"#);
        assert!(unknown.is_err());
    }
}
