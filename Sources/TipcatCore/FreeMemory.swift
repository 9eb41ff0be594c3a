import CByteScan

/// Gives the memory the allocator holds free back to the system.
///
/// glibc's allocator keeps what a thread frees in that thread's arena, and returns pages to the system only from the
/// top of an arena: after a phase that makes and drops many buffers on every core (encoding a catalog's objects,
/// say) tens of megabytes stay resident though nothing uses them. A command calls this between such a phase and
/// the next, where a few milliseconds buy back what the next would otherwise add on top.
public enum FreeMemory {
    /// Returns the free pages of every arena (`malloc_trim`); nothing where the allocator has no such call.
    public static func giveBack() {
        _ = tipcat_give_back_free_memory()
    }

    /// Called once at start-up: requests below 32 MiB come from the arenas instead of mappings of their own, and the
    /// main arena grows 16 MiB at a time (glibc's `M_MMAP_THRESHOLD` and `M_TOP_PAD`; nothing elsewhere).
    public static func tuneAllocator() {
        tipcat_tune_allocator()
    }

    /// Called by a thread before it allocates much (each chunk of `concurrentChunks` does; it costs one check after
    /// the first call). glibc grows the arena of a thread other than the main one by exactly what each request
    /// lacks, one `mprotect` call each time: a publish at 20,000 tips made 16,000 of them. The thread's arena is
    /// made writable to 60 MiB in a call or two instead; no page of it becomes resident.
    @inline(__always)
    public static func primeThisThread() {
        tipcat_prime_thread_arena()
    }
}
