#ifndef TIPCAT_CPOLYHASH_H
#define TIPCAT_CPOLYHASH_H

#include <stddef.h>
#include <stdint.h>

/// The prime 2^61 - 1, the field the polynomial hash works in.
#define TIPCAT_POLYHASH_PRIME ((uint64_t)0x1FFFFFFFFFFFFFFFull)

/// Two keyed polynomial hashes of `count` bytes at `bytes` over GF(2^61 - 1), one per key (each key in
/// [1, 2^61 - 2]), written to `out[0]` and `out[1]` (each in [0, 2^61 - 2]).
///
/// The bytes are read as little-endian 7-byte words m_1 … m_n (the last one zero-padded), followed by the
/// byte count as a last word m_{n+1}; the hash under key k is m_1·k^n + m_2·k^(n-1) + … + m_{n+1}, mod 2^61 - 1.
/// Two different inputs of at most L bytes collide under a key drawn at random with probability at most
/// (L/7 + 2) / (2^61 - 1) (a nonzero polynomial of that degree has no more roots), so at most its square under
/// two independent keys — when the inputs do not depend on the keys.
void tipcat_polyhash(const uint8_t *bytes, size_t count, const uint64_t keys[2], uint64_t out[2]);

#endif
