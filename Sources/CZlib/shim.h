#pragma once
#include <zlib.h>

/* inflateInit2 is a macro (it passes the library version and the stream's
   size): Swift cannot call it. 15 + 32: the largest window, and the gzip or
   zlib header detected from the stream. */
static inline int dayfold_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 15 + 32);
}
