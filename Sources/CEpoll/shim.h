/* epoll for the benchmark's load generator and its one-thread subscribers: Swift's Glibc
 * module does not include <sys/epoll.h>. */
#ifndef CEPOLL_SHIM_H
#define CEPOLL_SHIM_H

#include <sys/epoll.h>

#endif
