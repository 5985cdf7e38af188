//! The simulated global memory: sparse, little-endian, made of mapped regions
//! (SEMANTICS.md §8).
// Sizes, offsets and counts here come from user input (declarations, inputs files): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use std::collections::BTreeMap;

use shaderdiff_model::texture::Texture;

/// Sparse little-endian byte memory made of mapped regions. An access (of any size,
/// any alignment) succeeds only if all its bytes lie inside one region; anything else is
/// reported by [`Memory::read`] / [`Memory::write`] as a failure, which the simulator
/// turns into [`super::SimError::MemoryFault`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Memory {
    /// Regions as (base address, bytes), sorted by base; they never overlap. A program
    /// maps a handful of regions, so a sorted list is searched faster than a tree.
    regions: Vec<(u64, Vec<u8>)>,
    /// The texture unit's resources by index ([`Memory::bind_texture`]).
    textures: BTreeMap<u32, Texture>,
}

impl Memory {
    /// An empty memory (every access faults).
    pub fn new() -> Self {
        Self::default()
    }

    /// Maps `bytes` at addresses `base .. base + bytes.len()`. Regions must not overlap:
    /// any existing region that overlaps the new one is unmapped first. Bytes past
    /// address `u64::MAX` are unreachable.
    pub fn map(&mut self, base: u64, bytes: Vec<u8>) {
        let end = base.saturating_add(bytes.len() as u64);
        self.regions.retain(|(b, r)| {
            !(*b == base || (*b < end && b.saturating_add(r.len() as u64) > base))
        });
        let at = self.regions.partition_point(|(b, _)| *b < base);
        self.regions.insert(at, (base, bytes));
    }

    /// Unmaps the region starting at `base`, returning its bytes.
    pub fn unmap(&mut self, base: u64) -> Option<Vec<u8>> {
        let at = self.index(base)?;
        Some(self.regions.remove(at).1)
    }

    /// Position of the region mapped at exactly `base`.
    fn index(&self, base: u64) -> Option<usize> {
        self.regions.binary_search_by_key(&base, |(b, _)| *b).ok()
    }

    /// Position of the region starting last at or below `addr` (the only one that can
    /// hold `addr`).
    fn below(&self, addr: u64) -> Option<usize> {
        self.regions
            .partition_point(|(b, _)| *b <= addr)
            .checked_sub(1)
    }

    /// The bytes of the region mapped at exactly `base`.
    pub fn region(&self, base: u64) -> Option<&[u8]> {
        self.index(base).map(|i| self.regions[i].1.as_slice())
    }

    /// Mutable bytes of the region mapped at exactly `base`.
    pub fn region_mut(&mut self, base: u64) -> Option<&mut [u8]> {
        let i = self.index(base)?;
        Some(self.regions[i].1.as_mut_slice())
    }

    /// Base addresses and lengths of all regions, in address order.
    pub fn regions(&self) -> impl Iterator<Item = (u64, usize)> + '_ {
        self.regions.iter().map(|(b, r)| (*b, r.len()))
    }

    /// Binds `texture` as texture *and* sampler `index` of the texture unit (`sim::tex`):
    /// the descriptors a driver would put in its texture and sampler tables, modelled as
    /// the shared texture model rather than bytes (the Mali descriptor layouts are not in
    /// the spec material) \[Assumption\]. Replaces an earlier binding.
    pub fn bind_texture(&mut self, index: u32, texture: Texture) {
        self.textures.insert(index, texture);
    }

    /// The texture bound at `index`, if any.
    pub fn texture(&self, index: u32) -> Option<&Texture> {
        self.textures.get(&index)
    }

    /// The in-region byte range of `addr .. addr + len` in `region` (mapped at `base`),
    /// or `None` unless all of it lies inside.
    fn span(base: u64, region: &[u8], addr: u64, len: usize) -> Option<std::ops::Range<usize>> {
        let off = usize::try_from(addr.checked_sub(base)?).ok()?;
        let end = off.checked_add(len)?;
        (end <= region.len()).then_some(off..end)
    }

    /// The `len` bytes at `addr`, or `None` unless they all lie in one region.
    pub fn read(&self, addr: u64, len: usize) -> Option<&[u8]> {
        let (base, r) = &self.regions[self.below(addr)?];
        r.get(Self::span(*base, r, addr, len)?)
    }

    /// The region that holds all `len` bytes at `addrs[l]` for every lane `l` in
    /// `active`, as its base address and bytes; `None` when there is none (some access
    /// faults, or the accesses lie in different regions) or no lane is active. Lets a
    /// warp's LOAD find its region once instead of once per lane.
    pub(crate) fn warp_region(
        &self,
        addrs: &[u64; 16],
        active: u16,
        len: usize,
    ) -> Option<(u64, &[u8])> {
        let i = self.warp_region_index(addrs, active, len)?;
        let (base, r) = &self.regions[i];
        Some((*base, r.as_slice()))
    }

    /// As [`Memory::warp_region`], for a STORE.
    pub(crate) fn warp_region_mut(
        &mut self,
        addrs: &[u64; 16],
        active: u16,
        len: usize,
    ) -> Option<(u64, &mut [u8])> {
        let i = self.warp_region_index(addrs, active, len)?;
        let (base, r) = &mut self.regions[i];
        Some((*base, r.as_mut_slice()))
    }

    fn warp_region_index(&self, addrs: &[u64; 16], active: u16, len: usize) -> Option<usize> {
        if active == 0 {
            return None;
        }
        let (mut lo, mut hi) = (u64::MAX, 0u64);
        for (l, &a) in addrs.iter().enumerate() {
            if active >> l & 1 != 0 {
                lo = lo.min(a);
                hi = hi.max(a);
            }
        }
        // The region that can hold the lowest access; the highest one ends inside it, so
        // every access lies inside (regions never overlap).
        let i = self.below(lo)?;
        let (base, r) = &self.regions[i];
        Self::span(*base, r, hi, len)?;
        Some(i)
    }

    /// The `len` bytes at `addr` (`len` ≤ 16) as a little-endian number, or `None`
    /// unless they all lie in one region. The usual sizes copy a fixed number of bytes
    /// (no call to `memcpy` per lane).
    #[inline]
    pub(crate) fn read_le(&self, addr: u64, len: usize) -> Option<u128> {
        self.read(addr, len).map(le_value)
    }

    /// Writes the low `len` bytes (`len` ≤ 16) of `value` little-endian at `addr`;
    /// `false` (and nothing written) unless all of them lie in one region. As
    /// [`Memory::write`] of `value.to_le_bytes()[..len]`, without a `memcpy` call for
    /// the usual sizes.
    #[inline]
    pub(crate) fn write_le(&mut self, addr: u64, value: u128, len: usize) -> bool {
        let Some(i) = self.below(addr) else {
            return false;
        };
        let (base, r) = &mut self.regions[i];
        let Some(dst) = Self::span(*base, r, addr, len).and_then(|s| r.get_mut(s)) else {
            return false;
        };
        match dst.len() {
            1 => dst[0] = value as u8,
            2 => dst.copy_from_slice(&(value as u16).to_le_bytes()),
            4 => dst.copy_from_slice(&(value as u32).to_le_bytes()),
            8 => dst.copy_from_slice(&(value as u64).to_le_bytes()),
            n => dst.copy_from_slice(&value.to_le_bytes()[..n]),
        }
        true
    }

    /// Writes `data` at `addr`; `false` (and nothing written) unless all of it lies in
    /// one region.
    pub fn write(&mut self, addr: u64, data: &[u8]) -> bool {
        let Some(i) = self.below(addr) else {
            return false;
        };
        let (base, r) = &mut self.regions[i];
        match Self::span(*base, r, addr, data.len()).and_then(|s| r.get_mut(s)) {
            Some(dst) => {
                dst.copy_from_slice(data);
                true
            }
            None => false,
        }
    }
}

/// `d` (at most 16 bytes) as a little-endian number. The usual sizes copy a fixed
/// number of bytes (no call to `memcpy`).
#[inline]
pub(crate) fn le_value(d: &[u8]) -> u128 {
    match *d {
        [a] => u128::from(a),
        [a, b] => u128::from(u16::from_le_bytes([a, b])),
        [a, b, c, e] => u128::from(u32::from_le_bytes([a, b, c, e])),
        [a, b, c, e, f, g, h, i] => u128::from(u64::from_le_bytes([a, b, c, e, f, g, h, i])),
        _ => {
            let mut raw = [0u8; 16];
            raw[..d.len()].copy_from_slice(d);
            u128::from_le_bytes(raw)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_and_faults() {
        let mut m = Memory::new();
        m.map(0x1000, vec![0; 16]);
        m.map(0x2000, vec![7; 4]);
        assert!(m.write(0x100C, &[1, 2, 3, 4]));
        assert_eq!(m.read(0x100C, 4), Some(&[1, 2, 3, 4][..]));
        assert!(m.read(0x100D, 4).is_none(), "crosses the end of the region");
        assert!(!m.write(0x0FFF, &[0, 0]), "starts before the region");
        assert!(m.read(0x3000, 1).is_none());
        assert_eq!(m.read(0x2000, 4), Some(&[7u8; 4][..]));
        assert_eq!(m.read(0x1010, 0), Some(&[][..]));
        // Overlapping map replaces.
        m.map(0x1008, vec![9; 16]);
        assert!(m.region(0x1000).is_none());
        assert_eq!(m.read(0x1008, 1), Some(&[9u8][..]));
        assert!(m.read(u64::MAX, 2).is_none());
    }

    #[test]
    fn little_endian_numbers() {
        // SEMANTICS.md §8: memory is little-endian; an access must lie in one region.
        let mut m = Memory::new();
        m.map(0x100, (1u8..=20).collect());
        assert_eq!(m.read_le(0x100, 1), Some(0x01));
        assert_eq!(m.read_le(0x101, 2), Some(0x0302));
        assert_eq!(m.read_le(0x100, 4), Some(0x0403_0201));
        assert_eq!(m.read_le(0x100, 8), Some(0x0807_0605_0403_0201));
        assert_eq!(m.read_le(0x100, 12), Some(0x0C0B_0A09_0807_0605_0403_0201));
        assert_eq!(
            m.read_le(0x104, 16),
            Some(0x1413_1211_100F_0E0D_0C0B_0A09_0807_0605)
        );
        assert_eq!(m.read_le(0x111, 4), None, "crosses the end of the region");
        assert!(m.write_le(0x100, 0xAABB_CCDD, 2));
        assert_eq!(m.read(0x100, 3), Some(&[0xDD, 0xCC, 3][..]));
        assert!(m.write_le(0x104, 0x1122_3344_5566_7788_99AA_BBCC, 12));
        assert_eq!(m.read_le(0x104, 12), Some(0x1122_3344_5566_7788_99AA_BBCC));
        assert_eq!(m.read_le(0x110, 1), Some(17));
        assert!(!m.write_le(0x112, 0, 4), "crosses the end of the region");
        assert_eq!(m.read(0x112, 2), Some(&[19, 20][..]), "nothing written");
    }
}
