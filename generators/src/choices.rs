//! A stream of choices that drives program construction.
//!
//! Generators draw every decision from a [`Choices`] stream. proptest supplies the
//! stream as a `Vec<u32>` so shrinking the vector shrinks the program (a shorter or
//! smaller stream makes fewer and simpler decisions); seeded campaigns and libFuzzer
//! can supply the same stream from other sources.

/// A finite stream of decisions. When exhausted, every draw returns 0, which always
/// selects the simplest option, so construction terminates.
#[derive(Clone, Debug)]
pub struct Choices<'a> {
    data: &'a [u32],
    pos: usize,
}

impl<'a> Choices<'a> {
    /// Wrap a slice of raw decisions.
    pub fn new(data: &'a [u32]) -> Choices<'a> {
        Choices { data, pos: 0 }
    }

    /// Whether the stream has run out.
    pub fn exhausted(&self) -> bool {
        self.pos >= self.data.len()
    }

    /// The next raw 32-bit decision (0 when exhausted).
    pub fn raw(&mut self) -> u32 {
        let v = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        v
    }

    /// A value in `0..n` (`n` ≥ 1).
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        (self.raw() as usize) % n.max(1)
    }

    /// A value in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability about `percent`/100 (false when exhausted).
    pub fn chance(&mut self, percent: u32) -> bool {
        let r = self.raw();
        r != 0 && r % 100 < percent
    }

    /// One element of a non-empty slice.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}
