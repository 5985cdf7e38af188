//! Multi-word integers for the soft-float sequences: little-endian slices of 32-bit
//! words (word 0 = bits 0–31), added with explicit carries (a carry out of `s = a + b` is
//! `s < a`, unsigned), shifted by run-time amounts through the modulo-32 shifts of
//! SEMANTICS.md §4, and counted with `CLZ.u32`.

use super::super::vcode::VSrc;
use super::E;

impl E<'_> {
    /// `a + b` over `a.len()` words (the carry out of the top word is dropped).
    pub(super) fn wadd(&mut self, a: &[VSrc], b: &[VSrc]) -> Vec<VSrc> {
        self.wcarry(a, b, false)
    }

    /// `a − b` over `a.len()` words (wrapping).
    pub(super) fn wsub(&mut self, a: &[VSrc], b: &[VSrc]) -> Vec<VSrc> {
        self.wcarry(a, b, true)
    }

    /// Word-by-word addition (`sub = false`) or subtraction with a carry or borrow chain.
    /// Carry out of `t = a + b`: `t < a`; borrow out of `t = a − b`: `a < b`; then of
    /// `s = t ± c_in`: `s < c_in` (addition) or `t < c_in` (subtraction).
    fn wcarry(&mut self, a: &[VSrc], b: &[VSrc], sub: bool) -> Vec<VSrc> {
        let op = if sub { "ISUB.u32" } else { "IADD.u32" };
        let mut out = Vec::with_capacity(a.len());
        let mut carry: Option<VSrc> = None;
        let last = a.len() - 1;
        for i in 0..a.len() {
            let t = self.op(op, &[a[i], b[i]], &[]);
            let s = match carry {
                Some(c) => self.op(op, &[t, c], &[]),
                None => t,
            };
            out.push(s);
            if i < last {
                let z = self.k(0);
                let c2 = match carry {
                    Some(c) if sub => self.icmp("ICMP_OR.u32", "lt", "i1", t, c, z),
                    Some(c) => self.icmp("ICMP_OR.u32", "lt", "i1", s, c, z),
                    None => z,
                };
                carry = Some(if sub {
                    self.icmp("ICMP_OR.u32", "lt", "i1", a[i], b[i], c2)
                } else {
                    self.icmp("ICMP_OR.u32", "lt", "i1", t, a[i], c2)
                });
            }
        }
        out
    }

    /// `a << n` for a constant `n` below `32 · a.len()`.
    pub(super) fn wshlk(&mut self, a: &[VSrc], n: u32) -> Vec<VSrc> {
        let words = (n / 32) as usize;
        let bits = n % 32;
        let z = self.k(0);
        let mut out = Vec::with_capacity(a.len());
        for i in 0..a.len() {
            let v = if i < words {
                z
            } else if bits == 0 {
                a[i - words]
            } else if i == words {
                self.shl(a[0], bits)
            } else {
                let t = self.shr(a[i - words - 1], 32 - bits);
                self.shl_or(a[i - words], bits, t)
            };
            out.push(v);
        }
        out
    }

    /// `a >> n` (logical, bits shifted out are lost) for a constant `n` below
    /// `32 · a.len()`.
    pub(super) fn wshrk(&mut self, a: &[VSrc], n: u32) -> Vec<VSrc> {
        let words = (n / 32) as usize;
        let bits = n % 32;
        let z = self.k(0);
        let len = a.len();
        let mut out = Vec::with_capacity(len);
        for i in 0..len {
            let v = if i + words >= len {
                z
            } else if bits == 0 {
                a[i + words]
            } else if i + words + 1 == len {
                self.shr(a[i + words], bits)
            } else {
                let t = self.shl(a[i + words + 1], 32 - bits);
                self.shr_or(a[i + words], bits, t)
            };
            out.push(v);
        }
        out
    }

    /// The word stages of a run-time shift: for each power-of-two word count `w` below
    /// `len`, from the largest, whether bit `32·w` of `s` is set.
    fn word_stages(&mut self, len: usize, s: VSrc) -> Vec<(usize, VSrc)> {
        let mut stages = Vec::new();
        let mut w = len.next_power_of_two() / 2;
        while w >= 1 {
            if w < len {
                let m = self.andk(s, 32 * w as u32);
                stages.push((w, m));
            }
            w /= 2;
        }
        stages
    }

    /// `a << s` for a run-time `s` in `0 .. 32 · len` (`len` a power of two).
    pub(super) fn wshl(&mut self, a: &[VSrc], s: VSrc) -> Vec<VSrc> {
        let len = a.len();
        let z = self.k(0);
        let mut x = a.to_vec();
        for (w, m) in self.word_stages(len, s) {
            let prev = x.clone();
            for i in 0..len {
                let moved = if i >= w { prev[i - w] } else { z };
                x[i] = self.sel(m, moved, prev[i]);
            }
        }
        // Bit stage: x_i << b | x_{i−1} >> (32 − b), the second as (x_{i−1} >> 1) >> (31 − b)
        // so that b = 0 works with modulo-32 amounts (31 − b = !s mod 32).
        let ns = self.not(s);
        let prev = x.clone();
        for i in 0..len {
            x[i] = if i == 0 {
                self.shlv(prev[0], s)
            } else {
                let t = self.shr(prev[i - 1], 1);
                let t = self.shrv(t, ns);
                self.shlv_or(prev[i], s, t)
            };
        }
        x
    }

    /// `a >> s` with the bits shifted out ORed into bit 0 ("jamming", SoftFloat's
    /// `shiftRightJam`), for a run-time `s` in `0 .. 32 · len` (`len` a power of two).
    pub(super) fn wshr_jam(&mut self, a: &[VSrc], s: VSrc) -> Vec<VSrc> {
        let len = a.len();
        let z = self.k(0);
        let mut x = a.to_vec();
        let mut sticky = z;
        for (w, m) in self.word_stages(len, s) {
            let prev = x.clone();
            let mut lost = prev[0];
            for &p in &prev[1..w] {
                lost = self.or(lost, p);
            }
            let lost = self.sel(m, lost, z);
            sticky = self.or(sticky, lost);
            for i in 0..len {
                let moved = if i + w < len { prev[i + w] } else { z };
                x[i] = self.sel(m, moved, prev[i]);
            }
        }
        let ns = self.not(s);
        let prev = x.clone();
        let t = self.shl(prev[0], 1);
        let lost = self.shlv(t, ns);
        sticky = self.or(sticky, lost);
        for i in 0..len {
            x[i] = if i + 1 == len {
                self.shrv(prev[i], s)
            } else {
                let t = self.shl(prev[i + 1], 1);
                let t = self.shlv(t, ns);
                self.shrv_or(prev[i], s, t)
            };
        }
        let st = self.cmp1("ne", sticky, z);
        x[0] = self.or(x[0], st);
        x
    }

    /// Leading zeros of `a` (`32 · len` for 0).
    pub(super) fn wclz(&mut self, a: &[VSrc]) -> VSrc {
        let len = a.len();
        let c = self.clz(a[0]);
        let mut lz = self.addk(c, 32 * (len as i32 - 1));
        for (i, &w) in a.iter().enumerate().skip(1) {
            let c = self.clz(w);
            let c = if i + 1 == len {
                c
            } else {
                self.addk(c, 32 * (len - 1 - i) as i32)
            };
            lz = self.sel(w, c, lz);
        }
        lz
    }

    /// The OR of all words (non-zero exactly when `a` is).
    pub(super) fn wany(&mut self, a: &[VSrc]) -> VSrc {
        let mut r = a[0];
        for &w in &a[1..] {
            r = self.or(r, w);
        }
        r
    }

    /// The 128-bit product of two 64-bit values (four `IMULD.u64` partial products).
    pub(super) fn mul_64x64(&mut self, a: &[VSrc], b: &[VSrc]) -> Vec<VSrc> {
        let p00 = self.mul_wide(a[0], b[0]);
        let p01 = self.mul_wide(a[0], b[1]);
        let p10 = self.mul_wide(a[1], b[0]);
        let p11 = self.mul_wide(a[1], b[1]);
        let z = self.k(0);
        let mid = self.wadd(&[p01[0], p01[1], z], &[p10[0], p10[1], z]);
        self.wadd(
            &[p00[0], p00[1], p11[0], p11[1]],
            &[z, mid[0], mid[1], mid[2]],
        )
    }
}
