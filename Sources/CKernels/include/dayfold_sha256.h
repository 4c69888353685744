#pragma once
#include <stddef.h>
#include <stdint.h>

/* SHA-256 compression of whole 64-byte blocks with the CPU's SHA
   instructions, one message or two side by side (a second, independent
   message fills the latency waits of the first). `state` is the eight
   working words h0..h7 of FIPS 180-4; padding is the caller's. */

/* Whether this CPU has the SHA instructions (and the SSE4.1 they are used with). */
int dayfold_sha256_ni_available(void);

/* Compresses `blocks` whole blocks of `a` (and of `b`, unless NULL) into
   their states. Call only when `dayfold_sha256_ni_available()`. */
void dayfold_sha256_blocks(uint32_t *stateA, const uint8_t *a, uint32_t *stateB, const uint8_t *b, size_t blocks);
