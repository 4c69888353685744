#pragma once
/* dayfold's C kernels: the CSV block masks and plain-record loop, and the
   two-lane SHA-256 compression, the Apple Health XML block scanner. Wrapped for Swift in Native/ only. */
#include "dayfold_csv_marks.h"
#include "dayfold_csv_fast.h"
#include "dayfold_sha256.h"
#include "dayfold_xml_scan.h"
