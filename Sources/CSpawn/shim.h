/* posix_spawn's file action that closes every descriptor from a number on (glibc 2.34 and
 * later): <spawn.h> declares it only under _GNU_SOURCE, which Swift's Glibc module is not
 * built with. */
#ifndef CSPAWN_SHIM_H
#define CSPAWN_SHIM_H

#include <spawn.h>

extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

#endif
