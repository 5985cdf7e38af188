//! Cases of the faults modelled on reported compiler bugs (docs/faults.md "Catalogue"),
//! in the format of `cases()`: the program, the value the specification gives (cited per
//! case) and the value the miscompilation gives, worked out by hand from the fault's
//! one-line description.

use super::{f, Case, Vec4};

fn one(fault: &'static str, program: &'static str, correct: Vec4, faulty: Vec4) -> Case {
    Case {
        fault,
        program,
        input: vec![],
        correct: vec![correct],
        faulty: vec![faulty],
        killed: None,
        emitted: None,
    }
}

pub(super) fn cases() -> Vec<Case> {
    vec![
        // tgsi.rst FLR: floor(src); TRUNC rounds toward zero (trunc(-0.25) = -0.0).
        one(
            "flr-as-trunc",
            "VERT\nDCL OUT[0]\nIMM[0] FLT32 {-1.5, 1.5, -2.0, -0.25}\nFLR OUT[0], IMM[0]\nEND\n",
            f([-2.0, 1.0, -2.0, -1.0]),
            f([-1.0, 1.0, -2.0, -0.0]),
        ),
        // tgsi.rst LRP: src0 * src1 + (1 - src0) * src2 = 0.25*4 + 0.75*8 = 7.
        one(
            "lrp-swapped",
            "VERT\nDCL OUT[0]\nIMM[0] FLT32 {0.25, 0.25, 0.25, 0.25}\nIMM[1] FLT32 {4.0, 4.0, 4.0, 4.0}\n\
             IMM[2] FLT32 {8.0, 8.0, 8.0, 8.0}\nLRP OUT[0], IMM[0], IMM[1], IMM[2]\nEND\n",
            f([7.0; 4]),
            f([5.0; 4]),
        ),
        // tgsi.rst SUB: src0 - src1 = 5 - 2.
        one(
            "sub-operands-swapped",
            "VERT\nDCL OUT[0]\nIMM[0] FLT32 {5.0, 5.0, 5.0, 5.0}\nIMM[1] FLT32 {2.0, 2.0, 2.0, 2.0}\n\
             SUB OUT[0], IMM[0], IMM[1]\nEND\n",
            f([3.0; 4]),
            f([-3.0; 4]),
        ),
        // tgsi.rst USHR: logical shift, 0x80000000 >> 4 = 0x08000000 (ISHR: 0xF8000000).
        one(
            "ushr-arithmetic",
            "VERT\nDCL OUT[0]\nIMM[0] UINT32 {2147483648, 2147483648, 16, 2147483648}\n\
             IMM[1] UINT32 {4, 4, 4, 0}\nUSHR OUT[0], IMM[0], IMM[1]\nEND\n",
            [0x0800_0000, 0x0800_0000, 1, 0x8000_0000],
            [0xf800_0000, 0xf800_0000, 1, 0x8000_0000],
        ),
        // tgsi.rst IMAX: signed max(-1, 1) = 1 (UMAX: 0xffffffff).
        one(
            "imax-unsigned",
            "VERT\nDCL OUT[0]\nIMM[0] INT32 {-1, -1, 3, 3}\nIMM[1] INT32 {1, 1, 2, 2}\n\
             IMAX OUT[0].xz, IMM[0], IMM[1]\nIMIN OUT[0].yw, IMM[0], IMM[1]\nEND\n",
            [1, 0xffff_ffff, 3, 2],
            [0xffff_ffff, 1, 3, 2],
        ),
        // tgsi.rst U2F: unsigned 0x80000000 = 2^31 (I2F: -2^31).
        one(
            "u2f-signed",
            "VERT\nDCL OUT[0]\nIMM[0] UINT32 {2147483648, 1, 4294967295, 0}\nU2F OUT[0], IMM[0]\nEND\n",
            f([2147483648.0, 1.0, 4294967296.0, 0.0]),
            f([-2147483648.0, 1.0, -1.0, 0.0]),
        ),
        // tgsi.rst IMUL_HI: high word of the signed product -1 * 2 = -2: 0xffffffff
        // (UMUL_HI: 0xffffffff * 2 = 0x1_fffffffe, high word 1).
        one(
            "imul-hi-unsigned",
            "VERT\nDCL OUT[0]\nIMM[0] INT32 {-1, -1, 3, 3}\nIMM[1] INT32 {2, 2, 5, 5}\n\
             IMUL_HI OUT[0], IMM[0], IMM[1]\nEND\n",
            [0xffff_ffff, 0xffff_ffff, 0, 0],
            [1, 1, 0, 0],
        ),
        // tgsi.rst "Source Modifiers": absolute value first, then negate: -|x|.
        one(
            "neg-abs-drops-neg",
            "VERT\nDCL OUT[0]\nIMM[0] FLT32 {1.0, -2.0, 3.0, -4.0}\nIMM[1] FLT32 {0.0, 0.0, 0.0, 0.0}\n\
             ADD OUT[0], -|IMM[0]|, IMM[1]\nEND\n",
            f([-1.0, -2.0, -3.0, -4.0]),
            f([1.0, 2.0, 3.0, 4.0]),
        ),
        // tgsi.rst DPH: src0.x*src1.x + src0.y*src1.y + src0.z*src1.z + src1.w
        // = 1 + 2 + 3 + 10 (DP4: 1 + 2 + 3 + 4*10).
        one(
            "dph-as-dp4",
            "VERT\nDCL OUT[0]\nIMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}\nIMM[1] FLT32 {1.0, 1.0, 1.0, 10.0}\n\
             DPH OUT[0], IMM[0], IMM[1]\nEND\n",
            f([16.0; 4]),
            f([46.0; 4]),
        ),
        // tgsi.rst I64SHR: arithmetic shift of -16 (0xffffffff_fffffff0) by 2 = -4
        // (U64SHR: 0x3fffffff_fffffffc).
        one(
            "i64shr-logical",
            "VERT\nDCL OUT[0]\nIMM[0] UINT32 {4294967280, 4294967295, 0, 0}\nIMM[1] UINT32 {2, 2, 2, 2}\n\
             I64SHR OUT[0].xy, IMM[0].xyxy, IMM[1].xxxx\nEND\n",
            [0xffff_fffc, 0xffff_ffff, 0, 0],
            [0xffff_fffc, 0x3fff_ffff, 0, 0],
        ),
        // tgsi.rst U2I64: the unsigned 0x80000000 zero-extended (I2I64: sign-extended).
        one(
            "u2i64-sign-extends",
            "VERT\nDCL OUT[0]\nIMM[0] UINT32 {2147483648, 0, 0, 0}\nU2I64 OUT[0].xy, IMM[0].xxxx\nEND\n",
            [0x8000_0000, 0, 0, 0],
            [0x8000_0000, 0xffff_ffff, 0, 0],
        ),
        // tgsi.rst ATOMXCHG: `dst_x = resource[offset]; resource[offset] = src_x`: the
        // first exchange stores 7 and returns the old 0, the second stores 9 and returns
        // 7. Returning the stored value gives 9.
        one(
            "atomxchg-returns-new",
            "COMP\nDCL BUFFER[0]\nDCL OUT[0]\nDCL TEMP[0]\n\
             IMM[0] UINT32 {0, 7, 9, 0}\n\
             ATOMXCHG TEMP[0].x, BUFFER[0], IMM[0].xxxx, IMM[0].yyyy\n\
             ATOMXCHG OUT[0].x, BUFFER[0], IMM[0].xxxx, IMM[0].zzzz\nEND\n",
            [7, 0, 0, 0],
            [9, 0, 0, 0],
        ),
    ]
}
