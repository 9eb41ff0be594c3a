// Byte scans over large buffers, sixteen bytes at a time where the machine has SSE2 (every x86-64), one byte at a
// time elsewhere. Written for this project.
#ifndef CBYTESCAN_H
#define CBYTESCAN_H

#include <stddef.h>
#include <stdint.h>

/// The number of '\n' bytes in `bytes[0..<count]`.
size_t tipcat_count_newlines(const uint8_t *bytes, size_t count);

/// Writes `offset of each '\n' + 1`, in order, to `starts` (room for `capacity` values; the count of newlines is
/// enough) and returns how many it wrote. `*longest` is set to the longest line's length in bytes, the last line
/// (after the last newline) included.
size_t tipcat_line_starts(const uint8_t *bytes, size_t count, intptr_t *starts, size_t capacity, size_t *longest);

/// `tipcat_line_starts` into 32-bit offsets, for `count` below 2^32.
size_t tipcat_line_starts32(const uint8_t *bytes, size_t count, uint32_t *starts, size_t capacity, size_t *longest);

/// Just past the bracket that closes the JSON array or object whose opening bracket is at `offset`, counting
/// brackets outside strings (a backslash in a string escapes the byte after it; nothing else is checked).
/// -1 when a string is not terminated before `end`, -2 when the container is not closed before `end`.
int64_t tipcat_json_end_of_container(const uint8_t *bytes, int64_t offset, int64_t end);

/// Gives the allocator's free pages back to the system (glibc's `malloc_trim(0)`); 0 where there is no such call.
int tipcat_give_back_free_memory(void);

/// Sets the allocator up for a process that allocates hundreds of megabytes on every core (glibc only): see
/// `FreeMemory.tuneAllocator()`.
void tipcat_tune_allocator(void);

/// Makes the calling thread's arena writable in one step, once per thread (glibc only): see
/// `FreeMemory.primeThisThread()`.
void tipcat_prime_thread_arena(void);

/// Starts writing the file's dirty pages to its device and returns without waiting for them (Linux's
/// `sync_file_range` with `SYNC_FILE_RANGE_WRITE`): a later fsync of the file then waits only for what is left. 0, or
/// -1 where there is no such call or it fails; it changes no data and promises no durability.
int tipcat_start_writeback(int descriptor);

#endif
