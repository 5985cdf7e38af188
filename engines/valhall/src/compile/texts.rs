//! Look-ups of the compiler's names (mnemonics, modifier names, enum value texts, all
//! `&'static str` literals) in the ISA.xml tables, remembered by the address and length of
//! the texts: the lowering and `finish` resolve the same few names for most instructions
//! of a program, and a `&'static str` never changes, so the same address and length are
//! the same text.

/// What one look-up was about and its answer.
#[derive(Clone, Copy, Debug)]
struct Entry<T> {
    /// The table looked in (the caller's numbering).
    tag: usize,
    /// Address and length of the first text.
    a: (usize, usize),
    /// Address and length of the second text.
    b: (usize, usize),
    /// The answer.
    value: T,
}

/// Slots of a [`TextCache`] (a power of two).
const SLOTS: usize = 64;

/// Answers of look-ups by `(tag, text, text)`, direct-mapped; only found values are kept.
/// The slots are allocated by the first look-up.
#[derive(Clone, Debug)]
pub(super) struct TextCache<T = u32> {
    slots: Vec<Option<Entry<T>>>,
}

impl<T> Default for TextCache<T> {
    fn default() -> Self {
        TextCache { slots: Vec::new() }
    }
}

impl<T: Copy> TextCache<T> {
    /// The value `resolve` gives for `(tag, a, b)`, computed once while it stays cached.
    pub(super) fn get(
        &mut self,
        tag: usize,
        a: &'static str,
        b: &'static str,
        resolve: impl FnOnce() -> Option<T>,
    ) -> Option<T> {
        if self.slots.is_empty() {
            self.slots = vec![None; SLOTS];
        }
        let a = (a.as_ptr() as usize, a.len());
        let b = (b.as_ptr() as usize, b.len());
        // Fibonacci hashing of the three keys; the top bits select the slot.
        let mix = (tag as u64)
            .wrapping_add((a.0 as u64).rotate_left(21))
            .wrapping_add((b.0 as u64).rotate_left(42))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = (mix >> 58) as usize % SLOTS;
        if let Some(e) = self.slots[slot] {
            if e.tag == tag && e.a == a && e.b == b {
                return Some(e.value);
            }
        }
        let value = resolve()?;
        self.slots[slot] = Some(Entry { tag, a, b, value });
        Some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cached answer comes back without resolving again; another key resolves.
    #[test]
    fn remembers_found_values() {
        let mut c = TextCache::default();
        assert_eq!(c.get(1, "clamp", "clamp_0_1", || Some(7)), Some(7));
        assert_eq!(
            c.get(1, "clamp", "clamp_0_1", || panic!("resolved twice")),
            Some(7)
        );
        assert_eq!(c.get(2, "clamp", "clamp_0_1", || Some(3)), Some(3));
        assert_eq!(c.get(1, "clamp", "none", || None), None);
        assert_eq!(c.get(1, "clamp", "none", || Some(0)), Some(0));
    }
}
