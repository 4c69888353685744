#include "dayfold_xml_scan.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Internal results of the pieces below. */
enum { OK = 1, MORE = 0, BAIL = -1 };

/* Bail reasons (dayfold_xml_state.bail_reason), for tests and diagnostics. */
enum {
    R_TEXT = 1,        /* non-white-space character data, or CDATA */
    R_MARKUP = 2,      /* comment, PI, DOCTYPE, or `<` not starting a tag */
    R_NAME = 3,        /* a name outside [A-Za-z_:][A-Za-z0-9._:-]*, or too long */
    R_SYNTAX = 4,      /* attribute syntax */
    R_DUPLICATE = 5,   /* an attribute given twice */
    R_REFERENCE = 6,   /* an entity or character reference outside the five and legal characters */
    R_CHARACTER = 7,   /* a control character, `<` or bad UTF-8 in a value */
    R_MISMATCH = 8,    /* an end tag that does not close the open element */
    R_DEPTH = 9,       /* nesting deeper than DAYFOLD_XML_MAX_DEPTH */
    R_AFTER_ROOT = 10, /* anything but white space after the root closed */
    R_UNFINISHED = 11, /* the input ended inside the document */
    R_ATTRIBUTES = 12, /* more than DAYFOLD_XML_MAX_ATTRIBUTES in one tag */
};

static inline int is_space(uint8_t c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

static inline int is_name_start(uint8_t c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

static inline int is_name_char(uint8_t c) {
    return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

int64_t dayfold_xml_count_lines(const uint8_t *p, int64_t start, int64_t end) {
    int64_t lines = 0;
    for (int64_t i = start; i < end; i++) {
        uint8_t c = p[i];
        if (c == '\n') {
            lines++;
        } else if (c == '\r') {
            if (i + 1 < end && p[i + 1] == '\n') i++;
            lines++;
        }
    }
    return lines;
}

int dayfold_xml_init(dayfold_xml_state *state, const uint8_t *root, int64_t root_length, int64_t line,
                     const uint8_t *const *wanted, const int64_t *wanted_lengths, int32_t wanted_count,
                     int64_t quote_limit) {
    memset(state, 0, sizeof *state);
    if (root_length <= 0 || root_length > DAYFOLD_XML_MAX_NAME || wanted_count > DAYFOLD_XML_MAX_WANTED ||
        wanted_count < 0)
        return -1;
    state->line = line;
    state->depth = 1;
    state->stack_length[0] = (uint8_t)root_length;
    memcpy(state->stack[0], root, (size_t)root_length);
    state->wanted_count = wanted_count;
    for (int32_t i = 0; i < wanted_count; i++) {
        if (wanted_lengths[i] <= 0 || wanted_lengths[i] > DAYFOLD_XML_MAX_NAME) return -1;
        state->wanted_length[i] = (uint8_t)wanted_lengths[i];
        memcpy(state->wanted[i], wanted[i], (size_t)wanted_lengths[i]);
    }
    state->quote_limit = quote_limit;
    return 0;
}

/* A name at p[i..): OK with *after set, MORE when the buffer ends in it, BAIL. */
static inline int scan_name(const uint8_t *p, int64_t i, int64_t end, int64_t *after) {
    if (i >= end) return MORE;
    if (!is_name_start(p[i])) return BAIL;
    int64_t j = i + 1;
    while (j < end && is_name_char(p[j])) j++;
    if (j == end) return MORE;
    if (j - i > DAYFOLD_XML_MAX_NAME) return BAIL;
    *after = j;
    return OK;
}

/* Whether the code point is a legal XML 1.0 character. */
static inline int legal_char(uint32_t c) {
    return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) ||
           (c >= 0x10000 && c <= 0x10FFFF);
}

/* A reference at p[i] == '&': OK with *after past the `;`. */
static int scan_reference(const uint8_t *p, int64_t i, int64_t end, int64_t *after) {
    int64_t j = i + 1;
    if (j >= end) return MORE;
    if (p[j] == '#') {
        j++;
        if (j >= end) return MORE;
        uint32_t value = 0;
        int digits = 0;
        if (p[j] == 'x') {
            j++;
            for (;; j++) {
                if (j >= end) return MORE;
                uint8_t c = p[j];
                uint32_t d;
                if (c >= '0' && c <= '9') d = c - '0';
                else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
                else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
                else break;
                if (++digits > 6) return BAIL;
                value = value * 16 + d;
            }
        } else {
            for (;; j++) {
                if (j >= end) return MORE;
                uint8_t c = p[j];
                if (c < '0' || c > '9') break;
                if (++digits > 7) return BAIL;
                value = value * 10 + (uint32_t)(c - '0');
            }
        }
        if (digits == 0 || p[j] != ';' || !legal_char(value)) return BAIL;
        *after = j + 1;
        return OK;
    }
    /* amp, lt, gt, quot, apos */
    int64_t k = j;
    while (k < end && k - j < 5 && p[k] >= 'a' && p[k] <= 'z') k++;
    if (k >= end) return MORE;
    if (p[k] != ';') return BAIL;
    int64_t n = k - j;
    const uint8_t *s = p + j;
    int known = (n == 3 && memcmp(s, "amp", 3) == 0) || (n == 2 && (memcmp(s, "lt", 2) == 0 || memcmp(s, "gt", 2) == 0)) ||
                (n == 4 && (memcmp(s, "quot", 4) == 0 || memcmp(s, "apos", 4) == 0));
    if (!known) return BAIL;
    *after = k + 1;
    return OK;
}

/* A UTF-8 sequence at p[i] >= 0x80 of a legal character: OK with *after. */
static inline int scan_utf8(const uint8_t *p, int64_t i, int64_t end, int64_t *after) {
    uint8_t c = p[i];
    int n;
    uint8_t low = 0x80, high = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) n = 1;
    else if (c == 0xE0) { n = 2; low = 0xA0; }
    else if (c >= 0xE1 && c <= 0xEC) n = 2;
    else if (c == 0xED) { n = 2; high = 0x9F; }
    else if (c >= 0xEE && c <= 0xEF) n = 2;
    else if (c == 0xF0) { n = 3; low = 0x90; }
    else if (c >= 0xF1 && c <= 0xF3) n = 3;
    else if (c == 0xF4) { n = 3; high = 0x8F; }
    else return BAIL;
    if (i + n >= end) return MORE;
    if (p[i + 1] < low || p[i + 1] > high) return BAIL;
    for (int k = 2; k <= n; k++)
        if ((p[i + k] & 0xC0) != 0x80) return BAIL;
    /* U+FFFE and U+FFFF are not characters. */
    if (c == 0xEF && p[i + 1] == 0xBF && p[i + 2] >= 0xBE) return BAIL;
    *after = i + n + 1;
    return OK;
}

/* The attribute value after the opening quote p[i - 1] == quote: OK with
   *after past the closing quote; *lines the line breaks in it; *decode 1
   when it holds `&`, TAB, LF or CR. */
static int scan_value(const uint8_t *p, int64_t i, int64_t end, uint8_t quote, int64_t *after, int64_t *lines,
                      int *decode) {
    int64_t j = i;
    for (;;) {
#if defined(__SSE2__)
        /* 16 bytes at a time while none is special: the quote, `<`, `&`,
           a control byte or a non-ASCII byte (signed < 0x20 covers both). */
        const __m128i q = _mm_set1_epi8((char)quote);
        const __m128i lt = _mm_set1_epi8('<');
        const __m128i amp = _mm_set1_epi8('&');
        const __m128i space = _mm_set1_epi8(0x20);
        while (j + 16 <= end) {
            __m128i v = _mm_loadu_si128((const __m128i *)(p + j));
            __m128i special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, q), _mm_cmpeq_epi8(v, lt)),
                                           _mm_or_si128(_mm_cmpeq_epi8(v, amp), _mm_cmplt_epi8(v, space)));
            int mask = _mm_movemask_epi8(special);
            if (mask != 0) {
                j += __builtin_ctz((unsigned)mask);
                break;
            }
            j += 16;
        }
#endif
        while (j < end) {
            uint8_t c = p[j];
            if (c == quote || c == '<' || c == '&' || c < 0x20 || c >= 0x80) break;
            j++;
        }
        if (j >= end) return MORE;
        uint8_t c = p[j];
        if (c == quote) {
            *after = j + 1;
            return OK;
        }
        if (c == '<') return BAIL;
        if (c == '&') {
            int r = scan_reference(p, j, end, &j);
            if (r != OK) return r;
            *decode = 1;
            continue;
        }
        if (c >= 0x80) {
            int r = scan_utf8(p, j, end, &j);
            if (r != OK) return r;
            continue;
        }
        if (c == '\n') {
            (*lines)++;
            *decode = 1;
            j++;
            continue;
        }
        if (c == '\r') {
            if (j + 1 >= end) return MORE;
            if (p[j + 1] == '\n') j++;
            (*lines)++;
            *decode = 1;
            j++;
            continue;
        }
        if (c == '\t') {
            *decode = 1;
            j++;
            continue;
        }
        return BAIL; /* another control character */
    }
}

/* White space from p[i): *after at the first other byte, *lines counted.
   MORE when the buffer ends in it (or after a CR whose follower is unseen). */
static inline int skip_space(const uint8_t *p, int64_t i, int64_t end, int64_t *after, int64_t *lines) {
    int64_t j = i;
    while (j < end) {
        uint8_t c = p[j];
        if (c == ' ' || c == '\t') {
            j++;
        } else if (c == '\n') {
            (*lines)++;
            j++;
        } else if (c == '\r') {
            if (j + 1 >= end) return MORE;
            if (p[j + 1] == '\n') j++;
            (*lines)++;
            j++;
        } else {
            *after = j;
            return OK;
        }
    }
    return MORE;
}

typedef struct {
    int64_t start, end;
    uint64_t hash;
} attribute_name;

/* A start tag at p[i] == '<', p[i + 1] a name start. Fills `child` and
   `values` (when reporting) and sets *after, *lines, *empty. */
static int scan_start_tag(dayfold_xml_state *s, const uint8_t *p, int64_t i, int64_t end, int report,
                          dayfold_xml_child *child, int64_t *values, int64_t *after, int64_t *lines, int *empty,
                          int64_t *name_end_out) {
    int64_t name_end;
    int r = scan_name(p, i + 1, end, &name_end);
    if (r != OK) {
        s->bail_reason = R_NAME;
        return r;
    }
    *name_end_out = name_end;
    attribute_name names[DAYFOLD_XML_MAX_ATTRIBUTES];
    int attribute_count = 0;
    uint64_t seen = 0;
    int wanted_count = s->wanted_count;
    if (report) {
        for (int k = 0; k < wanted_count; k++) values[2 * k] = -1;
        child->needs_decoding = 0;
    }
    int64_t j = name_end;
    for (;;) {
        int64_t k;
        r = skip_space(p, j, end, &k, lines);
        if (r != OK) return r;
        int spaced = k > j;
        j = k;
        uint8_t c = p[j];
        if (c == '>') {
            *after = j + 1;
            *empty = 0;
            return OK;
        }
        if (c == '/') {
            if (j + 1 >= end) return MORE;
            if (p[j + 1] != '>') {
                s->bail_reason = R_SYNTAX;
                return BAIL;
            }
            *after = j + 2;
            *empty = 1;
            return OK;
        }
        if (!spaced) {
            s->bail_reason = R_SYNTAX;
            return BAIL;
        }
        int64_t attribute_end;
        r = scan_name(p, j, end, &attribute_end);
        if (r != OK) {
            s->bail_reason = R_NAME;
            return r;
        }
        int64_t length = attribute_end - j;
        /* Duplicates: a 64-bit filter of (length, first, last byte); a full
           comparison only when its bit was already set. */
        uint64_t bit = 1ull << ((uint64_t)(length * 7 + p[j] * 3 + p[attribute_end - 1]) & 63);
        if (seen & bit) {
            for (int a = 0; a < attribute_count; a++) {
                if (names[a].hash == bit && names[a].end - names[a].start == length &&
                    memcmp(p + names[a].start, p + j, (size_t)length) == 0) {
                    s->bail_reason = R_DUPLICATE;
                    return BAIL;
                }
            }
        }
        seen |= bit;
        if (attribute_count == DAYFOLD_XML_MAX_ATTRIBUTES) {
            s->bail_reason = R_ATTRIBUTES;
            return BAIL;
        }
        names[attribute_count].start = j;
        names[attribute_count].end = attribute_end;
        names[attribute_count].hash = bit;
        attribute_count++;
        r = skip_space(p, attribute_end, end, &k, lines);
        if (r != OK) return r;
        if (p[k] != '=') {
            s->bail_reason = R_SYNTAX;
            return BAIL;
        }
        r = skip_space(p, k + 1, end, &k, lines);
        if (r != OK) return r;
        uint8_t quote = p[k];
        if (quote != '"' && quote != '\'') {
            s->bail_reason = R_SYNTAX;
            return BAIL;
        }
        int decode = 0;
        int64_t value_end;
        r = scan_value(p, k + 1, end, quote, &value_end, lines, &decode);
        if (r != OK) {
            if (r == BAIL) s->bail_reason = R_CHARACTER;
            return r;
        }
        if (report) {
            for (int w = 0; w < wanted_count; w++) {
                if (s->wanted_length[w] == length && s->wanted[w][0] == p[j] &&
                    memcmp(s->wanted[w], p + j, (size_t)length) == 0) {
                    values[2 * w] = k + 1;
                    values[2 * w + 1] = value_end - 1;
                    if (decode) child->needs_decoding |= 1u << w;
                    break;
                }
            }
        }
        j = value_end;
    }
}

int dayfold_xml_scan(dayfold_xml_state *s, const uint8_t *p, int64_t pos, int64_t end, int final,
                     dayfold_xml_child *children, int64_t *values, int32_t capacity, int32_t *count,
                     int64_t *resume) {
    int32_t reported = 0;
    int64_t i = pos;
    int status;
#define STOP(code)            \
    do {                      \
        status = (code);      \
        goto stop;            \
    } while (0)
#define NEED_MORE()                                               \
    do {                                                          \
        if (final) {                                              \
            s->bail_reason = R_UNFINISHED;                        \
            STOP(DAYFOLD_XML_BAIL);                               \
        }                                                         \
        STOP(DAYFOLD_XML_MORE);                                   \
    } while (0)
    for (;;) {
        /* White space up to the next `<`. */
        int64_t lines = 0;
        int64_t j = i;
        while (j < end && is_space(p[j])) {
            if (p[j] == '\n') {
                lines++;
            } else if (p[j] == '\r') {
                if (j + 1 >= end) break;
                if (p[j + 1] == '\n') j++;
                lines++;
            }
            j++;
        }
        if (s->root_closed) {
            if (j < end && !(p[j] == '\r' && j + 1 == end)) {
                s->bail_reason = R_AFTER_ROOT;
                STOP(DAYFOLD_XML_BAIL);
            }
            if (final) {
                s->line += lines;
                i = end;
                STOP(DAYFOLD_XML_DONE);
            }
            s->line += lines;
            i = j;
            STOP(DAYFOLD_XML_MORE);
        }
        if (j >= end || (p[j] == '\r' && j + 1 >= end)) NEED_MORE();
        if (p[j] != '<') {
            s->bail_reason = R_TEXT;
            STOP(DAYFOLD_XML_BAIL);
        }
        if (j + 1 >= end) {
            s->line += lines;
            i = j;
            NEED_MORE();
        }
        s->line += lines;
        i = j;
        uint8_t c = p[i + 1];
        if (c == '/') {
            int64_t name_end;
            int r = scan_name(p, i + 2, end, &name_end);
            if (r == MORE) NEED_MORE();
            if (r == BAIL) {
                s->bail_reason = R_NAME;
                STOP(DAYFOLD_XML_BAIL);
            }
            int64_t tag_lines = 0, k;
            r = skip_space(p, name_end, end, &k, &tag_lines);
            if (r == MORE) NEED_MORE();
            if (p[k] != '>') {
                s->bail_reason = R_SYNTAX;
                STOP(DAYFOLD_XML_BAIL);
            }
            int64_t length = name_end - (i + 2);
            int top = s->depth - 1;
            if (s->stack_length[top] != length || memcmp(s->stack[top], p + i + 2, (size_t)length) != 0) {
                s->bail_reason = R_MISMATCH;
                STOP(DAYFOLD_XML_BAIL);
            }
            s->depth--;
            if (s->depth == 0) s->root_closed = 1;
            s->line += tag_lines;
            i = k + 1;
            continue;
        }
        if (!is_name_start(c)) {
            s->bail_reason = is_space(c) ? R_NAME : R_MARKUP;
            STOP(DAYFOLD_XML_BAIL);
        }
        int report = s->depth == 1;
        if (report && reported == capacity) STOP(DAYFOLD_XML_FULL);
        dayfold_xml_child *child = &children[reported];
        int64_t *child_values = values + (int64_t)reported * s->wanted_count * 2;
        int64_t after, tag_lines = 0, name_end;
        int empty;
        int r = scan_start_tag(s, p, i, end, report, child, child_values, &after, &tag_lines, &empty, &name_end);
        if (r == MORE) NEED_MORE();
        if (r == BAIL) STOP(DAYFOLD_XML_BAIL);
        if (report) {
            /* Report only once the quote of its line can be cut. */
            if (!final && end - i < s->quote_limit && memchr(p + after, '\n', (size_t)(end - after)) == NULL)
                STOP(DAYFOLD_XML_MORE);
            child->line = s->line;
            child->tag_start = i;
            child->tag_end = after;
            child->name_start = i + 1;
            child->name_end = name_end;
            reported++;
        }
        if (!empty) {
            if (s->depth == DAYFOLD_XML_MAX_DEPTH) {
                s->bail_reason = R_DEPTH;
                STOP(DAYFOLD_XML_BAIL);
            }
            int64_t length = name_end - (i + 1);
            s->stack_length[s->depth] = (uint8_t)length;
            memcpy(s->stack[s->depth], p + i + 1, (size_t)length);
            s->depth++;
        }
        s->line += tag_lines;
        i = after;
    }
stop:
    if (status == DAYFOLD_XML_BAIL) s->bail_offset = i;
    *count = reported;
    *resume = i;
    return status;
#undef STOP
#undef NEED_MORE
}

/* Index of `pattern` in p[from..end), or -1. */
static int64_t find(const uint8_t *p, int64_t from, int64_t end, const char *pattern) {
    int64_t n = (int64_t)strlen(pattern);
    for (int64_t i = from; i + n <= end; i++)
        if (p[i] == (uint8_t)pattern[0] && memcmp(p + i, pattern, (size_t)n) == 0) return i;
    return -1;
}

int dayfold_xml_find_root(const uint8_t *p, int64_t end, int64_t *name_start, int64_t *name_end,
                          int64_t *tag_end) {
    int64_t i = 0;
    if (end >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) i = 3;
    for (;;) {
        while (i < end && is_space(p[i])) i++;
        if (i + 4 > end) return 0;
        if (p[i] != '<') return -1;
        if (p[i + 1] == '?') {
            int64_t close = find(p, i + 2, end, "?>");
            if (close < 0) return 0;
            i = close + 2;
            continue;
        }
        if (p[i + 1] == '!') {
            if (memcmp(p + i, "<!--", 4) != 0) return -1;
            int64_t close = find(p, i + 4, end, "-->");
            if (close < 0) return 0;
            i = close + 3;
            continue;
        }
        if (!is_name_start(p[i + 1])) return -1;
        int64_t j = i + 2;
        while (j < end && is_name_char(p[j])) j++;
        if (j >= end) return 0;
        *name_start = i + 1;
        *name_end = j;
        uint8_t quote = 0;
        for (; j < end; j++) {
            uint8_t c = p[j];
            if (quote) {
                if (c == quote) quote = 0;
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '>') {
                *tag_end = j + 1;
                return 1;
            } else if (c == '<') {
                return -1;
            }
        }
        return 0;
    }
}

int64_t dayfold_xml_decode(const uint8_t *value, int64_t length, uint8_t *out) {
    int64_t o = 0;
    for (int64_t i = 0; i < length; i++) {
        uint8_t c = value[i];
        if (c == '\t' || c == '\n') {
            out[o++] = ' ';
        } else if (c == '\r') {
            if (i + 1 < length && value[i + 1] == '\n') i++;
            out[o++] = ' ';
        } else if (c != '&') {
            out[o++] = c;
        } else if (value[i + 1] == '#') {
            uint32_t code = 0;
            int64_t j = i + 2;
            if (value[j] == 'x') {
                for (j++; value[j] != ';'; j++) {
                    uint8_t d = value[j];
                    code = code * 16 + (d <= '9' ? d - '0' : (d | 0x20) - 'a' + 10);
                }
            } else {
                for (; value[j] != ';'; j++) code = code * 10 + (uint32_t)(value[j] - '0');
            }
            if (code < 0x80) {
                out[o++] = (uint8_t)code;
            } else if (code < 0x800) {
                out[o++] = (uint8_t)(0xC0 | (code >> 6));
                out[o++] = (uint8_t)(0x80 | (code & 0x3F));
            } else if (code < 0x10000) {
                out[o++] = (uint8_t)(0xE0 | (code >> 12));
                out[o++] = (uint8_t)(0x80 | ((code >> 6) & 0x3F));
                out[o++] = (uint8_t)(0x80 | (code & 0x3F));
            } else {
                out[o++] = (uint8_t)(0xF0 | (code >> 18));
                out[o++] = (uint8_t)(0x80 | ((code >> 12) & 0x3F));
                out[o++] = (uint8_t)(0x80 | ((code >> 6) & 0x3F));
                out[o++] = (uint8_t)(0x80 | (code & 0x3F));
            }
            i = j;
        } else {
            uint8_t n = value[i + 1];
            if (n == 'a' && value[i + 2] == 'm') {
                out[o++] = '&';
                i += 4;
            } else if (n == 'a') {
                out[o++] = '\'';
                i += 5;
            } else if (n == 'q') {
                out[o++] = '"';
                i += 5;
            } else if (n == 'l') {
                out[o++] = '<';
                i += 3;
            } else {
                out[o++] = '>';
                i += 3;
            }
        }
    }
    return o;
}
