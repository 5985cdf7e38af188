//! NV / ARB programs lowered to the shared IR run on every engine (oracle first) and give the
//! values worked out by hand in ../shared/spec/nv/NOTES.md §16 (expected values are copied
//! from the notes' tables, not from any engine's output).

mod atomic_loops;
mod atomics64;
mod atomics64_contended;
mod branches;
mod cc;
mod cc_table;
mod examples;
mod faults;
mod faults_more;
mod geometry;
mod images;
mod long_attrib;
mod memory;
mod ops;
mod refusals;
mod robust;
mod subroutines;
mod support;
mod table_x13;
mod table_x13_f16;
mod table_x13_float;
mod table_x13_sat;
mod table_x13_wide;
mod tex_gather;
mod tex_lod_ms;
mod tex_offsets;
mod tex_shadowcube;
mod tex_txd;
mod textures;
mod undefined_start;
mod votes;
