#pragma once
#include <csv.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* RFC 4180: no character is a "space" to trim. A C function, so libcsv's
   per-character call stays a plain C call. */
static inline int dayfold_csv_no_space(unsigned char c) { (void)c; return 0; }

/* Where libcsv's callbacks put one record's fields (Native/LibCSVParser.swift):
   the field bytes one after another in `bytes`, and each field's end there in
   `ends` (a field starts where the one before ended). In C, so a field costs
   a memcpy and a store, not a call into Swift. `failed` is set when memory
   ran out (the record is then unreadable); `row_ended` when libcsv ended a row. */
typedef struct {
    unsigned char *bytes;
    size_t count;
    size_t capacity;
    int64_t *ends;
    size_t fields;
    size_t field_capacity;
    int row_ended;
    int failed;
} dayfold_csv_sink;

static inline void dayfold_csv_sink_field(void *data, size_t length, void *context) {
    dayfold_csv_sink *sink = (dayfold_csv_sink *)context;
    if (sink->failed) return;
    if (sink->count + length > sink->capacity) {
        size_t capacity = sink->capacity ? sink->capacity : 256;
        while (capacity < sink->count + length) capacity *= 2;
        unsigned char *bytes = (unsigned char *)realloc(sink->bytes, capacity);
        if (!bytes) { sink->failed = 1; return; }
        sink->bytes = bytes;
        sink->capacity = capacity;
    }
    if (sink->fields == sink->field_capacity) {
        size_t capacity = sink->field_capacity ? sink->field_capacity * 2 : 64;
        int64_t *ends = (int64_t *)realloc(sink->ends, capacity * sizeof(int64_t));
        if (!ends) { sink->failed = 1; return; }
        sink->ends = ends;
        sink->field_capacity = capacity;
    }
    if (length > 0 && data) memcpy(sink->bytes + sink->count, data, length);
    sink->count += length;
    sink->ends[sink->fields++] = (int64_t)sink->count;
}

static inline void dayfold_csv_sink_row(int terminator, void *context) {
    (void)terminator;
    ((dayfold_csv_sink *)context)->row_ended = 1;
}

/* Forgets the record's fields (keeps the room). */
static inline void dayfold_csv_sink_clear(dayfold_csv_sink *sink) {
    sink->count = 0;
    sink->fields = 0;
    sink->row_ended = 0;
}

static inline void dayfold_csv_sink_free(dayfold_csv_sink *sink) {
    free(sink->bytes);
    free(sink->ends);
    memset(sink, 0, sizeof(*sink));
}
