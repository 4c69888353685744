#pragma once
/* The experimental parameters below are plain enum values the shared
   library accepts; only their names need the static-linking section. */
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

/* Sets a Parquet page context: a (possibly negative) level, a hash table
   of 2^hashLog entries (0: the level's own), and Huffman-coded literals even
   at negative levels (where zstd would leave them raw). Returns the first
   error code, or 0. */
static inline size_t dayfold_zstd_configure(ZSTD_CCtx *context, int level, int hashLog) {
    size_t result = ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level);
    if (ZSTD_isError(result)) return result;
    result = ZSTD_CCtx_setParameter(context, ZSTD_c_literalCompressionMode, ZSTD_ps_enable);
    if (ZSTD_isError(result)) return result;
    return hashLog == 0 ? 0 : ZSTD_CCtx_setParameter(context, ZSTD_c_hashLog, hashLog);
}
