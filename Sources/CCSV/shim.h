#pragma once
#include <csv.h>
