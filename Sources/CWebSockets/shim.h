/* libwebsockets for Swift: the library header plus the few helpers whose C is simpler than its
 * Swift (filling the context's structs, writing a response with LWS_PRE room before it). */
#ifndef CWEBSOCKETS_SHIM_H
#define CWEBSOCKETS_SHIM_H

#include <libwebsockets.h>
#include <stdlib.h>
#include <string.h>

/* What a context needs to outlive it: its protocol table (one protocol and the terminator), its
 * ping policy and its sweep timer. The caller allocates it, keeps it until lws_context_destroy,
 * then frees it. */
typedef struct cws_context_storage {
    struct lws_protocols protocols[2];
    lws_retry_bo_t retry;
    lws_sorted_usec_list_t sweep;
    struct lws_context *context;
    void (*on_sweep)(void *user);
    void *user;
    lws_usec_t sweep_interval;
} cws_context_storage;

static inline void cws_sweep_fired(lws_sorted_usec_list_t *sul) {
    cws_context_storage *storage = lws_container_of(sul, cws_context_storage, sweep);
    storage->on_sweep(storage->user);
    lws_sul_schedule(storage->context, 0, &storage->sweep, cws_sweep_fired, storage->sweep_interval);
}

/* Calls `on_sweep(user)` on the service thread every `interval_us` microseconds, from now on. */
static inline void cws_start_sweep(
    cws_context_storage *storage, struct lws_context *context, void (*on_sweep)(void *), void *user,
    lws_usec_t interval_us) {
    storage->context = context;
    storage->on_sweep = on_sweep;
    storage->user = user;
    storage->sweep_interval = interval_us;
    lws_sul_schedule(context, 0, &storage->sweep, cws_sweep_fired, interval_us);
}

/* Creates a server context with one vhost listening on `address:port` (port 0: any free port),
 * HTTP and WebSocket on the one protocol `name`, served by `callback` with `user` as the
 * context's user pointer. Messages arrive in pieces of at most `rx_buffer` bytes. A connection
 * idle for `ping_seconds` is pinged; one silent for `hangup_seconds` is closed. */
static inline struct lws_context *cws_create_context(
    cws_context_storage *storage, const char *name, const char *address, int port,
    lws_callback_function *callback, void *user, size_t rx_buffer, uint16_t ping_seconds,
    uint16_t hangup_seconds) {
    memset(storage, 0, sizeof *storage);
    storage->protocols[0].name = name;
    storage->protocols[0].callback = callback;
    storage->protocols[0].rx_buffer_size = rx_buffer;
    storage->protocols[0].tx_packet_size = 0;
    storage->retry.secs_since_valid_ping = ping_seconds;
    storage->retry.secs_since_valid_hangup = hangup_seconds;

    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = port;
    info.iface = address;
    info.protocols = storage->protocols;
    info.user = user;
    info.gid = (gid_t)-1;
    info.uid = (uid_t)-1;
    info.retry_and_idle_policy = &storage->retry;
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6 | LWS_SERVER_OPTION_VALIDATE_UTF8;
    info.timeout_secs = 10;
    return lws_create_context(&info);
}

/* The port the context's vhost listens on (the one chosen, for port 0). */
static inline int cws_listen_port(struct lws_context *context) {
    struct lws_vhost *vhost = lws_get_vhost_by_name(context, "default");
    return vhost ? lws_get_vhost_listen_port(vhost) : -1;
}

/* Writes a whole HTTP response: the status, `count` extra headers (`names[i]` ends with ':'),
 * and `body`. Returns 0, or -1 when the connection should be closed. */
static inline int cws_respond(
    struct lws *wsi, unsigned int status, const char *content_type, const char *const *names,
    const char *const *values, int count, const unsigned char *body, size_t body_length) {
    unsigned char headers[LWS_PRE + 4096];
    unsigned char *start = headers + LWS_PRE, *p = start, *end = headers + sizeof headers - 1;
    if (lws_add_http_common_headers(wsi, status, content_type, body_length, &p, end)) return -1;
    for (int i = 0; i < count; i++) {
        if (lws_add_http_header_by_name(
                wsi, (const unsigned char *)names[i], (const unsigned char *)values[i], (int)strlen(values[i]),
                &p, end))
            return -1;
    }
    if (lws_finalize_write_http_header(wsi, start, &p, end)) return -1;
    if (body_length > 0) {
        unsigned char *buffer = malloc(LWS_PRE + body_length);
        if (!buffer) return -1;
        memcpy(buffer + LWS_PRE, body, body_length);
        int written = lws_write(wsi, buffer + LWS_PRE, body_length, LWS_WRITE_HTTP_FINAL);
        free(buffer);
        if (written < (int)body_length) return -1;
    }
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* Sends one WebSocket text message. Returns 0, or -1 when the connection should be closed. */
static inline int cws_send_text(struct lws *wsi, const unsigned char *text, size_t length) {
    unsigned char *buffer = malloc(LWS_PRE + length);
    if (!buffer) return -1;
    memcpy(buffer + LWS_PRE, text, length);
    int written = lws_write(wsi, buffer + LWS_PRE, length, LWS_WRITE_TEXT);
    free(buffer);
    return written < (int)length ? -1 : 0;
}

/* Sets the close code and reason sent when the callback then returns -1. */
static inline void cws_close_with_reason(struct lws *wsi, uint16_t code, const char *reason) {
    lws_close_reason(wsi, (enum lws_close_status)code, (unsigned char *)reason, strlen(reason));
}

/* Copies header `token` into `buffer` (NUL-terminated); returns its length, or -1 if absent. */
static inline int cws_header(struct lws *wsi, enum lws_token_indexes token, char *buffer, int size) {
    if (lws_hdr_total_length(wsi, token) <= 0) return -1;
    return lws_hdr_copy(wsi, buffer, size, token);
}

#endif
