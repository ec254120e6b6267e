/* OpenSSL's libcrypto for Swift: only the SHA-256 digest the shared log's hash chain uses,
 * found at run time (ccrypto_load) rather than linked, as libpq is (see CPQ's shim.h): a
 * daemon on SQLite never loads it. */
#ifndef CCRYPTO_SHIM_H
#define CCRYPTO_SHIM_H

#include <dlfcn.h>
#include <openssl/opensslv.h>
#include <openssl/sha.h>

#if OPENSSL_VERSION_MAJOR != 3
#error "ccrypto_load opens libcrypto.so.3, the OpenSSL 3 ABI: this header is another version"
#endif

/* SHA-256 of libcrypto, or NULL when it cannot be opened (`*failure` then says why). */
static inline __typeof__(SHA256) *_Nullable ccrypto_load(const char *_Nullable *_Nonnull failure) {
    void *handle = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    void *found = handle ? dlsym(handle, "SHA256") : NULL;
    if (!found) *failure = dlerror();
    return (__typeof__(SHA256) *)found;
}

#endif
