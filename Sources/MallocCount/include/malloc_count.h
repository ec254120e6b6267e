/* todo-bench's allocation counter, a library loaded into todod with LD_PRELOAD: it counts
 * every malloc, calloc, realloc and aligned allocation of the process, and, when
 * TODO_MALLOC_COUNT_FILE names a file, writes the count there every 10 ms (two decimal
 * numbers, the count and the report's own number, space-padded to a fixed width and
 * rewritten in place); the two variables are removed from the environment, so that no child
 * of the process counts or reports. The benchmark reads it before
 * and after a measured window. Nothing here is called from Swift. */
#ifndef MALLOC_COUNT_H
#define MALLOC_COUNT_H
#endif
