/* SHA-256 block compression with the CPU's SHA instructions (see include/dayfold_sha256.h). */
#include "dayfold_sha256.h"
#include <stddef.h>
#include <stdint.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* SHA-256 compression of whole 64-byte blocks with the CPU's SHA
   instructions, one message or two side by side. One message is bound by
   the latency of the round instruction (each round pair waits for the last);
   a second, independent message fills those waits, so two files hash in
   little more than the time of one. Used for the manifest's input digests;
   the padding and the last partial block are left to OpenSSL. `state` is
   the eight working words h0..h7 of FIPS 180-4. */

#if defined(__x86_64__)
static const uint32_t dayfold_sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

#define DAYFOLD_SHA_TARGET __attribute__((target("sha,sse4.1,ssse3")))

/* The round instruction keeps the state as two vectors: lanes (3..0)
   A B E F and C D G H. */
DAYFOLD_SHA_TARGET static inline void dayfold_sha256_load(const uint32_t *state, __m128i *abef, __m128i *cdgh) {
    __m128i dcba = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(const void *)state), 0x1B);
    __m128i hgfe = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(const void *)(state + 4)), 0x1B);
    *abef = _mm_unpackhi_epi64(hgfe, dcba);
    *cdgh = _mm_unpacklo_epi64(hgfe, dcba);
}

DAYFOLD_SHA_TARGET static inline void dayfold_sha256_store(__m128i abef, __m128i cdgh, uint32_t *state) {
    _mm_storeu_si128((__m128i *)(void *)state, _mm_shuffle_epi32(_mm_unpackhi_epi64(cdgh, abef), 0x1B));
    _mm_storeu_si128((__m128i *)(void *)(state + 4), _mm_shuffle_epi32(_mm_unpacklo_epi64(cdgh, abef), 0x1B));
}

/* The 16 message words of a block, big-endian, as four vectors. */
DAYFOLD_SHA_TARGET static inline void dayfold_sha256_words(const uint8_t *block, __m128i w[4]) {
    const __m128i swap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
    for (int i = 0; i < 4; i++)
        w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(block + 16 * i)), swap);
}

/* Four rounds with message words `w` (rounds 4g..4g+3). */
DAYFOLD_SHA_TARGET static inline void dayfold_sha256_rounds4(__m128i *abef, __m128i *cdgh, __m128i w, int g) {
    __m128i m = _mm_add_epi32(w, _mm_loadu_si128((const __m128i *)(const void *)(dayfold_sha256_k + 4 * g)));
    *cdgh = _mm_sha256rnds2_epu32(*cdgh, *abef, m);
    *abef = _mm_sha256rnds2_epu32(*abef, *cdgh, _mm_shuffle_epi32(m, 0x0E));
}

/* Message words 4g..4g+3 from the four vectors before them (w0 oldest). */
DAYFOLD_SHA_TARGET static inline __m128i dayfold_sha256_next(__m128i w0, __m128i w1, __m128i w2, __m128i w3) {
    __m128i t = _mm_add_epi32(_mm_sha256msg1_epu32(w0, w1), _mm_alignr_epi8(w3, w2, 4));
    return _mm_sha256msg2_epu32(t, w3);
}

/* Rounds 16..63 of a block: twelve groups of four, each group's message
   words made from the four groups before it, written out so that the
   compiler keeps all four vectors in registers. */
#define DAYFOLD_SHA256_GROUPS(S0, S1, W0, W1, W2, W3, G)                                     \
    W0 = dayfold_sha256_next(W0, W1, W2, W3); dayfold_sha256_rounds4(&S0, &S1, W0, G);        \
    W1 = dayfold_sha256_next(W1, W2, W3, W0); dayfold_sha256_rounds4(&S0, &S1, W1, G + 1);    \
    W2 = dayfold_sha256_next(W2, W3, W0, W1); dayfold_sha256_rounds4(&S0, &S1, W2, G + 2);    \
    W3 = dayfold_sha256_next(W3, W0, W1, W2); dayfold_sha256_rounds4(&S0, &S1, W3, G + 3);

/* `blocks` blocks of `a` into `state`. */
DAYFOLD_SHA_TARGET static inline void dayfold_sha256_ni_one(uint32_t *state, const uint8_t *a, size_t blocks) {
    __m128i s0, s1;
    dayfold_sha256_load(state, &s0, &s1);
    for (size_t n = 0; n < blocks; n++) {
        __m128i v[4], s0in = s0, s1in = s1;
        dayfold_sha256_words(a + 64 * n, v);
        __m128i v0 = v[0], v1 = v[1], v2 = v[2], v3 = v[3];
        dayfold_sha256_rounds4(&s0, &s1, v0, 0);
        dayfold_sha256_rounds4(&s0, &s1, v1, 1);
        dayfold_sha256_rounds4(&s0, &s1, v2, 2);
        dayfold_sha256_rounds4(&s0, &s1, v3, 3);
        for (int g = 4; g < 16; g += 4) { DAYFOLD_SHA256_GROUPS(s0, s1, v0, v1, v2, v3, g) }
        s0 = _mm_add_epi32(s0, s0in);
        s1 = _mm_add_epi32(s1, s1in);
    }
    dayfold_sha256_store(s0, s1, state);
}

/* `blocks` blocks of `a` into `stateA` and as many of `b` into `stateB`,
   the two chains interleaved group by group. */
DAYFOLD_SHA_TARGET static inline void dayfold_sha256_ni_two(
    uint32_t *stateA, const uint8_t *a, uint32_t *stateB, const uint8_t *b, size_t blocks) {
    __m128i s0, s1, t0, t1;
    dayfold_sha256_load(stateA, &s0, &s1);
    dayfold_sha256_load(stateB, &t0, &t1);
    for (size_t n = 0; n < blocks; n++) {
        __m128i v[4], w[4], s0in = s0, s1in = s1, t0in = t0, t1in = t1;
        dayfold_sha256_words(a + 64 * n, v);
        dayfold_sha256_words(b + 64 * n, w);
        __m128i v0 = v[0], v1 = v[1], v2 = v[2], v3 = v[3];
        __m128i w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];
        dayfold_sha256_rounds4(&s0, &s1, v0, 0);
        dayfold_sha256_rounds4(&t0, &t1, w0, 0);
        dayfold_sha256_rounds4(&s0, &s1, v1, 1);
        dayfold_sha256_rounds4(&t0, &t1, w1, 1);
        dayfold_sha256_rounds4(&s0, &s1, v2, 2);
        dayfold_sha256_rounds4(&t0, &t1, w2, 2);
        dayfold_sha256_rounds4(&s0, &s1, v3, 3);
        dayfold_sha256_rounds4(&t0, &t1, w3, 3);
        for (int g = 4; g < 16; g += 4) {
            v0 = dayfold_sha256_next(v0, v1, v2, v3);
            w0 = dayfold_sha256_next(w0, w1, w2, w3);
            dayfold_sha256_rounds4(&s0, &s1, v0, g);
            dayfold_sha256_rounds4(&t0, &t1, w0, g);
            v1 = dayfold_sha256_next(v1, v2, v3, v0);
            w1 = dayfold_sha256_next(w1, w2, w3, w0);
            dayfold_sha256_rounds4(&s0, &s1, v1, g + 1);
            dayfold_sha256_rounds4(&t0, &t1, w1, g + 1);
            v2 = dayfold_sha256_next(v2, v3, v0, v1);
            w2 = dayfold_sha256_next(w2, w3, w0, w1);
            dayfold_sha256_rounds4(&s0, &s1, v2, g + 2);
            dayfold_sha256_rounds4(&t0, &t1, w2, g + 2);
            v3 = dayfold_sha256_next(v3, v0, v1, v2);
            w3 = dayfold_sha256_next(w3, w0, w1, w2);
            dayfold_sha256_rounds4(&s0, &s1, v3, g + 3);
            dayfold_sha256_rounds4(&t0, &t1, w3, g + 3);
        }
        s0 = _mm_add_epi32(s0, s0in);
        s1 = _mm_add_epi32(s1, s1in);
        t0 = _mm_add_epi32(t0, t0in);
        t1 = _mm_add_epi32(t1, t1in);
    }
    dayfold_sha256_store(s0, s1, stateA);
    dayfold_sha256_store(t0, t1, stateB);
}
#endif

/* Whether this CPU has the SHA instructions (and the SSE4.1 they are used with). */
int dayfold_sha256_ni_available(void) {
#if defined(__x86_64__)
    return __builtin_cpu_supports("sha") && __builtin_cpu_supports("sse4.1");
#else
    return 0;
#endif
}

/* Compresses `blocks` whole blocks of `a` (and of `b`, unless NULL) into
   their states. Call only when `dayfold_sha256_ni_available()`. */
void dayfold_sha256_blocks(
    uint32_t *stateA, const uint8_t *a, uint32_t *stateB, const uint8_t *b, size_t blocks) {
#if defined(__x86_64__)
    if (b)
        dayfold_sha256_ni_two(stateA, a, stateB, b, blocks);
    else
        dayfold_sha256_ni_one(stateA, a, blocks);
#else
    (void)stateA; (void)a; (void)stateB; (void)b; (void)blocks;
#endif
}
