#pragma once
#include <zstd.h>
