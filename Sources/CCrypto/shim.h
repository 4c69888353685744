#pragma once
#include <openssl/sha.h>
