/* todo-bench's allocation counter, a library loaded into todod with LD_PRELOAD: it counts
 * every malloc, calloc, realloc and aligned allocation of the process, and, when
 * TODO_MALLOC_COUNT_FILE names a file, writes the count there every 10 ms (one decimal
 * number, space-padded to a fixed width, rewritten in place). The benchmark reads it before
 * and after a measured window. Nothing here is called from Swift. */
#ifndef MALLOC_COUNT_H
#define MALLOC_COUNT_H
#endif
