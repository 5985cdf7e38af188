//! The virgl command stream (what `VCMD_SUBMIT_CMD` carries): 32-bit little-endian words,
//! each command a header word `cmd | object << 8 | length << 16` (length in words, header
//! excluded) followed by its payload. Only the commands this engine sends are encoded.
//!
//! Wire format: virglrenderer's `virgl_protocol.h` (command numbers, payload layouts) and
//! `vrend_decode.c` (how the host reads them); written from those descriptions.

/// `VIRGL_CCMD_*` command numbers (their order in `enum virgl_context_cmd`).
mod cmd {
    pub const CREATE_OBJECT: u32 = 1;
    pub const DESTROY_OBJECT: u32 = 3;
    pub const SET_CONSTANT_BUFFER: u32 = 12;
    pub const BIND_SHADER: u32 = 31;
    pub const SET_SHADER_BUFFERS: u32 = 34;
    pub const MEMORY_BARRIER: u32 = 36;
    pub const LAUNCH_GRID: u32 = 37;
}

/// `VIRGL_OBJECT_SHADER`.
const OBJECT_SHADER: u32 = 4;
/// `PIPE_SHADER_COMPUTE`.
pub const SHADER_COMPUTE: u32 = 5;
/// The most payload words one command can carry (16-bit length field).
pub const MAX_PAYLOAD: usize = 0xffff;

/// A command buffer under construction.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandBuffer {
    words: Vec<u32>,
}

fn header(cmd: u32, object: u32, len: usize) -> u32 {
    debug_assert!(len <= MAX_PAYLOAD);
    cmd | object << 8 | (len as u32) << 16
}

impl CommandBuffer {
    /// An empty buffer.
    pub fn new() -> CommandBuffer {
        CommandBuffer::default()
    }

    /// The encoded words.
    pub fn words(&self) -> &[u32] {
        &self.words
    }

    fn push(&mut self, cmd: u32, object: u32, payload: &[u32]) {
        self.words.push(header(cmd, object, payload.len()));
        self.words.extend_from_slice(payload);
    }

    /// `CREATE_OBJECT` of a shader of type `stage` (`PIPE_SHADER_*`) from TGSI `text`,
    /// as object `handle`. Payload: handle, type, text length in bytes with its NUL
    /// (`VIRGL_OBJ_SHADER_OFFSET`, no continuation), the token count the host allocates
    /// for parsing, then (compute) the shared memory size or (other stages) the number
    /// of stream-output entries, then the NUL-terminated text padded to whole words.
    ///
    /// Errors: the text does not fit one command (the engine sends no continuations).
    pub fn create_shader(&mut self, handle: u32, stage: u32, text: &str) -> Result<(), String> {
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(0);
        let len = bytes.len();
        bytes.resize(len.div_ceil(4) * 4, 0);
        let text_words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if text_words.len() + 5 > MAX_PAYLOAD {
            return Err(format!(
                "the shader text is {len} bytes; one CREATE_OBJECT carries at most {} bytes",
                (MAX_PAYLOAD - 5) * 4
            ));
        }
        let mut payload = vec![handle, stage, len as u32, token_budget(text), 0];
        payload.extend(text_words);
        self.push(cmd::CREATE_OBJECT, OBJECT_SHADER, &payload);
        Ok(())
    }

    /// `DESTROY_OBJECT` of shader `handle`.
    pub fn destroy_shader(&mut self, handle: u32) {
        self.push(cmd::DESTROY_OBJECT, OBJECT_SHADER, &[handle]);
    }

    /// `BIND_SHADER`: shader `handle` becomes the `stage` shader.
    pub fn bind_shader(&mut self, handle: u32, stage: u32) {
        self.push(cmd::BIND_SHADER, 0, &[handle, stage]);
    }

    /// `SET_CONSTANT_BUFFER`: the `CONST[]` values of `stage`, four words per register.
    pub fn set_constants(&mut self, stage: u32, words: &[u32]) {
        let mut payload = vec![stage, 0];
        payload.extend_from_slice(words);
        self.push(cmd::SET_CONSTANT_BUFFER, 0, &payload);
    }

    /// `SET_SHADER_BUFFERS`: binds `buffers` (resource handle, byte offset, size in bytes)
    /// to `BUFFER[0..]` of `stage`. Offsets must be multiples of the host's
    /// `shader_buffer_offset_alignment` (at most 256 on GL hosts).
    pub fn set_shader_buffers(&mut self, stage: u32, buffers: &[(u32, u32, u32)]) {
        let mut payload = vec![stage, 0];
        for &(handle, offset, size) in buffers {
            payload.extend([offset, size, handle]);
        }
        self.push(cmd::SET_SHADER_BUFFERS, 0, &payload);
    }

    /// `LAUNCH_GRID` of the bound compute shader: `block` threads per group, `grid`
    /// groups, no indirect buffer.
    pub fn launch_grid(&mut self, block: [u32; 3], grid: [u32; 3]) {
        let mut payload = Vec::with_capacity(8);
        payload.extend(block);
        payload.extend(grid);
        payload.extend([0, 0]);
        self.push(cmd::LAUNCH_GRID, 0, &payload);
    }

    /// `MEMORY_BARRIER` with every `PIPE_BARRIER_*` bit: the host's buffer reads that
    /// follow see the shader's stores.
    pub fn memory_barrier(&mut self) {
        self.push(cmd::MEMORY_BARRIER, 0, &[u32::MAX]);
    }
}

/// How many TGSI tokens the host should allocate to parse `text`: every token takes at
/// least two characters of text (a one-letter name and a separator), so half the length
/// plus a margin always suffices. The host sizes its parse buffer from this count and
/// rejects the shader when it is too small.
pub fn token_budget(text: &str) -> u32 {
    (text.len() / 2 + 256) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_pack_command_object_and_length() {
        let mut c = CommandBuffer::new();
        c.bind_shader(7, SHADER_COMPUTE);
        assert_eq!(c.words(), &[31 | 2 << 16, 7, 5]);
        let mut c = CommandBuffer::new();
        c.launch_grid([64, 1, 1], [3, 1, 1]);
        assert_eq!(c.words()[0], 37 | 8 << 16);
        assert_eq!(&c.words()[1..], &[64, 1, 1, 3, 1, 1, 0, 0]);
    }

    #[test]
    fn shader_text_is_nul_terminated_and_padded() {
        let mut c = CommandBuffer::new();
        c.create_shader(3, SHADER_COMPUTE, "COMP\nEND\n").unwrap();
        let w = c.words();
        // 10 bytes of text with its NUL: 3 words; header fields: 5 words.
        assert_eq!(w[0], 1 | 4 << 8 | 8 << 16);
        assert_eq!(&w[1..4], &[3, 5, 10]);
        assert_eq!(w[5], 0);
        let bytes: Vec<u8> = w[6..].iter().flat_map(|x| x.to_le_bytes()).collect();
        assert_eq!(&bytes[..10], b"COMP\nEND\n\0");
        assert_eq!(&bytes[10..], &[0, 0]);
    }

    #[test]
    fn oversized_shaders_are_refused() {
        let text = "x".repeat(MAX_PAYLOAD * 4);
        assert!(CommandBuffer::new()
            .create_shader(1, SHADER_COMPUTE, &text)
            .is_err());
    }
}
