/* glibc's allocator settings (mallopt) for the daemon: Swift's Glibc module does not include
 * <malloc.h>. */
#ifndef CMALLOC_SHIM_H
#define CMALLOC_SHIM_H

#include <malloc.h>

#endif
