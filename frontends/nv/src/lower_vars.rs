//! Variables of a lowered NV program: declarations (TEMP, ADDRESS, ATTRIB, PARAM, OUTPUT,
//! ALIAS), bindings and their IR registers, resolution of variable references (absolute and
//! relative indices) and literal constants typed at their use (NV_gpu_program4 §2.X.3
//! "Program Variables", §2.X.4.2 "Program Operands"; ARB_vertex_program §2.14.3).

use super::ast::{self, BaseType, Binding, Declaration, Index, InitItem};
use super::ast::{NvStage, SignedLit, SrcBase, VarRef};
use super::lower::{canonical_name, Ctx, Elem, LowerError, Var, MAX_TEMPS};
use super::print::binding_text;
use crate::names::{File, ImmType};
use crate::program::{self as ir, Register};

impl Ctx<'_> {
    /// A register of `file` for binding text `name`, allocating it on first use.
    pub(super) fn binding_reg(&mut self, file: File, name: &str) -> u32 {
        let key = canonical_name(self.stage, name);
        if let Some(&(_, _, i)) = self
            .names
            .entries
            .iter()
            .find(|(n, f, _)| *n == key && *f == file)
        {
            return i;
        }
        let c = self.counts.entry(file).or_insert(0);
        let i = *c;
        *c += 1;
        self.names.entries.push((key, file, i));
        i
    }

    /// The IR file of a binding by its root (§2.X.3.2-4): inputs, results, parameters.
    pub(super) fn binding_file(&self, b: &Binding) -> Result<File, LowerError> {
        match b.root() {
            "vertex" | "fragment" if b.segments[0].index.is_empty() => Ok(File::Input),
            "result" => Ok(File::Output),
            "invocation" if self.stage == NvStage::Compute => Ok(File::SystemValue),
            "program" | "state" if b.segments.get(1).map(|s| s.name.as_str()) != Some("buffer") => {
                Ok(File::Const)
            }
            _ => Err(self.unsupported(format!("binding `{}`", binding_text(b)))),
        }
    }

    /// Expands a binding to its vec4 bindings: `[a..b]` ranges and whole matrices
    /// (`state.matrix.mvp` is its four rows, ARB_vertex_program §2.14.3.1).
    pub(super) fn expand(&self, b: &Binding) -> Vec<Binding> {
        for (si, seg) in b.segments.iter().enumerate() {
            for (ii, ix) in seg.index.iter().enumerate() {
                if let Index::Range(lo, hi) = *ix {
                    return (lo..=hi)
                        .flat_map(|k| {
                            let mut c = b.clone();
                            c.segments[si].index[ii] = Index::Abs(k);
                            self.expand(&c)
                        })
                        .collect();
                }
            }
        }
        let path = b.path();
        if path.starts_with("state.matrix") && !b.segments.iter().any(|s| s.name == "row") {
            return (0..4)
                .map(|k| {
                    let mut c = b.clone();
                    c.segments.push(ast::Segment {
                        name: "row".into(),
                        index: vec![Index::Abs(k)],
                    });
                    c
                })
                .collect();
        }
        vec![b.clone()]
    }

    /// The elements of a whole binding (all vec4s it covers).
    pub fn binding_elems(&mut self, b: &Binding) -> Result<Vec<Elem>, LowerError> {
        if let Some(v) = self.primitive_binding(b)? {
            return Ok(v);
        }
        let file = self.binding_file(b)?;
        let mut v = Vec::new();
        for e in self.expand(b) {
            let i = self.binding_reg(file, &binding_text(&e));
            v.push(Elem::Reg(file, i));
        }
        Ok(v)
    }

    /// `LONG ATTRIB name = vertex.attrib[n];` (NV_gpu_program5 issue 6: "The LONG modifier
    /// can only be used [for] vertex program inputs"; the attribute's components are 64-bit,
    /// VertexAttribL*). The attribute is two IR inputs: `vertex.attrib[n]` holds x and y
    /// (lo, hi, lo, hi words, the LONG TEMP layout) and `vertex.attrib[n].zw` holds z and w;
    /// the prologue copies them into a LONG TEMP pair that the program reads. Errors: LONG
    /// on anything but a vertex program ATTRIB is invalid; arrays and conventional
    /// attributes (`vertex.position` ..., which VertexAttribL does not feed) are refused.
    fn long_attrib(&mut self, b: &ast::BoundDecl) -> Result<(), LowerError> {
        if b.kind != ast::DeclKind::Attrib || self.stage != NvStage::Vertex {
            return Err(self.invalid(format!(
                "LONG {} `{}`: LONG is only allowed on vertex program attributes (NV_gpu_program5 issue 6)",
                b.kind, b.name
            )));
        }
        let (true, [InitItem::Binding(bd)]) = (b.dims.is_empty(), b.init.as_slice()) else {
            return Err(self.unsupported(format!("LONG ATTRIB `{}`: arrays", b.name)));
        };
        let text = canonical_name(self.stage, &binding_text(bd));
        if !text.starts_with("vertex.attrib[") {
            return Err(self.unsupported(format!(
                "LONG ATTRIB `{}` = {text}: only generic attributes (vertex.attrib[n]) are 64-bit",
                b.name
            )));
        }
        let lo = match self.binding_elems(bd)?.as_slice() {
            [Elem::Reg(File::Input, i)] => *i,
            _ => {
                return Err(
                    self.unsupported(format!("LONG ATTRIB `{}` = {text}: one attribute", b.name))
                )
            }
        };
        let hi = self.binding_reg(File::Input, &format!("{text}.zw"));
        let base = self.next_temp;
        if self.next_temp + 2 > MAX_TEMPS {
            return Err(self.unsupported(format!(
                "LONG ATTRIB `{}`: more than {MAX_TEMPS} temporaries",
                b.name
            )));
        }
        self.next_temp += 2;
        for (k, i) in [lo, hi].into_iter().enumerate() {
            self.emit(
                crate::opcode::Opcode::MOV,
                vec![ir::Dst {
                    reg: Register::new(File::Temp, (base + k as u32) as i32),
                    writemask: 0xF,
                }],
                vec![super::lower::src(
                    Register::new(File::Input, i as i32),
                    [0, 1, 2, 3],
                )],
            );
        }
        self.names.entries.push((b.name.clone(), File::Input, lo));
        self.names
            .entries
            .push((format!("{}.zw", b.name), File::Input, hi));
        self.vars.insert(b.name.clone(), Var::LongAttrib { base });
        Ok(())
    }

    pub(super) fn declare(&mut self, d: &Declaration) -> Result<(), LowerError> {
        match d {
            Declaration::Temp { mods, vars } => {
                // NV_gpu_program5 §2.X.3.1: a LONG component holds at least 64 bits.
                let long = mods.size == Some(ast::VarSize::Long);
                for v in vars {
                    let base = self.next_temp;
                    let size = v.size.unwrap_or(1).max(1) * if long { 2 } else { 1 };
                    if size > MAX_TEMPS || self.next_temp + size > MAX_TEMPS {
                        return Err(self.unsupported(format!(
                            "TEMP `{}`: more than {MAX_TEMPS} temporaries",
                            v.name
                        )));
                    }
                    self.next_temp += size;
                    let var = if long {
                        Var::LongTemp { base }
                    } else {
                        Var::Temp { base }
                    };
                    self.vars.insert(v.name.clone(), var);
                }
            }
            Declaration::Address { names } => {
                for n in names {
                    let c = self.counts.entry(File::Address).or_insert(0);
                    let i = *c;
                    *c += 1;
                    self.vars.insert(n.clone(), Var::Addr(i));
                }
            }
            Declaration::Alias { name, target } if self.alias_vertex(name, target) => {}
            Declaration::Alias { name, target } => {
                let v = self.vars.get(target).cloned().ok_or_else(|| {
                    self.invalid(format!("ALIAS of undeclared variable `{target}`"))
                })?;
                self.vars.insert(name.clone(), v);
            }
            Declaration::Bound(b) if self.declare_vertex(b)? => {}
            Declaration::Bound(b)
                if matches!(b.kind, ast::DeclKind::CBuffer | ast::DeclKind::Storage) =>
            {
                // `program.buffer[a]` (CBUFFER) or `program.storage[a]` (STORAGE), `[a][b]`
                // or `[a][b..c]`: elements are bytes of binding point a
                // (NV_parameter_buffer_object2 §2.X.3.6, NV_shader_storage_buffer_object
                // §2.X.3.7).
                let storage = b.kind == ast::DeclKind::Storage;
                let root = if storage { "storage" } else { "buffer" };
                let Some(InitItem::Binding(bd)) = b.init.first() else {
                    return Err(self.invalid(format!("{} needs a program.{root} binding", b.kind)));
                };
                let idx: Vec<u32> = bd
                    .segments
                    .iter()
                    .flat_map(|s| s.index.iter())
                    .filter_map(|ix| match *ix {
                        Index::Abs(a) | Index::Range(a, _) => Some(a),
                        _ => None,
                    })
                    .collect();
                let Some(&point) = idx.first() else {
                    return Err(self.invalid(format!("{} needs a binding point", b.kind)));
                };
                let name = format!("program.{root}[{point}]");
                let buffer = match self
                    .names
                    .entries
                    .iter()
                    .find(|(n, f, _)| *n == name && *f == File::Buffer)
                {
                    Some(&(_, _, i)) => i,
                    None => {
                        let c = self.counts.entry(File::Buffer).or_insert(0);
                        *c += 1;
                        self.names.entries.push((name, File::Buffer, *c - 1));
                        *c - 1
                    }
                };
                let offset = idx.get(1).copied().unwrap_or(0);
                let var = if storage {
                    Var::Storage { buffer, offset }
                } else {
                    Var::CBuffer { buffer, offset }
                };
                self.vars.insert(b.name.clone(), var);
            }
            Declaration::Bound(b) if b.kind == ast::DeclKind::Image => {
                // `IMAGE im = image[a];`, `IMAGE im[] = { image[a..b], image[c] };`: one
                // image unit per element (EXT_shader_image_load_store).
                let mut units = Vec::new();
                for item in &b.init {
                    let InitItem::Binding(bd) = item else {
                        return Err(self.invalid("IMAGE needs image[n] bindings".into()));
                    };
                    match bd.segments.first().and_then(|s| s.index.first()) {
                        Some(Index::Abs(a)) => units.push(*a),
                        Some(Index::Range(a, c)) if a <= c => units.extend(*a..=*c),
                        None => units.push(0),
                        _ => return Err(self.invalid("IMAGE needs image[n] bindings".into())),
                    }
                }
                self.vars.insert(b.name.clone(), Var::Image { units });
            }
            Declaration::Bound(b) if b.kind == ast::DeclKind::Shared => {
                // `program.sharedmem[a]`, `[a..b]` or the whole block: elements are bytes.
                let offset = match b.init.first() {
                    Some(InitItem::Binding(bd)) => bd
                        .segments
                        .iter()
                        .flat_map(|s| s.index.iter())
                        .map(|ix| match *ix {
                            Index::Abs(a) | Index::Range(a, _) => a,
                            _ => 0,
                        })
                        .next()
                        .unwrap_or(0),
                    _ => 0,
                };
                self.vars.insert(b.name.clone(), Var::Shared { offset });
            }
            Declaration::Bound(b) => {
                use ast::DeclKind::*;
                // SUBROUTINE variables name `program.subroutine[i]` parameters, read by
                // CALI (`lower_cali.rs`).
                if !matches!(b.kind, Attrib | Param | Output | Subroutine) {
                    return Err(self.unsupported(format!("{} declarations", b.kind)));
                }
                if b.mods.size == Some(ast::VarSize::Long) {
                    return self.long_attrib(b);
                }
                let mut elems = Vec::new();
                for item in &b.init {
                    match item {
                        InitItem::Binding(bd) => elems.extend(self.binding_elems(bd)?),
                        InitItem::Vector(v) => elems.push(Elem::Lit(v.clone())),
                        InitItem::Scalar(s) => elems.push(Elem::Lit(vec![s.clone(); 4])),
                    }
                }
                // FLAT fragment attributes (NV_fragment_program4 <interpModifier>): their IN
                // registers are declared CONSTANT (IPAC / IPAO / IPAS, lower_interp.rs).
                if b.kind == Attrib
                    && self.stage == NvStage::Fragment
                    && b.mods.interp.contains(&ast::Interp::Flat)
                {
                    for e in &elems {
                        if let Elem::Reg(File::Input, i) = e {
                            self.flat_inputs.insert(*i);
                        }
                    }
                }
                if b.dims.is_empty() {
                    if let Some(Elem::Reg(f, i)) = elems.first() {
                        let (f, i) = (*f, *i);
                        self.names.entries.push((b.name.clone(), f, i));
                    }
                }
                self.vars.insert(b.name.clone(), Var::Elems(elems));
            }
            // Read by CALI (`lower_cali.rs`).
            Declaration::SubroutineType { .. } => {}
        }
        Ok(())
    }

    /// Resolves a variable reference to a register or a literal (`Err` naming it when not
    /// supported). Relative indices need a contiguous register array.
    pub fn resolve(&mut self, r: &VarRef) -> Result<Elem, LowerError> {
        match r {
            VarRef::Binding(b) => {
                let e = self.binding_elems(b)?;
                if e.len() != 1 {
                    return Err(self.unsupported(format!(
                        "binding `{}` used as an operand covers {} vectors",
                        binding_text(b),
                        e.len()
                    )));
                }
                Ok(e.into_iter().next().expect("one"))
            }
            VarRef::Var { name, index } => {
                let var = self
                    .vars
                    .get(name)
                    .cloned()
                    .ok_or_else(|| self.invalid(format!("undeclared variable `{name}`")))?;
                if index.len() > 1 {
                    return Err(self.unsupported(format!("2-D index of `{name}`")));
                }
                match (var, index.first()) {
                    (Var::Shared { .. }, _) => Err(self.invalid(format!(
                        "shared memory variable `{name}` used outside LDS, STS and ATOMS (NV_compute_program5 §2.X.3.7)"
                    ))),
                    (Var::CBuffer { .. }, _) => Err(self.invalid(format!(
                        "CBUFFER variable `{name}` used outside LDC (NV_parameter_buffer_object2 §2.X.3.6)"
                    ))),
                    (Var::Storage { .. }, _) => Err(self.invalid(format!(
                        "STORAGE variable `{name}` used outside LDB, STB and ATOMB (NV_shader_storage_buffer_object §2.X.3.7)"
                    ))),
                    (Var::Image { .. }, _) => Err(self.invalid(format!(
                        "IMAGE variable `{name}` used outside LOADIM, STOREIM and ATOMIM"
                    ))),
                    (Var::Addr(i), None) => Ok(Elem::Reg(File::Address, i)),
                    (Var::LongTemp { base } | Var::LongAttrib { base }, None) => {
                        Ok(Elem::Long(base))
                    }
                    (Var::LongTemp { base }, Some(Index::Abs(k))) => {
                        Ok(Elem::Long(base.saturating_add(k.saturating_mul(2))))
                    }
                    (Var::Temp { base }, None) => Ok(Elem::Reg(File::Temp, base)),
                    (Var::Temp { base }, Some(Index::Abs(k))) => {
                        Ok(Elem::Reg(File::Temp, base.saturating_add(*k)))
                    }
                    (Var::Elems(e), None) => e
                        .first()
                        .cloned()
                        .ok_or_else(|| self.invalid(format!("empty variable `{name}`"))),
                    (Var::Elems(e), Some(Index::Abs(k))) => {
                        e.get(*k as usize).cloned().ok_or_else(|| {
                            self.invalid(format!("index {k} out of bounds of `{name}`"))
                        })
                    }
                    (_, Some(Index::Rel(_))) => Err(self
                        .unsupported(format!("relative addressing of `{name}` (use resolve_rel)"))),
                    _ => Err(self.invalid(format!("bad index of `{name}`"))),
                }
            }
        }
    }

    /// Resolves `name[var.c + k]` to an indirect IR register when `name` is a TEMP array or
    /// an array of consecutive registers of one file (ARB_vertex_program §2.14.1.3;
    /// NV_gpu_program4 §2.X.4.2 "relative addressing"). An array of constants only
    /// (`PARAM arr[3] = { {..}, {..}, {..} };`) read as `ty` becomes consecutive IMMs.
    pub fn resolve_rel(
        &mut self,
        r: &VarRef,
        ty: Option<BaseType>,
    ) -> Result<Option<Register>, LowerError> {
        let VarRef::Var { name, index } = r else {
            return Ok(None);
        };
        let Some(Index::Rel(rel)) = index.first() else {
            return Ok(None);
        };
        let (file, base) = match self.vars.get(name).cloned() {
            Some(Var::Temp { base }) => (File::Temp, base),
            Some(Var::Elems(e)) => {
                let regs: Vec<(File, u32)> = e
                    .iter()
                    .filter_map(|x| match x {
                        Elem::Reg(f, i) => Some((*f, *i)),
                        Elem::Lit(_) | Elem::Long(_) => None,
                    })
                    .collect();
                let all_lit = e.iter().all(|x| matches!(x, Elem::Lit(_)));
                if let (true, Some(ty)) = (all_lit && !e.is_empty(), ty) {
                    let key = (name.clone(), ty);
                    let base = match self.lit_arrays.get(&key) {
                        Some(&b) => b,
                        None => {
                            let b = self.out.immediates.len() as u32;
                            for x in &e {
                                if let Elem::Lit(v) = x {
                                    let words = self.lit_words(v, ty)?;
                                    self.out.immediates.push(crate::program::Immediate {
                                        ty: ImmType::U32,
                                        words,
                                    });
                                }
                            }
                            self.lit_arrays.insert(key, b);
                            b
                        }
                    };
                    return self.indirect(File::Immediate, base, rel).map(Some);
                }
                let contiguous = regs.len() == e.len()
                    && !regs.is_empty()
                    && regs
                        .iter()
                        .enumerate()
                        .all(|(k, &(f, i))| f == regs[0].0 && i == regs[0].1 + k as u32);
                if !contiguous {
                    return Err(self.unsupported(format!(
                        "relative addressing of `{name}` (its elements are not consecutive bindings)"
                    )));
                }
                regs[0]
            }
            _ => return Err(self.unsupported(format!("relative addressing of `{name}`"))),
        };
        self.indirect(file, base, rel).map(Some)
    }

    /// `file[base + rel.var.c + rel.offset]` with the index variable's IR register.
    pub(super) fn indirect(
        &self,
        file: File,
        base: u32,
        rel: &ast::RelIndex,
    ) -> Result<Register, LowerError> {
        let (ifile, iidx) = match self.vars.get(&rel.var) {
            Some(Var::Addr(i)) => (File::Address, *i),
            Some(Var::Temp { base }) => (File::Temp, *base),
            _ => {
                return Err(self.unsupported(format!(
                    "relative index held in `{}` (only ADDRESS and TEMP variables)",
                    rel.var
                )))
            }
        };
        Ok(Register {
            file,
            index: ir::Index {
                value: (base as i32).wrapping_add(rel.offset),
                indirect: Some(ir::Indirect {
                    file: ifile,
                    index: iidx as i32,
                    component: rel.comp,
                }),
                array_id: 0,
            },
            dimension: None,
        })
    }

    /// The four words of literal components read as `ty` (missing y, z, w are 0, 0, 1,
    /// §2.X.4.2; integers from float literals are load errors).
    pub fn lit_words(&self, comps: &[SignedLit], ty: BaseType) -> Result<[u32; 4], LowerError> {
        let mut w = [0u32; 4];
        for (k, slot) in w.iter_mut().enumerate() {
            let default = if k == 3 { 1 } else { 0 };
            *slot = match comps.get(k) {
                Some(c) => self.lit_word(&c.lit, c.neg, ty)?,
                None => match ty {
                    BaseType::F => (default as f32).to_bits(),
                    _ => default,
                },
            };
        }
        Ok(w)
    }

    /// One literal as a word of type `ty`.
    pub fn lit_word(&self, lit: &ast::Literal, neg: bool, ty: BaseType) -> Result<u32, LowerError> {
        match (ty, lit) {
            (BaseType::F, l) => {
                let v = l.to_f32();
                Ok(if neg { -v } else { v }.to_bits())
            }
            (_, ast::Literal::Int { value, .. }) => {
                let v = *value as u32;
                if ty == BaseType::U && neg && v != 0 {
                    return Err(self.invalid(
                        "negative literal where an unsigned integer is required (§2.X.4.2)".into(),
                    ));
                }
                if *value > u32::MAX as u64 {
                    return Err(self.invalid(format!("integer literal {value} out of range")));
                }
                Ok(if neg { v.wrapping_neg() } else { v })
            }
            (_, ast::Literal::Float(t)) => Err(self.invalid(format!(
                "float literal {t} where an integer is required (§2.X.4.2)"
            ))),
        }
    }

    /// A register for a source base read as `ty` (literals become IMM).
    pub fn src_reg(&mut self, base: &SrcBase, ty: BaseType) -> Result<Register, LowerError> {
        match base {
            SrcBase::Scalar(l) => {
                let w = self.lit_word(l, false, ty)?;
                Ok(self.imm([w; 4]))
            }
            SrcBase::Vector(v) => {
                let w = self.lit_words(v, ty)?;
                Ok(self.imm(w))
            }
            SrcBase::Ref(r) => {
                if let Some(reg) = self.vertex_operand(r)? {
                    return Ok(reg);
                }
                if let Some(reg) = self.resolve_rel(r, Some(ty))? {
                    return Ok(reg);
                }
                match self.resolve(r)? {
                    Elem::Reg(f, i) => Ok(Register::new(f, i as i32)),
                    Elem::Lit(v) => {
                        let w = self.lit_words(&v, ty)?;
                        Ok(self.imm(w))
                    }
                    Elem::Long(_) => Err(self.long_as_32_bit(r)),
                }
            }
        }
    }

    /// The refusal of a 32-bit access to a `LONG TEMP` (NOTES.md §11: mixing 32- and 64-bit
    /// accesses to the same components reinterprets them, which the spec leaves undefined).
    pub fn long_as_32_bit(&self, r: &VarRef) -> LowerError {
        let name = match r {
            VarRef::Var { name, .. } => name.clone(),
            VarRef::Binding(b) => binding_text(b),
        };
        self.unsupported(format!(
            "32-bit access to the LONG variable `{name}` (reinterpreting 64-bit components is undefined, NOTES.md §11; use a 64-bit data type, PK64 or UP64)"
        ))
    }
}
