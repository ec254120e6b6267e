/* libwebsockets for Swift: the library header, the library's functions found at run time, and
 * the few helpers whose C is simpler than its Swift (filling the context's structs, writing a
 * response with LWS_PRE room before it).
 *
 * The library is not linked: a program linking SyncWeb loads it (and the TLS libraries it
 * needs) only when a gateway starts, with cws_load, instead of at every start of every command
 * (about 2 ms of each `todo` command). So nothing here or in Swift calls an lws_ function
 * directly (that would not link): everything goes through the cws_library the load filled. */
#ifndef CWEBSOCKETS_SHIM_H
#define CWEBSOCKETS_SHIM_H

#include <dlfcn.h>
#include <libwebsockets.h>
#include <stdlib.h>
#include <string.h>

#if LWS_LIBRARY_VERSION_MAJOR != 4 || LWS_LIBRARY_VERSION_MINOR != 1
#error "cws_load opens libwebsockets.so.17, the 4.1 ABI: this header is another version"
#endif

/* The functions of libwebsockets the gateway calls: the helpers below and Swift call them
 * through this table (non-null once cws_load succeeded). */
typedef struct cws_library {
    __typeof__(lws_set_log_level) *_Nonnull set_log_level;
    __typeof__(lws_create_context) *_Nonnull create_context;
    __typeof__(lws_context_destroy) *_Nonnull context_destroy;
    __typeof__(lws_context_user) *_Nonnull context_user;
    __typeof__(lws_get_context) *_Nonnull get_context;
    __typeof__(lws_service) *_Nonnull service;
    __typeof__(lws_cancel_service) *_Nonnull cancel_service;
    __typeof__(lws_sul_schedule) *_Nonnull sul_schedule;
    __typeof__(lws_get_vhost_by_name) *_Nonnull get_vhost_by_name;
    __typeof__(lws_get_vhost_listen_port) *_Nonnull get_vhost_listen_port;
    __typeof__(lws_callback_on_writable) *_Nonnull callback_on_writable;
    __typeof__(lws_is_final_fragment) *_Nonnull is_final_fragment;
    __typeof__(lws_remaining_packet_payload) *_Nonnull remaining_packet_payload;
    __typeof__(lws_return_http_status) *_Nonnull return_http_status;
    __typeof__(lws_get_urlarg_by_name) *_Nonnull get_urlarg_by_name;
    __typeof__(lws_add_http_common_headers) *_Nonnull add_http_common_headers;
    __typeof__(lws_add_http_header_by_name) *_Nonnull add_http_header_by_name;
    __typeof__(lws_finalize_write_http_header) *_Nonnull finalize_write_http_header;
    __typeof__(lws_write) *_Nonnull write;
    __typeof__(lws_http_transaction_completed) *_Nonnull http_transaction_completed;
    __typeof__(lws_close_reason) *_Nonnull close_reason;
    __typeof__(lws_hdr_total_length) *_Nonnull hdr_total_length;
    __typeof__(lws_hdr_copy) *_Nonnull hdr_copy;
} cws_library;

/* Opens libwebsockets and fills `lws` with its functions. Returns NULL, or the loader's words
 * for what is missing (`lws` is then not to be read). */
static inline const char *_Nullable cws_load(cws_library *_Nonnull lws) {
    /* Opened for the life of the process, also when a function is missing. */
    void *handle = dlopen("libwebsockets.so.17", RTLD_NOW | RTLD_LOCAL);
    if (!handle) return dlerror();
#define CWS_FIND(field, symbol) \
    if (!(lws->field = (__typeof__(lws->field))dlsym(handle, #symbol))) return dlerror();
    CWS_FIND(set_log_level, lws_set_log_level)
    CWS_FIND(create_context, lws_create_context)
    CWS_FIND(context_destroy, lws_context_destroy)
    CWS_FIND(context_user, lws_context_user)
    CWS_FIND(get_context, lws_get_context)
    CWS_FIND(service, lws_service)
    CWS_FIND(cancel_service, lws_cancel_service)
    CWS_FIND(sul_schedule, lws_sul_schedule)
    CWS_FIND(get_vhost_by_name, lws_get_vhost_by_name)
    CWS_FIND(get_vhost_listen_port, lws_get_vhost_listen_port)
    CWS_FIND(callback_on_writable, lws_callback_on_writable)
    CWS_FIND(is_final_fragment, lws_is_final_fragment)
    CWS_FIND(remaining_packet_payload, lws_remaining_packet_payload)
    CWS_FIND(return_http_status, lws_return_http_status)
    CWS_FIND(get_urlarg_by_name, lws_get_urlarg_by_name)
    CWS_FIND(add_http_common_headers, lws_add_http_common_headers)
    CWS_FIND(add_http_header_by_name, lws_add_http_header_by_name)
    CWS_FIND(finalize_write_http_header, lws_finalize_write_http_header)
    CWS_FIND(write, lws_write)
    CWS_FIND(http_transaction_completed, lws_http_transaction_completed)
    CWS_FIND(close_reason, lws_close_reason)
    CWS_FIND(hdr_total_length, lws_hdr_total_length)
    CWS_FIND(hdr_copy, lws_hdr_copy)
#undef CWS_FIND
    return NULL;
}

/* What a context needs to outlive it: its protocol table (one protocol and the terminator), its
 * ping policy and its sweep timer. The caller allocates it, keeps it until lws_context_destroy,
 * then frees it. */
typedef struct cws_context_storage {
    struct lws_protocols protocols[2];
    lws_retry_bo_t retry;
    lws_sorted_usec_list_t sweep;
    struct lws_context *context;
    const cws_library *lws;
    void (*on_sweep)(void *user);
    void *user;
    lws_usec_t sweep_interval;
} cws_context_storage;

static inline void cws_sweep_fired(lws_sorted_usec_list_t *sul) {
    cws_context_storage *storage = lws_container_of(sul, cws_context_storage, sweep);
    storage->on_sweep(storage->user);
    storage->lws->sul_schedule(storage->context, 0, &storage->sweep, cws_sweep_fired, storage->sweep_interval);
}

/* Calls `on_sweep(user)` on the service thread every `interval_us` microseconds, from now on. */
static inline void cws_start_sweep(
    const cws_library *lws, cws_context_storage *storage, struct lws_context *context, void (*on_sweep)(void *),
    void *user, lws_usec_t interval_us) {
    storage->context = context;
    storage->lws = lws;
    storage->on_sweep = on_sweep;
    storage->user = user;
    storage->sweep_interval = interval_us;
    lws->sul_schedule(context, 0, &storage->sweep, cws_sweep_fired, interval_us);
}

/* Creates a server context with one vhost listening on `address:port` (port 0: any free port),
 * HTTP and WebSocket on the one protocol `name`, served by `callback` with `user` as the
 * context's user pointer. Messages arrive in pieces of at most `rx_buffer` bytes. A connection
 * idle for `ping_seconds` is pinged; one silent for `hangup_seconds` is closed. */
static inline struct lws_context *cws_create_context(
    const cws_library *lws, cws_context_storage *storage, const char *name, const char *address, int port,
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
    return lws->create_context(&info);
}

/* The port the context's vhost listens on (the one chosen, for port 0). */
static inline int cws_listen_port(const cws_library *lws, struct lws_context *context) {
    struct lws_vhost *vhost = lws->get_vhost_by_name(context, "default");
    return vhost ? lws->get_vhost_listen_port(vhost) : -1;
}

/* Writes a whole HTTP response: the status, `count` extra headers (`names[i]` ends with ':'),
 * and `body`. Returns 0, or -1 when the connection should be closed. */
static inline int cws_respond(
    const cws_library *lws, struct lws *wsi, unsigned int status, const char *content_type, const char *const *names,
    const char *const *values, int count, const unsigned char *body, size_t body_length) {
    unsigned char headers[LWS_PRE + 4096];
    unsigned char *start = headers + LWS_PRE, *p = start, *end = headers + sizeof headers - 1;
    if (lws->add_http_common_headers(wsi, status, content_type, body_length, &p, end)) return -1;
    for (int i = 0; i < count; i++) {
        if (lws->add_http_header_by_name(
                wsi, (const unsigned char *)names[i], (const unsigned char *)values[i], (int)strlen(values[i]),
                &p, end))
            return -1;
    }
    if (lws->finalize_write_http_header(wsi, start, &p, end)) return -1;
    if (body_length > 0) {
        unsigned char *buffer = malloc(LWS_PRE + body_length);
        if (!buffer) return -1;
        memcpy(buffer + LWS_PRE, body, body_length);
        int written = lws->write(wsi, buffer + LWS_PRE, body_length, LWS_WRITE_HTTP_FINAL);
        free(buffer);
        if (written < (int)body_length) return -1;
    }
    return lws->http_transaction_completed(wsi) ? -1 : 0;
}

/* Sends one WebSocket text message. Returns 0, or -1 when the connection should be closed. */
static inline int cws_send_text(const cws_library *lws, struct lws *wsi, const unsigned char *text, size_t length) {
    unsigned char *buffer = malloc(LWS_PRE + length);
    if (!buffer) return -1;
    memcpy(buffer + LWS_PRE, text, length);
    int written = lws->write(wsi, buffer + LWS_PRE, length, LWS_WRITE_TEXT);
    free(buffer);
    return written < (int)length ? -1 : 0;
}

/* Sets the close code and reason sent when the callback then returns -1. */
static inline void cws_close_with_reason(const cws_library *lws, struct lws *wsi, uint16_t code, const char *reason) {
    lws->close_reason(wsi, (enum lws_close_status)code, (unsigned char *)reason, strlen(reason));
}

/* Copies header `token` into `buffer` (NUL-terminated); returns its length, or -1 if absent. */
static inline int cws_header(
    const cws_library *lws, struct lws *wsi, enum lws_token_indexes token, char *buffer, int size) {
    if (lws->hdr_total_length(wsi, token) <= 0) return -1;
    return lws->hdr_copy(wsi, buffer, size, token);
}

#endif
