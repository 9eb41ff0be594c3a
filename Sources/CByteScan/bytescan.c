// Byte scans over large buffers: newlines for a file's line index, and the extent of a JSON container for
// deferred parsing. Sixteen bytes at a time with SSE2 (a mask of the bytes that matter, then its set bits in
// order); the same state machine byte by byte for the tail and on other machines. Written for this project.

// `sync_file_range` is a GNU extension of <fcntl.h>.
#define _GNU_SOURCE
#include "cbytescan.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

size_t tipcat_count_newlines(const uint8_t *bytes, size_t count) {
    size_t total = 0, index = 0;
#if defined(__SSE2__)
    const __m128i newline = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
    while (index + 16 <= count) {
        // Up to 255 blocks counted per byte lane (a match is -1: subtracted), then the lanes summed.
        __m128i lanes = zero;
        for (int blocks = 0; blocks < 255 && index + 16 <= count; blocks++, index += 16) {
            __m128i block = _mm_loadu_si128((const __m128i *)(bytes + index));
            lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(block, newline));
        }
        __m128i sums = _mm_sad_epu8(lanes, zero);
        total += (size_t)_mm_cvtsi128_si32(sums) + (size_t)_mm_extract_epi16(sums, 4);
    }
#endif
    for (; index < count; index++) total += bytes[index] == '\n';
    return total;
}

// The body of `tipcat_line_starts` and `tipcat_line_starts32`, which differ only in the type of `starts`.
#if defined(__SSE2__)
#define TIPCAT_LINE_STARTS_BODY(start_type)                                           \
    size_t written = 0, index = 0, line_start = 0, longest_line = 0;                  \
    const __m128i newline = _mm_set1_epi8('\n');                                      \
    for (; index + 16 <= count; index += 16) {                                        \
        __m128i block = _mm_loadu_si128((const __m128i *)(bytes + index));            \
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(block, newline));  \
        while (mask != 0) {                                                           \
            size_t at = index + (size_t)__builtin_ctz(mask);                          \
            if (at - line_start > longest_line) longest_line = at - line_start;       \
            line_start = at + 1;                                                      \
            if (written < capacity) starts[written++] = (start_type)line_start;       \
            mask &= mask - 1;                                                         \
        }                                                                             \
    }                                                                                 \
    TIPCAT_LINE_STARTS_TAIL(start_type)
#else
#define TIPCAT_LINE_STARTS_BODY(start_type)                                           \
    size_t written = 0, index = 0, line_start = 0, longest_line = 0;                  \
    TIPCAT_LINE_STARTS_TAIL(start_type)
#endif
#define TIPCAT_LINE_STARTS_TAIL(start_type)                                           \
    for (; index < count; index++) {                                                  \
        if (bytes[index] != '\n') continue;                                           \
        if (index - line_start > longest_line) longest_line = index - line_start;     \
        line_start = index + 1;                                                       \
        if (written < capacity) starts[written++] = (start_type)line_start;           \
    }                                                                                 \
    if (count - line_start > longest_line) longest_line = count - line_start;         \
    *longest = longest_line;                                                          \
    return written;

size_t tipcat_line_starts(const uint8_t *bytes, size_t count, intptr_t *starts, size_t capacity, size_t *longest) {
    TIPCAT_LINE_STARTS_BODY(intptr_t)
}

size_t tipcat_line_starts32(const uint8_t *bytes, size_t count, uint32_t *starts, size_t capacity, size_t *longest) {
    TIPCAT_LINE_STARTS_BODY(uint32_t)
}

/// The scanner's state between bytes that matter.
struct container_scan {
    int64_t depth;
    int in_string;
    int64_t skip_before; // a byte before this offset was escaped (or already seen): ignored
};

/// Returns the end (past the closing bracket) when `byte` at `position` closes the container, else 0.
static inline int64_t container_step(struct container_scan *scan, uint8_t byte, int64_t position) {
    if (position < scan->skip_before) return 0;
    if (scan->in_string) {
        if (byte == '\\') scan->skip_before = position + 2;
        else if (byte == '"') scan->in_string = 0;
        return 0;
    }
    switch (byte) {
    case '"': scan->in_string = 1; break;
    case '{': case '[': scan->depth += 1; break;
    case '}': case ']':
        scan->depth -= 1;
        if (scan->depth == 0) return position + 1;
        break;
    default: break;
    }
    return 0;
}

int64_t tipcat_json_end_of_container(const uint8_t *bytes, int64_t offset, int64_t end) {
    struct container_scan scan = {0, 0, 0};
    int64_t index = offset;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    const __m128i open_brace = _mm_set1_epi8('{'), close_brace = _mm_set1_epi8('}');
    const __m128i open_bracket = _mm_set1_epi8('['), close_bracket = _mm_set1_epi8(']');
    for (; index + 16 <= end; index += 16) {
        __m128i block = _mm_loadu_si128((const __m128i *)(bytes + index));
        __m128i strings = _mm_or_si128(_mm_cmpeq_epi8(block, quote), _mm_cmpeq_epi8(block, backslash));
        __m128i brackets = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(block, open_brace), _mm_cmpeq_epi8(block, close_brace)),
                                        _mm_or_si128(_mm_cmpeq_epi8(block, open_bracket), _mm_cmpeq_epi8(block, close_bracket)));
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_or_si128(strings, brackets));
        while (mask != 0) {
            int64_t position = index + __builtin_ctz(mask);
            mask &= mask - 1;
            int64_t found = container_step(&scan, bytes[position], position);
            if (found) return found;
        }
    }
#endif
    for (; index < end; index++) {
        int64_t found = container_step(&scan, bytes[index], index);
        if (found) return found;
    }
    return scan.in_string ? -1 : -2;
}

#if defined(__GLIBC__)
#include <malloc.h>
#endif

void tipcat_tune_allocator(void) {
#if defined(__GLIBC__)
    // Requests below 32 MiB come from the arenas (reused, their pages already there) rather than each from a mapping
    // of its own (faulted in again every time); the main arena grows 16 MiB at a time rather than by each request.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TOP_PAD, 16 << 20);
#endif
}

#if defined(__GLIBC__)
static __thread int tipcat_arena_primed;
#endif

void tipcat_prime_thread_arena(void) {
#if defined(__GLIBC__)
    if (tipcat_arena_primed) return;
    tipcat_arena_primed = 1;
    // A thread's arena (not the main one) grows by what each request lacks, making the new part writable with one
    // mprotect call each time: tens of thousands of calls in a load on every core. One large block, freed at
    // once, makes its whole size writable in a call or two; the pages are given back when it is freed (nothing was
    // written there but its header), and later growth up to that size needs no call.
    // Two blocks below the mapping threshold fill the arena's first heap (64 MiB at most).
    // Held through volatile pointers: a compiler may otherwise drop an allocation that is freed unused.
    void *volatile first = malloc(30 << 20);
    void *volatile second = malloc(30 << 20);
    free(second);
    free(first);
#endif
}

int tipcat_give_back_free_memory(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}

#if defined(__linux__)
#include <fcntl.h>
#endif

int tipcat_start_writeback(int descriptor) {
#if defined(__linux__) && defined(SYNC_FILE_RANGE_WRITE)
    return sync_file_range(descriptor, 0, 0, SYNC_FILE_RANGE_WRITE);
#else
    (void)descriptor;
    return -1;
#endif
}
