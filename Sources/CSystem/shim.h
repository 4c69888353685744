#pragma once
#include <malloc.h>

/* M_ARENA_MAX as a constant Swift can import. */
static inline int dayfold_limit_malloc_arenas(int arenas) { return mallopt(M_ARENA_MAX, arenas); }
