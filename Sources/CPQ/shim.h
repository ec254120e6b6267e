/* libpq, PostgreSQL's client library, for Swift. */
#ifndef CPQ_SHIM_H
#define CPQ_SHIM_H

#include <libpq-fe.h>

#endif
