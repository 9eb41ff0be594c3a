// Keyed polynomial hashing over GF(2^61 - 1) (a Carter–Wegman universal hash family), two keys in one pass.
// Written for this project. See cpolyhash.h for what is computed.

#include "cpolyhash.h"
#include <string.h>

typedef unsigned __int128 u128;

#define PRIME TIPCAT_POLYHASH_PRIME
#define WORD_MASK ((uint64_t)0x00FFFFFFFFFFFFFFull)

// x < 2^125 folded to a value below 2^61 + 8 that is congruent to it mod 2^61 - 1 (2^61 ≡ 1).
static inline uint64_t fold(u128 x) {
    uint64_t low = (uint64_t)x & PRIME;
    uint64_t high = (uint64_t)(x >> 61);  // below 2^64 - 2^61
    uint64_t sum = low + high;            // below 2^64
    return (sum & PRIME) + (sum >> 61);
}

// a·b mod 2^61 - 1, not fully reduced (below 2^61 + 8); a, b below 2^63.
static inline uint64_t multiply(uint64_t a, uint64_t b) { return fold((u128)a * b); }

static inline uint64_t reduced(uint64_t x) {
    x = (x & PRIME) + (x >> 61);
    x = (x & PRIME) + (x >> 61);
    return x >= PRIME ? x - PRIME : x;
}

static inline uint64_t little_endian(uint64_t word) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return __builtin_bswap64(word);
#else
    return word;
#endif
}

// The 7-byte word at `p`, reading 8 bytes (the caller guarantees the eighth is inside the buffer).
static inline uint64_t word_at(const uint8_t *p) {
    uint64_t word;
    memcpy(&word, p, 8);
    return little_endian(word) & WORD_MASK;
}

// The word of the `length` (at most 7) bytes at `p`, zero-padded.
static inline uint64_t short_word_at(const uint8_t *p, size_t length) {
    uint64_t word = 0;
    memcpy(&word, p, length);
    return little_endian(word) & WORD_MASK;
}

void tipcat_polyhash(const uint8_t *bytes, size_t count, const uint64_t keys[2], uint64_t out[2]) {
    // Powers k^0 … k^8 of each key, fully reduced.
    uint64_t kp[9], lp[9];
    kp[0] = lp[0] = 1;
    for (int i = 1; i <= 8; i++) {
        kp[i] = reduced(multiply(kp[i - 1], keys[0]));
        lp[i] = reduced(multiply(lp[i - 1], keys[1]));
    }
    // Horner's rule eight words at a time: h·k^8 + m_0·k^7 + … + m_7, summed in 128 bits (each product below
    // 2^123, the sum below 2^124) and folded once.
    uint64_t h = 0, g = 0;
    size_t offset = 0;
    // A block reads 56 bytes as eight 8-byte loads, the last ending at offset + 57.
    while (offset + 57 <= count) {
        u128 x = (u128)h * kp[8], y = (u128)g * lp[8];
        for (int j = 0; j < 8; j++) {
            const uint64_t m = word_at(bytes + offset + 7 * j);
            x += (u128)m * kp[7 - j];
            y += (u128)m * lp[7 - j];
        }
        h = fold(x);
        g = fold(y);
        offset += 56;
    }
    // The remaining whole words, then the zero-padded last one, then the count.
    while (offset + 7 <= count) {
        const uint64_t m = short_word_at(bytes + offset, 7);
        h = multiply(h, keys[0]) + m;
        g = multiply(g, keys[1]) + m;
        offset += 7;
    }
    if (offset < count) {
        const uint64_t m = short_word_at(bytes + offset, count - offset);
        h = multiply(h, keys[0]) + m;
        g = multiply(g, keys[1]) + m;
    }
    const uint64_t length = (uint64_t)count & WORD_MASK;
    out[0] = reduced(multiply(h, keys[0]) + length);
    out[1] = reduced(multiply(g, keys[1]) + length);
}
