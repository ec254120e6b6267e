/* OpenSSL's libcrypto for Swift: only the SHA-256 digest the shared log's hash chain uses. */
#ifndef CCRYPTO_SHIM_H
#define CCRYPTO_SHIM_H

#include <openssl/sha.h>

#endif
