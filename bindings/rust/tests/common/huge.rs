//! A huge read-only mapping for length-limit tests (tests/batch.rs, tests/siv.rs).

/// A read-only, never-backed anonymous mapping (`PROT_READ`, `MAP_NORESERVE`): reading it gives
/// zero pages, it costs no memory. Unmapped on drop.
pub struct Huge {
    ptr: *mut libc::c_void,
    len: usize,
}

impl Huge {
    /// The largest of 64, 32 or 16 TiB the address space gives us (a test failure if none).
    pub fn map() -> Huge {
        for shift in [46u32, 45, 44] {
            let len = 1usize << shift;
            // SAFETY: a fresh anonymous mapping; nothing else refers to it.
            let ptr = unsafe {
                libc::mmap(
                    core::ptr::null_mut(),
                    len,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                    -1,
                    0,
                )
            };
            if ptr != libc::MAP_FAILED {
                return Huge { ptr, len };
            }
        }
        panic!("no 16 TiB read-only mapping: {}", std::io::Error::last_os_error());
    }

    pub fn bytes(&self) -> &[u8] {
        // SAFETY: the mapping is readable for `len` bytes while self lives, and never written.
        unsafe { core::slice::from_raw_parts(self.ptr.cast::<u8>(), self.len) }
    }
}

impl Drop for Huge {
    fn drop(&mut self) {
        // SAFETY: our own mapping, unmapped once.
        unsafe { libc::munmap(self.ptr, self.len) };
    }
}
