#ifndef TIPCAT_CSHA256_H
#define TIPCAT_CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// SHA-256's 64 round constants (FIPS 180-4, 4.2.2), for the Swift compression too.
const uint32_t *tipcat_sha256_round_constants(void);

/// 1 when this processor has the SHA-256 instructions (x86-64 SHA extensions with SSSE3 and SSE4.1), else 0.
int tipcat_sha256_hardware_available(void);

/// Runs the SHA-256 compression function over `count` 64-byte blocks at `blocks`, updating `state` (the eight
/// working words, a first). Call only when `tipcat_sha256_hardware_available()` is 1.
void tipcat_sha256_hardware_compress(uint32_t state[8], const uint8_t *blocks, size_t count);

#endif
