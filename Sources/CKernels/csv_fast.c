/* The C loop for plain CSV records (see include/dayfold_csv_fast.h). */
#include "dayfold_csv_fast.h"

/* First index >= i whose bit is set in the block masks (`quoted` picks the
   mask), or -1 when that would need a block past `end`. `wide`: the masks
   are made with AVX2 (a constant in each caller below). */
__attribute__((always_inline)) static inline int64_t dayfold_csv_next_stop(
    const unsigned char *p, int64_t i, int64_t end, int quoted, dayfold_csv_block *cached, int wide) {
    for (;;) {
        int64_t block = i & ~(int64_t)63;
        if (block + 64 > end) return -1;
        if (block != cached->block) {
#if defined(__x86_64__)
            if (wide)
                dayfold_csv_marks64_wide(p + block, &cached->unquoted, &cached->quoted);
            else
#endif
                dayfold_csv_marks64(p + block, &cached->unquoted, &cached->quoted);
            cached->block = block;
        }
        uint64_t bits = (quoted ? cached->quoted : cached->unquoted) >> (i - block);
        if (bits) return i + __builtin_ctzll(bits);
        i = block + 64;
    }
}

/* Length of the UTF-8 sequence at p[i] (a non-ASCII byte) when it is valid
   and ends before `end`; 0 otherwise (the general reader then reports it, or
   waits for the rest of it). The same rules as its check (LibCSVParser). */
__attribute__((always_inline)) static inline int64_t dayfold_csv_utf8_length(
    const unsigned char *p, int64_t i, int64_t end) {
    unsigned char lead = p[i];
    int64_t length;
    if ((lead & 0xE0) == 0xC0 && lead >= 0xC2)
        length = 2;
    else if ((lead & 0xF0) == 0xE0)
        length = 3;
    else if ((lead & 0xF8) == 0xF0 && lead <= 0xF4)
        length = 4;
    else
        return 0;
    if (i + length > end) return 0;
    for (int64_t k = 1; k < length; k++)
        if ((p[i + k] & 0xC0) != 0x80) return 0;
    unsigned char second = p[i + 1];
    if (length == 3 && ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second >= 0xA0))) return 0;
    if (length == 4 && ((lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second >= 0x90))) return 0;
    return length;
}

/* Takes the complete *plain* records of p[pos..end): records of valid
   UTF-8 ended by LF or CR LF, whose fields are unquoted (ended by `,` or the
   line break) or quoted with `""` for a quote inside, the closing quote
   followed by `,` or the line break, and no LF inside quotes. That is
   nearly every row of an export (CRLF ones too), and for those the general
   reader's reading is exactly this one. Stops before the first record that
   is anything else (a CR run or a CR not before LF, an invalid or cut UTF-8
   sequence, a blank line, a quote followed by other data, a line break
   inside quotes), that the buffer does not hold whole (or whose last block
   reaches past `end`: blocks are classified 64 bytes at a time), or that
   would overflow `out`; the general reader (libcsv) takes it from there.
   Returns the position after the last record taken. */
__attribute__((always_inline)) static inline int64_t dayfold_csv_fast_records_with(
    const unsigned char *p, int64_t pos, int64_t end, dayfold_csv_fast_out *out, int wide) {
    dayfold_csv_block cached = {-1, 0, 0};
    int64_t fields = 0, records = 0, escaped = 0;
    /* Everything the loop uses in locals, and the output arrays declared
       unaliased: otherwise each store of an offset makes the compiler load
       the capacities and the cached block again. */
    int64_t *__restrict starts = out->field_starts;
    int64_t *__restrict ends = out->field_ends;
    int64_t *__restrict record_field_ends = out->record_field_ends;
    int64_t *__restrict record_starts = out->record_starts;
    int64_t *__restrict record_raw_ends = out->record_raw_ends;
    int64_t *__restrict escaped_fields = out->escaped;
    const int64_t field_capacity = out->field_capacity;
    const int64_t record_capacity = out->record_capacity;
    const int64_t escaped_capacity = out->escaped_capacity;
    while (records < record_capacity) {
        int64_t record_start = pos;
        int64_t record_fields = fields, record_escaped = escaped;
        if (pos >= end || p[pos] == '\n' || p[pos] == '\r') break;
        int64_t field_start = pos;
        int64_t raw_end = -1, next = -1;
        for (;;) {
            if (fields == field_capacity) goto stop;
            if (p[field_start] != '"') {
                int64_t i = field_start;
                unsigned char byte;
                for (;;) {
                    i = dayfold_csv_next_stop(p, i, end, 0, &cached, wide);
                    if (i < 0) goto stop;
                    byte = p[i];
                    if (byte < 0x80) break;
                    int64_t length = dayfold_csv_utf8_length(p, i, end);
                    if (!length) goto stop;
                    i += length;
                }
                starts[fields] = field_start;
                ends[fields] = i;
                if (byte == ',') {
                    fields++;
                    field_start = i + 1;
                    if (field_start >= end) goto stop;
                    continue;
                }
                if (byte == '\r') {
                    if (i + 1 >= end || p[i + 1] != '\n') goto stop;
                    next = i + 2;
                } else {
                    next = i + 1;
                }
                fields++;
                raw_end = i; /* the line break */
                break;
            }
            int64_t content = field_start + 1;
            int64_t i = content;
            int doubled = 0;
            unsigned char following;
            for (;;) {
                i = dayfold_csv_next_stop(p, i, end, 1, &cached, wide);
                if (i < 0) goto stop;
                if (p[i] >= 0x80) {
                    int64_t length = dayfold_csv_utf8_length(p, i, end);
                    if (!length) goto stop;
                    i += length;
                    continue;
                }
                if (p[i] != '"' || i + 1 >= end) goto stop; /* LF, or the end */
                following = p[i + 1];
                if (following != '"') break;
                doubled = 1;
                i += 2;
            }
            if (following == '\r') {
                if (i + 2 >= end || p[i + 2] != '\n') goto stop;
            } else if (following != ',' && following != '\n') {
                goto stop;
            }
            if (doubled) {
                if (escaped == escaped_capacity) goto stop;
                escaped_fields[escaped++] = fields;
            }
            starts[fields] = content;
            ends[fields] = i;
            fields++;
            if (following != ',') {
                raw_end = i + 1; /* the line break: the raw text keeps the closing quote */
                next = following == '\r' ? i + 3 : i + 2;
                break;
            }
            field_start = i + 2;
            if (field_start >= end) goto stop;
        }
        record_field_ends[records] = fields;
        record_starts[records] = record_start;
        record_raw_ends[records] = raw_end;
        records++;
        pos = next; /* past the line break */
        continue;
    stop:
        fields = record_fields;
        escaped = record_escaped;
        pos = record_start;
        break;
    }
    out->field_count = fields;
    out->record_count = records;
    out->escaped_count = escaped;
    return pos;
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static int64_t dayfold_csv_fast_records_wide(
    const unsigned char *p, int64_t pos, int64_t end, dayfold_csv_fast_out *out) {
    return dayfold_csv_fast_records_with(p, pos, end, out, 1);
}
#endif

static int64_t dayfold_csv_fast_records_narrow(
    const unsigned char *p, int64_t pos, int64_t end, dayfold_csv_fast_out *out) {
    return dayfold_csv_fast_records_with(p, pos, end, out, 0);
}

/* dayfold_csv_fast_records_with, its masks made with AVX2 when the CPU has it
   (`wide` 1: ask dayfold_csv_wide_available() once and pass its answer; 0:
   16-byte compares, as tests may force). */
int64_t dayfold_csv_fast_records(
    const unsigned char *p, int64_t pos, int64_t end, dayfold_csv_fast_out *out, int wide) {
#if defined(__x86_64__)
    if (wide) return dayfold_csv_fast_records_wide(p, pos, end, out);
#endif
    return dayfold_csv_fast_records_narrow(p, pos, end, out);
}

int64_t dayfold_csv_next_break(const unsigned char *p, int64_t i, int64_t end) {
#if defined(__SSE2__)
    const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
    while (i + 16 <= end) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        /* A byte's high bit: set by a CR or LF compare, or its own (non-ASCII). */
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)), v);
        unsigned mask = (unsigned)_mm_movemask_epi8(hit);
        if (mask) return i + __builtin_ctz(mask);
        i += 16;
    }
#endif
    for (; i < end; i++) {
        unsigned char c = p[i];
        if (c == '\n' || c == '\r' || c >= 0x80) return i;
    }
    return end;
}
