/* libuv for Swift: the library header plus casts for libuv's struct-prefix "inheritance",
 * which Swift sees as unrelated types. Keeping the casts here keeps pointer rebinding out of
 * the Swift code. */
#ifndef CUV_SHIM_H
#define CUV_SHIM_H

#include <uv.h>

static inline uv_handle_t *cuv_pipe_as_handle(uv_pipe_t *pipe) { return (uv_handle_t *)pipe; }
static inline uv_stream_t *cuv_pipe_as_stream(uv_pipe_t *pipe) { return (uv_stream_t *)pipe; }
static inline uv_pipe_t *cuv_stream_as_pipe(uv_stream_t *stream) { return (uv_pipe_t *)stream; }
static inline uv_handle_t *cuv_signal_as_handle(uv_signal_t *signal) { return (uv_handle_t *)signal; }
static inline uv_handle_t *cuv_async_as_handle(uv_async_t *async) { return (uv_handle_t *)async; }
static inline uv_handle_t *cuv_prepare_as_handle(uv_prepare_t *prepare) { return (uv_handle_t *)prepare; }
static inline uv_handle_t *cuv_timer_as_handle(uv_timer_t *timer) { return (uv_handle_t *)timer; }

#endif
