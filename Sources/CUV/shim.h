/* libuv for Swift: the library header plus casts for libuv's struct-prefix "inheritance",
 * which Swift sees as unrelated types. Keeping the casts here keeps pointer rebinding out of
 * the Swift code. */
#ifndef CUV_SHIM_H
#define CUV_SHIM_H

#include <errno.h>
#include <stdint.h>
#include <sys/socket.h>
#include <uv.h>

static inline uv_handle_t *cuv_pipe_as_handle(uv_pipe_t *pipe) { return (uv_handle_t *)pipe; }
static inline uv_stream_t *cuv_pipe_as_stream(uv_pipe_t *pipe) { return (uv_stream_t *)pipe; }
static inline uv_handle_t *cuv_signal_as_handle(uv_signal_t *signal) { return (uv_handle_t *)signal; }
static inline uv_handle_t *cuv_async_as_handle(uv_async_t *async) { return (uv_handle_t *)async; }
static inline uv_handle_t *cuv_prepare_as_handle(uv_prepare_t *prepare) { return (uv_handle_t *)prepare; }
static inline uv_handle_t *cuv_timer_as_handle(uv_timer_t *timer) { return (uv_handle_t *)timer; }

/* The peer of a connected Unix socket, laid out as Linux's struct ucred (which Swift's Glibc
 * module hides behind _GNU_SOURCE). */
typedef struct {
    int32_t pid;
    uint32_t uid;
    uint32_t gid;
} cuv_peer_credentials;

/* Reads SO_PEERCRED of a connected pipe. Returns 0, or a negative errno / libuv error code. */
static inline int cuv_read_peer_credentials(uv_pipe_t *pipe, cuv_peer_credentials *credentials) {
    uv_os_fd_t descriptor;
    int result = uv_fileno((uv_handle_t *)pipe, &descriptor);
    if (result < 0) return result;
    socklen_t length = sizeof *credentials;
    return getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, credentials, &length) == 0 ? 0 : -errno;
}

#endif
