/* libpq, PostgreSQL's client library, for Swift: its header, and its functions found at run
 * time. The library is not linked: a daemon on SQLite never loads it nor the TLS, Kerberos and
 * LDAP libraries it pulls in (about 5 MiB of an idle daemon's resident memory); the first
 * PostgreSQL connection string read opens it (cpq_load). So Swift calls no PQ function
 * directly (that would not link): it calls through the cpq_library the load filled. */
#ifndef CPQ_SHIM_H
#define CPQ_SHIM_H

#include <dlfcn.h>
#include <postgresql/libpq-fe.h> /* Debian's place for it, found without pkg-config's -I */

/* The functions of libpq the shared log calls. */
typedef struct cpq_library {
    __typeof__(PQconninfoParse) *_Nonnull conninfoParse;
    __typeof__(PQconninfoFree) *_Nonnull conninfoFree;
    __typeof__(PQfreemem) *_Nonnull freemem;
    __typeof__(PQconnectStartParams) *_Nonnull connectStartParams;
    __typeof__(PQconnectPoll) *_Nonnull connectPoll;
    __typeof__(PQstatus) *_Nonnull status;
    __typeof__(PQfinish) *_Nonnull finish;
    __typeof__(PQbackendPID) *_Nonnull backendPID;
    __typeof__(PQsetnonblocking) *_Nonnull setnonblocking;
    __typeof__(PQsetNoticeProcessor) *_Nonnull setNoticeProcessor;
    __typeof__(PQsocket) *_Nonnull socket;
    __typeof__(PQerrorMessage) *_Nonnull errorMessage;
    __typeof__(PQsendQuery) *_Nonnull sendQuery;
    __typeof__(PQsendQueryParams) *_Nonnull sendQueryParams;
    __typeof__(PQflush) *_Nonnull flush;
    __typeof__(PQconsumeInput) *_Nonnull consumeInput;
    __typeof__(PQisBusy) *_Nonnull isBusy;
    __typeof__(PQgetResult) *_Nonnull getResult;
    __typeof__(PQresultStatus) *_Nonnull resultStatus;
    __typeof__(PQresultErrorField) *_Nonnull resultErrorField;
    __typeof__(PQntuples) *_Nonnull ntuples;
    __typeof__(PQnfields) *_Nonnull nfields;
    __typeof__(PQgetisnull) *_Nonnull getisnull;
    __typeof__(PQgetvalue) *_Nonnull getvalue;
    __typeof__(PQclear) *_Nonnull clear;
    __typeof__(PQnotifies) *_Nonnull notifies;
} cpq_library;

/* Opens libpq and fills `pq` with its functions. Returns NULL, or the loader's words for what
 * is missing (`pq` is then not to be read). */
static inline const char *_Nullable cpq_load(cpq_library *_Nonnull pq) {
    /* Opened for the life of the process, also when a function is missing. */
    void *handle = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!handle) return dlerror();
#define CPQ_FIND(field) \
    if (!(pq->field = (__typeof__(pq->field))dlsym(handle, "PQ" #field))) return dlerror();
    CPQ_FIND(conninfoParse)
    CPQ_FIND(conninfoFree)
    CPQ_FIND(freemem)
    CPQ_FIND(connectStartParams)
    CPQ_FIND(connectPoll)
    CPQ_FIND(status)
    CPQ_FIND(finish)
    CPQ_FIND(backendPID)
    CPQ_FIND(setnonblocking)
    CPQ_FIND(setNoticeProcessor)
    CPQ_FIND(socket)
    CPQ_FIND(errorMessage)
    CPQ_FIND(sendQuery)
    CPQ_FIND(sendQueryParams)
    CPQ_FIND(flush)
    CPQ_FIND(consumeInput)
    CPQ_FIND(isBusy)
    CPQ_FIND(getResult)
    CPQ_FIND(resultStatus)
    CPQ_FIND(resultErrorField)
    CPQ_FIND(ntuples)
    CPQ_FIND(nfields)
    CPQ_FIND(getisnull)
    CPQ_FIND(getvalue)
    CPQ_FIND(clear)
    CPQ_FIND(notifies)
#undef CPQ_FIND
    return NULL;
}

#endif
