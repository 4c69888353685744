#pragma once
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
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
