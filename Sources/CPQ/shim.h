/* libpq, PostgreSQL's C client library, for Swift (pkg-config adds -I/usr/include/postgresql). */
#ifndef CPQ_SHIM_H
#define CPQ_SHIM_H

#include <libpq-fe.h>

#endif
