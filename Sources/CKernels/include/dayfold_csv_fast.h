#pragma once
#include <stdint.h>
#include "dayfold_csv_marks.h"

/* Where `dayfold_csv_fast_records` writes what it found. The caller owns
   the arrays and their capacities; counts start at 0 and are set by the
   call. Field offsets are positions in the scanned buffer; `record_field_ends`
   holds, per record, the count of fields up to and including its last;
   `escaped` lists the fields (indexes into this call's fields) that hold
   doubled quotes to undouble. */
typedef struct {
    int64_t *field_starts;
    int64_t *field_ends;
    int64_t field_capacity;
    int64_t field_count;
    int64_t *record_field_ends;
    int64_t *record_starts;
    int64_t *record_raw_ends;
    int64_t record_capacity;
    int64_t record_count;
    int64_t *escaped;
    int64_t escaped_capacity;
    int64_t escaped_count;
} dayfold_csv_fast_out;

/* The stop masks of the 64-byte block at `block` (see dayfold_csv_marks64). */
typedef struct {
    int64_t block;
    uint64_t unquoted;
    uint64_t quoted;
} dayfold_csv_block;

/* Takes the complete *plain* records of p[pos..end): records of valid
   UTF-8 ended by LF or CR LF, whose fields are unquoted (ended by `,` or the
   line break) or quoted with `""` for a quote inside. Stops before the first
   record that is anything else, that the buffer does not hold whole, or that
   would overflow `out`; the general reader (libcsv) takes it from there.
   Returns the position after the last record taken. `wide` 1: the masks are
   made with AVX2 (ask dayfold_csv_wide_available() once); 0: 16-byte compares. */
int64_t dayfold_csv_fast_records(const unsigned char *p, int64_t pos, int64_t end, dayfold_csv_fast_out *out, int wide);

/* First index >= i of p[i..end) holding CR, LF or a non-ASCII byte; `end`
   when none. Where the general reader (Native/LibCSVParser.swift) cuts what
   feeds libcsv (libcsv ends a row only at a CR or LF, so each piece fed
   ends at the only byte that can end one) and stops to check UTF-8. */
int64_t dayfold_csv_next_break(const unsigned char *p, int64_t i, int64_t end);
