#pragma once
#include <stdint.h>

/* The block scanner of Apple Health's XML subset (issue 24), wrapped for
   Swift in Native/HealthXMLBlockScanner.swift only.

   It walks the body of a document after the root start tag: white space
   between tags, start tags with attributes, empty-element tags and end
   tags, checking what it passes over (names, attribute syntax, duplicate
   attributes, references, UTF-8, balanced tags). It never reports an
   error: anything it does not fully understand stops it with
   DAYFOLD_XML_BAIL, and the caller hands the whole file to expat, which
   either accepts it (the rows are the same) or names the error. So the
   scanner may refuse what expat accepts, never the other way round. */

#define DAYFOLD_XML_MAX_DEPTH 32
#define DAYFOLD_XML_MAX_NAME 64
#define DAYFOLD_XML_MAX_WANTED 16
#define DAYFOLD_XML_MAX_ATTRIBUTES 256

enum {
    /* More input is needed: scanning resumes at `resume`. */
    DAYFOLD_XML_MORE = 0,
    /* The children array is full: call again from `resume`. */
    DAYFOLD_XML_FULL = 1,
    /* The root element closed and only white space followed (final input). */
    DAYFOLD_XML_DONE = 2,
    /* Something outside the subset: hand the file to expat. */
    DAYFOLD_XML_BAIL = 3,
};

/* One direct child of the root: positions are offsets into the scanned
   buffer. Its wanted attributes' values (raw, between the quotes) are in the
   caller's `values` array at [index * wanted_count * 2 ...]: start, end; a
   start of -1 when the tag lacks the attribute. */
typedef struct {
    int64_t line;
    int64_t tag_start;
    int64_t tag_end;
    int64_t name_start;
    int64_t name_end;
    /* Bit i: wanted attribute i holds `&`, TAB, LF or CR, so its value must
       go through dayfold_xml_decode. */
    uint32_t needs_decoding;
} dayfold_xml_child;

typedef struct {
    /* 1-based line of the scan position (expat's count: LF, CR LF and a lone CR each end a line). */
    int64_t line;
    /* Open elements, the root included; 0 once the root closed. */
    int32_t depth;
    int32_t root_closed;
    uint8_t stack_length[DAYFOLD_XML_MAX_DEPTH];
    uint8_t stack[DAYFOLD_XML_MAX_DEPTH][DAYFOLD_XML_MAX_NAME];
    int32_t wanted_count;
    uint8_t wanted_length[DAYFOLD_XML_MAX_WANTED];
    uint8_t wanted[DAYFOLD_XML_MAX_WANTED][DAYFOLD_XML_MAX_NAME];
    /* A child is only reported once its line's end is in the buffer, or
       this many bytes after its `<` are (the rejects' quote limit). */
    int64_t quote_limit;
    /* Why and where the scanner bailed (for tests and diagnostics). */
    int32_t bail_reason;
    int64_t bail_offset;
} dayfold_xml_state;

/* Sets up `state` for a body that starts right after the root start tag
   (root named `root`, `line` the line at that point). Returns 0, or -1 when
   a name is too long or there are too many wanted attributes. */
int dayfold_xml_init(dayfold_xml_state *state, const uint8_t *root, int64_t root_length, int64_t line,
                     const uint8_t *const *wanted, const int64_t *wanted_lengths, int32_t wanted_count,
                     int64_t quote_limit);

/* Scans p[pos..end). Reports direct children of the root into `children`
   (at most `capacity`, their count in *count) with their attributes'
   ranges in `values` (capacity * wanted_count * 2). `final` 1: no input
   follows `end`. Returns a DAYFOLD_XML_* status; *resume is where the next
   call starts (everything before it is consumed). */
int dayfold_xml_scan(dayfold_xml_state *state, const uint8_t *p, int64_t pos, int64_t end, int final,
                     dayfold_xml_child *children, int64_t *values, int32_t capacity, int32_t *count,
                     int64_t *resume);

/* Finds the root start tag of a document's prolog in p[0..end): a UTF-8
   BOM, white space, processing instructions (the XML declaration) and
   comments may precede it. Returns 1 and sets the root name's range and the
   tag's end (just past `>`), 0 when more input is needed, -1 when the
   prolog holds anything else (a DOCTYPE still there, text, another encoding). */
int dayfold_xml_find_root(const uint8_t *p, int64_t end, int64_t *name_start, int64_t *name_end,
                          int64_t *tag_end);

/* Line breaks in p[start..end) as expat counts them (LF, CR LF, lone CR),
   `end` being followed by a byte that is not LF. */
int64_t dayfold_xml_count_lines(const uint8_t *p, int64_t start, int64_t end);

/* Decodes an attribute value the scanner accepted: the five predefined
   entities and character references, TAB/LF/CR/CR LF as one space each.
   Writes at most `length` bytes to `out`; returns how many. */
int64_t dayfold_xml_decode(const uint8_t *value, int64_t length, uint8_t *out);
