//! Lowering of the NV image instructions LOADIM, STOREIM and ATOMIM
//! (EXT_shader_image_load_store "Section 2.X.8.Z, LOADIM / STOREIM / ATOMIM", §3.9.X
//! Table X.1, Table X.2, Table X.3; NV_shader_atomic_float for ATOMIM.ADD/EXCH.F32) onto
//! the IR's buffers, with no engine support for images.
//!
//! Image model. Image unit `image[u]` becomes the IR `BUFFER` named `image[u]` in the
//! [`super::NameMap`], holding the texels row-major (x fastest, then y, then z or the
//! layer), and the hidden CONST `image[u].size` = (W, H, D, B): width, height, depth or
//! layer count, and bytes per texel (the "Data Type" class of Table X.2 / Table X.3: 1, 2,
//! 4, 8 or 16). The harness fills both from the inputs file (`nv_runtime.rs`).
//!
//! Texel address. The coordinate operand is a signed integer vector. As the LOADIM
//! pseudo-code says, `y` is zeroed for 1D and BUFFER and `z` for 1D, 2D, BUFFER and RECT;
//! Table X.1 then names the coordinates each target uses (i = x, j = y, k or layer = z;
//! ARRAY1D takes its layer from y). The access is *invalid* (§3.9.X) when a used
//! coordinate is outside `0 .. W`, `0 .. H` or `0 .. D` (one unsigned compare: a negative
//! coordinate is a huge unsigned one), when a coordinate Table X.1 does not list is
//! non-zero (only ARRAY1D's `z` survives the zeroing), or when the storage modifier's size
//! differs from B (Table X.3). A valid texel `(x, y, z)` is at byte `((z·H + y)·W + x)·B`
//! of the buffer; an invalid one at [`super::lower_mem::OUT_OF_RANGE`], which the IR
//! memory model treats as outside the buffer: loads are undefined (LOADIM: "the result
//! vector will be undefined"), stores have no effect (§3.9.X), atomics update nothing and
//! return the IR atomic's out-of-range (undefined) value.
//!
//! Storage modifiers (Table X.3): F32X4 S32X4 U32X4, F32X2 S32X2 U32X2, F32 S32 U32, S16
//! U16, S8 U8. LOADIM fills the components the modifier does not cover with (0, 0, 1):
//! `y`, `z` = 0 and `w` = 1 (integer 1, or 1.0 for F32 / F32X2). 8- and 16-bit loads are
//! sign- (S8, S16) or zero-extended (U8, U16) fields of the aligned dword; 8- and 16-bit
//! stores keep the low bits and are a read-modify-write of the dword (not atomic, as
//! `lower_mem.rs`'s narrow stores). ATOMIM takes the 32-bit operations of Table X.4 (and
//! ADD / EXCH on F32) through `lower_mem.rs`'s [`Ctx::atom_op`] / [`Ctx::atom_at`].
//!
//! Refused (`LowerError::Unsupported`): formatted STOREIM (no storage modifier: the
//! conversion to the unit's format needs the format, which B does not give), the CUBE,
//! ARRAYCUBE, 2DMS and ARRAY2DMS targets, relative indexing of IMAGE arrays, bindless
//! handles, condition codes. IMAGE variables (`IMAGE im[] = { image[0..1] };`) name their
//! units; `im[k]` is element k's unit. Invalid (`LowerError::Invalid`): storage
//! modifiers outside Table X.3, targets that are not `<imageTarget>`s.

use super::ast::{BaseType, Clamp, Index, Instruction as NvInsn, TexTarget as T, UnitRef};
use super::lower::{dst, src};
use super::lower::{Ctx, LowerError, Var};
use super::lower_mem::{Storage, OUT_OF_RANGE};
use super::NvOpcode as N;
use crate::names::File;
use crate::opcode::Opcode as O;
use crate::program::{self as ir, Register, Saturate};

const X: u8 = 0b0001;

/// The name of image unit `u`'s texel buffer in the [`super::NameMap`].
pub fn image_buffer_name(unit: u32) -> String {
    format!("image[{unit}]")
}

/// The name of image unit `u`'s shape parameter (W, H, D, B) in the [`super::NameMap`].
pub fn image_size_name(unit: u32) -> String {
    format!("image[{unit}].size")
}

/// How a target reads the coordinate vector (Table X.1 after the LOADIM pseudo-code's
/// zeroing): per coordinate x, y, z, `Used` (checked against W, H, D), `Zeroed` (taken
/// as 0) or `MustBeZero` (not in Table X.1's row: non-zero makes the access invalid).
#[derive(Clone, Copy, PartialEq)]
enum Coord {
    Used,
    Zeroed,
    MustBeZero,
}

impl Ctx<'_> {
    /// LOADIM, STOREIM and ATOMIM (EXT_shader_image_load_store §2.X.8.Z; module docs).
    pub(super) fn image(&mut self, insn: &NvInsn) -> Result<(), LowerError> {
        let name = insn.opcode.name();
        if insn.mods.cc.is_some() || insn.dst.as_ref().is_some_and(|d| d.cc.is_some()) {
            return Err(self.unsupported(format!(
                "{name}: condition codes on image instructions are not lowered"
            )));
        }
        let access = insn
            .image
            .as_ref()
            .ok_or_else(|| self.invalid(format!("{name} needs an image unit")))?;
        let unit = match &access.unit {
            UnitRef::Unit(n) => n.unwrap_or(0),
            UnitRef::Var { name: var, index } => self.image_var_unit(name, var, index.as_ref())?,
            UnitRef::Handle { .. } => {
                return Err(
                    self.unsupported(format!("{name}: bindless image handles are not lowered"))
                )
            }
        };
        if unit > i32::MAX as u32 {
            return Err(self.invalid(format!("{name}: image unit {unit} is out of range")));
        }
        use Coord::{MustBeZero, Used, Zeroed};
        let coords = match access.target {
            T::T1D | T::Buffer => [Used, Zeroed, Zeroed],
            T::T2D | T::Rect => [Used, Used, Zeroed],
            T::T3D | T::Array2D => [Used, Used, Used],
            T::Array1D => [Used, Used, MustBeZero],
            T::Cube | T::ArrayCube | T::T2DMS | T::Array2DMS => {
                return Err(self.unsupported(format!(
                    "{name}: {} images are not lowered (1D, 2D, 3D, RECT, BUFFER, ARRAY1D and \
                     ARRAY2D are)",
                    access.target
                )))
            }
            t => {
                return Err(self.invalid(format!(
                    "{name}: {t} is not an image target (EXT_shader_image_load_store \
                     <imageTarget>)"
                )))
            }
        };
        if insn.opcode == N::Storeim && insn.mods.ty.and_then(|t| t.bits()).is_none() {
            return Err(self.unsupported(format!(
                "{name}: formatted stores (no storage modifier) need the image unit's format \
                 (Table X.2), which the image model does not carry; use STOREIM.U32 ... \
                 (an unformatted store)"
            )));
        }
        let st = self.image_storage(insn)?;
        let sat = match insn.mods.clamp {
            None => Saturate::None,
            Some(_) if st.base != BaseType::F => {
                return Err(self.unsupported(format!("{name}: SAT/SSAT on an integer result")))
            }
            Some(Clamp::Sat) => Saturate::Zero,
            Some(Clamp::SSat) => Saturate::Signed,
        };
        let (buf, size) = self.image_unit(unit);
        let k = if insn.opcode == N::Loadim { 0 } else { 1 };
        let off = self.texel_offset(insn, k, size, coords, st)?;
        match insn.opcode {
            N::Loadim => {
                let d = self.dest(insn)?;
                self.image_load(buf, off, st, d, sat);
                Ok(())
            }
            N::Storeim => self.image_store(insn, buf, off, st),
            _ => {
                let irop = self.atom_op(insn)?;
                let d = self.dest(insn)?;
                self.atom_at(insn, irop, buf, off, d, sat)
            }
        }
    }

    /// The unit of element `index` of the IMAGE variable `var` (absolute indices; an index
    /// past the array is invalid, a relative one refused).
    fn image_var_unit(
        &self,
        name: &str,
        var: &str,
        index: Option<&Index>,
    ) -> Result<u32, LowerError> {
        let Some(Var::Image { units }) = self.vars.get(var) else {
            return Err(self.invalid(format!("{name}: `{var}` is not an IMAGE variable")));
        };
        let k = match index {
            None => 0,
            Some(Index::Abs(k)) => *k,
            Some(_) => {
                return Err(self.unsupported(format!(
                    "{name}: relative indexing of the IMAGE array `{var}`"
                )))
            }
        };
        units.get(k as usize).copied().ok_or_else(|| {
            self.invalid(format!(
                "{name}: `{var}[{k}]` is past the {} images of `{var}`",
                units.len()
            ))
        })
    }

    /// The storage modifier, which must be one of Table X.3.
    fn image_storage(&self, insn: &NvInsn) -> Result<Storage, LowerError> {
        let st = self.storage(insn)?;
        let ok = match (st.bits, st.count) {
            (32, 1 | 2 | 4) => true,
            (8 | 16, 1) => st.base != BaseType::F,
            _ => false,
        };
        if !ok {
            let t = insn.mods.ty.map(|t| t.name()).unwrap_or("");
            return Err(self.invalid(format!(
                "{}.{t}: not an image storage modifier (Table X.3: F32X4 S32X4 U32X4 F32X2 \
                 S32X2 U32X2 F32 S32 U32 S16 U16 S8 U8)",
                insn.opcode.name()
            )));
        }
        Ok(st)
    }

    /// Image unit `u`'s texel buffer and shape parameter, declared on first use (named
    /// registers, like bindings: [`Ctx::binding_reg`]).
    fn image_unit(&mut self, unit: u32) -> (Register, Register) {
        let b = self.binding_reg(File::Buffer, &image_buffer_name(unit));
        let s = self.binding_reg(File::Const, &image_size_name(unit));
        (
            Register::new(File::Buffer, b as i32),
            Register::new(File::Const, s as i32),
        )
    }

    /// The byte offset (in `.x`) of the texel operand `k` names (module docs: Table X.1,
    /// §3.9.X invalid accesses → [`OUT_OF_RANGE`]).
    fn texel_offset(
        &mut self,
        insn: &NvInsn,
        k: usize,
        size: Register,
        coords: [Coord; 3],
        st: Storage,
    ) -> Result<ir::Src, LowerError> {
        let c = self.operand(insn, k, BaseType::S)?;
        let zero = src(self.imm([0; 4]), [0; 4]);
        // ok.x = valid so far; ok.y = this check.
        let ok = self.hidden();
        let bytes = src(self.imm([st.size(); 4]), [0; 4]);
        self.emit(O::USEQ, vec![dst(ok, X)], vec![src(size, [3; 4]), bytes]);
        // lin.x = the texel's linear index, built from z down to x.
        let lin = self.hidden();
        self.emit(O::MOV, vec![dst(lin, X)], vec![zero]);
        for i in (0..3).rev() {
            let ci = src(c.reg, [c.swizzle[i]; 4]);
            match coords[i] {
                Coord::Used => {
                    self.emit(
                        O::USLT,
                        vec![dst(ok, 0b0010)],
                        vec![ci, src(size, [i as u8; 4])],
                    );
                    self.emit(
                        O::UMUL,
                        vec![dst(lin, X)],
                        vec![src(lin, [0; 4]), src(size, [i as u8; 4])],
                    );
                    self.emit(O::UADD, vec![dst(lin, X)], vec![src(lin, [0; 4]), ci]);
                }
                Coord::MustBeZero => {
                    self.emit(O::USEQ, vec![dst(ok, 0b0010)], vec![ci, zero]);
                }
                // Taken as 0 (the pseudo-code's zeroing): no index, no check.
                Coord::Zeroed => continue,
            }
            self.emit(
                O::AND,
                vec![dst(ok, X)],
                vec![src(ok, [0; 4]), src(ok, [1; 4])],
            );
        }
        self.emit(
            O::UMUL,
            vec![dst(lin, X)],
            vec![src(lin, [0; 4]), src(size, [3; 4])],
        );
        let far = src(self.imm([OUT_OF_RANGE; 4]), [0; 4]);
        self.emit(
            O::UCMP,
            vec![dst(lin, X)],
            vec![src(ok, [0; 4]), src(lin, [0; 4]), far],
        );
        Ok(src(lin, [0; 4]))
    }

    /// LOADIM's result (§2.X.8.Z LOADIM): the texel's components, then 0, 0 and 1 for the
    /// ones the storage modifier does not cover.
    fn image_load(&mut self, buf: Register, off: ir::Src, st: Storage, d: ir::Dst, sat: Saturate) {
        let one = if st.base == BaseType::F {
            1f32.to_bits()
        } else {
            1
        };
        let t = self.hidden();
        let fill = src(self.imm([0, 0, 0, one]), [0, 1, 2, 3]);
        self.emit(O::MOV, vec![dst(t, 0xF)], vec![fill]);
        if st.bits == 32 {
            let mask = (1u8 << st.count) - 1;
            self.emit(
                O::LOAD,
                vec![dst(t, mask)],
                vec![src(buf, [0, 1, 2, 3]), off],
            );
        } else {
            // The aligned dword, then the field at (offset & 3) * 8 (little-endian).
            let w = self.narrow_word(buf, off);
            let bits = src(self.imm([st.bits; 4]), [0; 4]);
            let op = if st.base == BaseType::S {
                O::IBFE
            } else {
                O::UBFE
            };
            self.emit(
                op,
                vec![dst(t, X)],
                vec![src(w, [0; 4]), src(w, [2; 4]), bits],
            );
        }
        let mut i = ir::Instruction::new(O::MOV, vec![d], vec![src(t, [0, 1, 2, 3])]);
        i.saturate = sat;
        self.push(i);
    }

    /// Unformatted STOREIM (§2.X.8.Z STOREIM): the first 1, 2 or 4 components of operand 0;
    /// 8 / 16 bits keep the low bits (a read-modify-write of the dword).
    fn image_store(
        &mut self,
        insn: &NvInsn,
        buf: Register,
        off: ir::Src,
        st: Storage,
    ) -> Result<(), LowerError> {
        let v = self.operand(insn, 0, st.base)?;
        if st.bits == 32 {
            let mask = (1u8 << st.count) - 1;
            self.emit(O::STORE, vec![dst(buf, mask)], vec![off, v]);
            return Ok(());
        }
        let w = self.narrow_word(buf, off);
        let bits = src(self.imm([st.bits; 4]), [0; 4]);
        self.emit(
            O::BFI,
            vec![dst(w, X)],
            vec![
                src(w, [0; 4]),
                src(v.reg, [v.swizzle[0]; 4]),
                src(w, [2; 4]),
                bits,
            ],
        );
        self.emit(
            O::STORE,
            vec![dst(buf, X)],
            vec![src(w, [1; 4]), src(w, [0; 4])],
        );
        Ok(())
    }
}
