//! A list stored inline, for the short operand lists of [`super::vcode::VIns`] (ISA.xml
//! gives no instruction more than four sources and two immediates) and the FAU values one
//! instruction may read (ENCODING.md §3.3): every instruction the compiler emits used to
//! allocate them on the heap.

use std::ops::{Deref, DerefMut};

/// Up to `N` values of a `Copy` type, stored inline; derefs to a slice of the values.
///
/// # Panics
/// [`InlineList::from_slice`], [`InlineList::zeroed`] and [`InlineList::push`] panic when
/// asked for more than `N` values (a compiler bug: the capacities cover every ISA.xml
/// instruction, which a test checks, and the FAU limits of ENCODING.md §3.3).
#[derive(Clone, Copy)]
pub struct InlineList<T: Copy + Default, const N: usize> {
    items: [T; N],
    len: usize,
}

impl<T: Copy + Default, const N: usize> InlineList<T, N> {
    /// An empty list.
    pub fn new() -> Self {
        InlineList {
            items: [T::default(); N],
            len: 0,
        }
    }

    /// A list holding a copy of `values`.
    pub fn from_slice(values: &[T]) -> Self {
        assert!(
            values.len() <= N,
            "{} values for an inline list of {N}",
            values.len()
        );
        let mut list = Self::new();
        list.items[..values.len()].copy_from_slice(values);
        list.len = values.len();
        list
    }

    /// Appends `value`.
    ///
    /// # Panics
    /// When the list already holds `N` values.
    pub fn push(&mut self, value: T) {
        assert!(self.len < N, "a value past the {N} of an inline list");
        self.items[self.len] = value;
        self.len += 1;
    }

    /// A list of `len` default values (zeros for numbers).
    pub fn zeroed(len: usize) -> Self {
        assert!(len <= N, "{len} values for an inline list of {N}");
        InlineList {
            items: [T::default(); N],
            len,
        }
    }
}

impl<T: Copy + Default, const N: usize> Default for InlineList<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + Default, const N: usize> Deref for InlineList<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items[..self.len]
    }
}

impl<T: Copy + Default, const N: usize> DerefMut for InlineList<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items[..self.len]
    }
}

impl<T: Copy + Default, const N: usize> IntoIterator for InlineList<T, N> {
    type Item = T;
    type IntoIter = std::iter::Take<std::array::IntoIter<T, N>>;
    /// The values, in order.
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter().take(self.len)
    }
}

impl<T: Copy + Default + std::fmt::Debug, const N: usize> std::fmt::Debug for InlineList<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::super::vcode::{MAX_IMMS, MAX_SRCS};
    use super::*;

    #[test]
    fn holds_what_it_is_given() {
        let list = InlineList::<i64, 2>::from_slice(&[7, -3]);
        assert_eq!(&*list, &[7, -3]);
        assert_eq!(&*InlineList::<i64, 2>::zeroed(1), &[0]);
        assert!(InlineList::<i64, 2>::new().is_empty());
        let mut list = InlineList::<i64, 2>::new();
        list.push(4);
        assert_eq!(&*list, &[4]);
        let mut list = InlineList::<i64, 2>::zeroed(2);
        list[1] = 5;
        assert_eq!(format!("{list:?}"), "[0, 5]");
        let list = InlineList::<i64, 3>::from_slice(&[7, -3]);
        assert_eq!(list.into_iter().collect::<Vec<_>>(), [7, -3]);
    }

    #[test]
    #[should_panic(expected = "3 values for an inline list of 2")]
    fn refuses_more_than_it_holds() {
        let _ = InlineList::<i64, 2>::from_slice(&[1, 2, 3]);
    }

    /// ISA.xml gives no instruction more than four `<src>` and two `<imm>` elements.
    #[test]
    fn capacities_cover_every_isa_instruction() {
        let isa = crate::isa();
        let srcs = isa.instructions.iter().map(|d| d.srcs.len()).max();
        let imms = isa.instructions.iter().map(|d| d.imms.len()).max();
        assert_eq!((srcs, imms), (Some(4), Some(2)));
        assert!(srcs.unwrap_or(0) <= MAX_SRCS && imms.unwrap_or(0) <= MAX_IMMS);
    }
}
