#pragma once
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* The bytes a CSV scan stops at, in one 64-byte block of `p`, as bit masks
   (bit i for byte p[i]): `unquoted` marks , CR LF and non-ASCII bytes (where
   an unquoted field may end or a UTF-8 sequence needs checking); `quoted`
   marks " LF and non-ASCII bytes (what a quoted field's scan must look at).
   One call classifies 64 bytes with 16-byte compares, so the tokenizer finds
   the next stop with a shift and a bit count instead of testing bytes. */
static inline void dayfold_csv_marks64(const unsigned char *p, uint64_t *unquoted, uint64_t *quoted) {
    uint64_t u = 0, q = 0;
#if defined(__SSE2__)
    const __m128i comma = _mm_set1_epi8(','), dquote = _mm_set1_epi8('"');
    const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
    for (int k = 0; k < 4; k++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
        __m128i isLF = _mm_cmpeq_epi8(v, lf);
        uint64_t high = (uint32_t)_mm_movemask_epi8(v);
        __m128i ends = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, comma), _mm_cmpeq_epi8(v, cr)), isLF);
        __m128i quotes = _mm_or_si128(_mm_cmpeq_epi8(v, dquote), isLF);
        u |= ((uint64_t)(uint32_t)_mm_movemask_epi8(ends) | high) << (16 * k);
        q |= ((uint64_t)(uint32_t)_mm_movemask_epi8(quotes) | high) << (16 * k);
    }
#else
    for (int i = 0; i < 64; i++) {
        unsigned char c = p[i];
        uint64_t bit = (uint64_t)1 << i;
        if (c == ',' || c == '\r' || c == '\n' || c >= 0x80) u |= bit;
        if (c == '"' || c == '\n' || c >= 0x80) q |= bit;
    }
#endif
    *unquoted = u;
    *quoted = q;
}

#if defined(__x86_64__)
/* dayfold_csv_marks64 with 32-byte compares: half the instructions of the
   16-byte ones (the marks are about a third of the plain-record scan). Call
   only when dayfold_csv_wide_available(). */
__attribute__((target("avx2"))) static inline void dayfold_csv_marks64_wide(
    const unsigned char *p, uint64_t *unquoted, uint64_t *quoted) {
    const __m256i comma = _mm256_set1_epi8(','), dquote = _mm256_set1_epi8('"');
    const __m256i lf = _mm256_set1_epi8('\n'), cr = _mm256_set1_epi8('\r');
    uint64_t u = 0, q = 0;
    for (int k = 0; k < 2; k++) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32 * k));
        __m256i isLF = _mm256_cmpeq_epi8(v, lf);
        uint64_t high = (uint32_t)_mm256_movemask_epi8(v);
        __m256i ends = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, comma), _mm256_cmpeq_epi8(v, cr)), isLF);
        __m256i quotes = _mm256_or_si256(_mm256_cmpeq_epi8(v, dquote), isLF);
        u |= ((uint64_t)(uint32_t)_mm256_movemask_epi8(ends) | high) << (32 * k);
        q |= ((uint64_t)(uint32_t)_mm256_movemask_epi8(quotes) | high) << (32 * k);
    }
    *unquoted = u;
    *quoted = q;
}
#endif

/* Whether the CPU runs dayfold_csv_marks64_wide (AVX2). */
static inline int dayfold_csv_wide_available(void) {
#if defined(__x86_64__)
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}
