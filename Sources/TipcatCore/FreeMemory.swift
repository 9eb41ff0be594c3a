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
}
