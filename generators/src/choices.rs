//! A stream of choices that drives program construction.
//!
//! Generators draw every decision from a [`Choices`] stream. Three sources feed it:
//!
//! * a borrowed `&[u32]` ([`Choices::new`]): proptest supplies a `Vec<u32>`, so shrinking
//!   the vector shrinks the program (a shorter or smaller stream makes fewer and simpler
//!   decisions);
//! * an owned `Vec<u32>` ([`Choices::from_words`]), e.g. libFuzzer bytes
//!   ([`Choices::from_bytes`]);
//! * a seeded ChaCha8 generator ([`Choices::from_rng`]) for reproducible campaigns: the
//!   same seed and stream give the same decisions on every machine (ChaCha is defined on
//!   32-bit words, independent of the host's endianness and word size).
//!
//! Every draw maps a raw `u32` to a decision with integer arithmetic only, so a stream
//! always yields the same program.

use rand_chacha::rand_core::Rng;
use rand_chacha::ChaCha8Rng;

/// Where the raw 32-bit decisions come from.
#[derive(Clone, Debug)]
enum Source<'a> {
    /// A borrowed finite slice.
    Slice(&'a [u32]),
    /// An owned finite vector.
    Words(Vec<u32>),
    /// A seeded ChaCha8 stream, with an optional cap on the number of draws.
    Rng(Box<ChaCha8Rng>, Option<usize>),
    /// Owned words, then a seeded ChaCha8 stream: "exhausted" once the words are used up,
    /// but later draws come from the stream instead of being 0.
    Then(Vec<u32>, Box<ChaCha8Rng>),
}

/// A stream of decisions. When a finite stream is exhausted, every draw returns 0, which
/// always selects the simplest option, so construction terminates.
#[derive(Clone, Debug)]
pub struct Choices<'a> {
    src: Source<'a>,
    pos: usize,
}

impl<'a> Choices<'a> {
    /// Wrap a slice of raw decisions.
    pub fn new(data: &'a [u32]) -> Choices<'a> {
        Choices {
            src: Source::Slice(data),
            pos: 0,
        }
    }

    /// Own a vector of raw decisions.
    pub fn from_words(data: Vec<u32>) -> Choices<'static> {
        Choices {
            src: Source::Words(data),
            pos: 0,
        }
    }

    /// Raw bytes as decisions: little-endian 32-bit words; a trailing partial word is
    /// zero-padded. Used for libFuzzer input (`arbitrary::Unstructured`).
    pub fn from_bytes(bytes: &[u8]) -> Choices<'static> {
        let words = bytes
            .chunks(4)
            .map(|c| {
                let mut w = [0u8; 4];
                w[..c.len()].copy_from_slice(c);
                u32::from_le_bytes(w)
            })
            .collect();
        Choices::from_words(words)
    }

    /// [`Choices::from_bytes`] whose draws after the bytes come from `rng` instead of being
    /// 0. [`Choices::exhausted`] still turns true after the bytes, so what the bytes
    /// decide (how much code) stays theirs, while everything drawn later (the final output
    /// writes, the values) varies instead of always taking the simplest option.
    pub fn from_bytes_then(bytes: &[u8], rng: ChaCha8Rng) -> Choices<'static> {
        let Source::Words(words) = Choices::from_bytes(bytes).src else {
            unreachable!("from_bytes makes words")
        };
        Choices {
            src: Source::Then(words, Box::new(rng)),
            pos: 0,
        }
    }

    /// Decisions from a seeded ChaCha8 generator: unbounded when `limit` is `None`,
    /// otherwise exhausted after `limit` draws.
    pub fn from_rng(rng: ChaCha8Rng, limit: Option<usize>) -> Choices<'static> {
        Choices {
            src: Source::Rng(Box::new(rng), limit),
            pos: 0,
        }
    }

    /// Number of decisions drawn so far.
    pub fn drawn(&self) -> usize {
        self.pos
    }

    /// Whether the stream has run out (never, for an unbounded generator).
    pub fn exhausted(&self) -> bool {
        match &self.src {
            Source::Slice(d) => self.pos >= d.len(),
            Source::Words(d) => self.pos >= d.len(),
            Source::Rng(_, limit) => limit.is_some_and(|l| self.pos >= l),
            Source::Then(d, _) => self.pos >= d.len(),
        }
    }

    /// The next raw 32-bit decision (0 when exhausted, except for
    /// [`Choices::from_bytes_then`]).
    pub fn raw(&mut self) -> u32 {
        let v = if let Source::Then(d, r) = &mut self.src {
            d.get(self.pos).copied().unwrap_or_else(|| r.next_u32())
        } else if self.exhausted() {
            0
        } else {
            match &mut self.src {
                Source::Slice(d) => d[self.pos],
                Source::Words(d) => d[self.pos],
                Source::Rng(r, _) => r.next_u32(),
                Source::Then(..) => 0,
            }
        };
        self.pos += 1;
        v
    }

    /// A value in `0..n` (`n` ≥ 1; `n` = 0 is treated as 1).
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        (self.raw() as usize) % n.max(1)
    }

    /// A value in `lo..=hi` (`lo` ≤ `hi`).
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi.saturating_sub(lo) + 1)
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::SeedableRng;

    #[test]
    fn finite_streams_end_in_zeros() {
        let mut c = Choices::new(&[7, 9]);
        assert_eq!((c.raw(), c.raw(), c.raw()), (7, 9, 0));
        assert!(c.exhausted());
        let mut c = Choices::from_bytes(&[1, 0, 0, 0, 2]);
        assert_eq!((c.raw(), c.raw(), c.raw()), (1, 2, 0));
    }

    #[test]
    fn rng_streams_repeat_and_respect_limits() {
        let a: Vec<u32> = {
            let mut c = Choices::from_rng(ChaCha8Rng::seed_from_u64(5), None);
            (0..8).map(|_| c.raw()).collect()
        };
        let mut c = Choices::from_rng(ChaCha8Rng::seed_from_u64(5), Some(4));
        let b: Vec<u32> = (0..8).map(|_| c.raw()).collect();
        assert_eq!(&a[..4], &b[..4]);
        assert_eq!(&b[4..], &[0, 0, 0, 0]);
        assert!(a.iter().any(|&w| w != 0));
    }
}
