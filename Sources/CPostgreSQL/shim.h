// The system PostgreSQL client library (libpq-dev at build time, libpq5 at run time), loaded on first use.
//
// tipcat links no libpq: most commands never talk to PostgreSQL, and libpq brings about twenty shared
// libraries (TLS, Kerberos, LDAP…) that every process would otherwise load at start-up. The first PostgreSQL
// connection dlopen()s libpq.so.5 and resolves the functions below; their declarations come from libpq-fe.h.
#ifndef TIPCAT_CPOSTGRESQL_SHIM_H
#define TIPCAT_CPOSTGRESQL_SHIM_H

// pkg-config's libpq adds /usr/include/postgresql; without pkg-config, Debian's path is used directly.
#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#else
#include <postgresql/libpq-fe.h>
#endif
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

// The error field codes are character-literal macros, which Swift does not import.
static const int cpostgresql_diag_sqlstate = PG_DIAG_SQLSTATE;
static const int cpostgresql_diag_message_primary = PG_DIAG_MESSAGE_PRIMARY;
static const int cpostgresql_diag_message_detail = PG_DIAG_MESSAGE_DETAIL;

// The libpq functions tipcat calls, resolved by cpostgresql_load().
typedef struct {
    PGconn *(*connectdbParams)(const char *const *, const char *const *, int);
    ConnStatusType (*status)(const PGconn *);
    char *(*errorMessage)(const PGconn *);
    void (*finish)(PGconn *);
    int (*serverVersion)(const PGconn *);
    PGresult *(*exec)(PGconn *, const char *);
    PGresult *(*execParams)(PGconn *, const char *, int, const Oid *, const char *const *, const int *, const int *, int);
    ExecStatusType (*resultStatus)(const PGresult *);
    char *(*resultErrorMessage)(const PGresult *);
    char *(*resultErrorField)(const PGresult *, int);
    int (*ntuples)(const PGresult *);
    int (*nfields)(const PGresult *);
    char *(*getvalue)(const PGresult *, int, int);
    int (*getlength)(const PGresult *, int, int);
    int (*getisnull)(const PGresult *, int, int);
    char *(*cmdTuples)(PGresult *);
    void (*clear)(PGresult *);
    PQnoticeProcessor (*setNoticeProcessor)(PGconn *, PQnoticeProcessor, void *);
} cpostgresql_functions;

// The state lives in function-local statics: Swift emits a header's functions, not its global variables.
static inline cpostgresql_functions *cpostgresql_table(void) {
    static cpostgresql_functions table;
    return &table;
}

static inline const char **cpostgresql_error(void) {
    static const char *error = NULL;
    return &error;
}

#define cpostgresql_api (*cpostgresql_table())
#define cpostgresql_load_error (*cpostgresql_error())

static inline void cpostgresql_load_once(void) {
    const char *names[] = {"libpq.so.5", "libpq.so", "libpq.5.dylib", "libpq.dylib"};
    void *library = NULL;
    for (size_t index = 0; index < sizeof(names) / sizeof(names[0]) && library == NULL; index++) {
        library = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) {
        cpostgresql_load_error = "the PostgreSQL client library (libpq.so.5) is not installed: apt-get install libpq5";
        return;
    }
    cpostgresql_functions api;
#define CPOSTGRESQL_RESOLVE(field, symbol) \
    *(void **)(&api.field) = dlsym(library, #symbol); \
    if (api.field == NULL) { cpostgresql_load_error = "libpq has no " #symbol " (too old a libpq)"; return; }
    CPOSTGRESQL_RESOLVE(connectdbParams, PQconnectdbParams)
    CPOSTGRESQL_RESOLVE(status, PQstatus)
    CPOSTGRESQL_RESOLVE(errorMessage, PQerrorMessage)
    CPOSTGRESQL_RESOLVE(finish, PQfinish)
    CPOSTGRESQL_RESOLVE(serverVersion, PQserverVersion)
    CPOSTGRESQL_RESOLVE(exec, PQexec)
    CPOSTGRESQL_RESOLVE(execParams, PQexecParams)
    CPOSTGRESQL_RESOLVE(resultStatus, PQresultStatus)
    CPOSTGRESQL_RESOLVE(resultErrorMessage, PQresultErrorMessage)
    CPOSTGRESQL_RESOLVE(resultErrorField, PQresultErrorField)
    CPOSTGRESQL_RESOLVE(ntuples, PQntuples)
    CPOSTGRESQL_RESOLVE(nfields, PQnfields)
    CPOSTGRESQL_RESOLVE(getvalue, PQgetvalue)
    CPOSTGRESQL_RESOLVE(getlength, PQgetlength)
    CPOSTGRESQL_RESOLVE(getisnull, PQgetisnull)
    CPOSTGRESQL_RESOLVE(cmdTuples, PQcmdTuples)
    CPOSTGRESQL_RESOLVE(clear, PQclear)
    CPOSTGRESQL_RESOLVE(setNoticeProcessor, PQsetNoticeProcessor)
#undef CPOSTGRESQL_RESOLVE
    cpostgresql_api = api;
}

// Loads libpq once; NULL when it is ready, else why it is not. Call before any other function here.
static inline const char *cpostgresql_load(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, cpostgresql_load_once);
    return cpostgresql_load_error;
}

static inline PGconn *cpq_connectdbParams(const char *const *keywords, const char *const *values, int expand) { return cpostgresql_api.connectdbParams(keywords, values, expand); }
static inline ConnStatusType cpq_status(const PGconn *connection) { return cpostgresql_api.status(connection); }
static inline char *cpq_errorMessage(const PGconn *connection) { return cpostgresql_api.errorMessage(connection); }
static inline void cpq_finish(PGconn *connection) { cpostgresql_api.finish(connection); }
static inline int cpq_serverVersion(const PGconn *connection) { return cpostgresql_api.serverVersion(connection); }
static inline PGresult *cpq_exec(PGconn *connection, const char *query) { return cpostgresql_api.exec(connection, query); }
static inline PGresult *cpq_execParams(PGconn *connection, const char *command, int count, const Oid *types, const char *const *values,
                                       const int *lengths, const int *formats, int resultFormat) {
    return cpostgresql_api.execParams(connection, command, count, types, values, lengths, formats, resultFormat);
}
static inline ExecStatusType cpq_resultStatus(const PGresult *result) { return cpostgresql_api.resultStatus(result); }
static inline char *cpq_resultErrorMessage(const PGresult *result) { return cpostgresql_api.resultErrorMessage(result); }
static inline char *cpq_resultErrorField(const PGresult *result, int field) { return cpostgresql_api.resultErrorField(result, field); }
static inline int cpq_ntuples(const PGresult *result) { return cpostgresql_api.ntuples(result); }
static inline int cpq_nfields(const PGresult *result) { return cpostgresql_api.nfields(result); }
static inline char *cpq_getvalue(const PGresult *result, int row, int column) { return cpostgresql_api.getvalue(result, row, column); }
static inline int cpq_getlength(const PGresult *result, int row, int column) { return cpostgresql_api.getlength(result, row, column); }
static inline int cpq_getisnull(const PGresult *result, int row, int column) { return cpostgresql_api.getisnull(result, row, column); }
static inline char *cpq_cmdTuples(PGresult *result) { return cpostgresql_api.cmdTuples(result); }
static inline void cpq_clear(PGresult *result) { if (result != NULL) cpostgresql_api.clear(result); }

static void cpostgresql_ignore_notice(void *argument, const char *message) {
    (void)argument;
    (void)message;
}

// By default libpq prints the server's notices (`relation already exists, skipping`) on stderr: drop them.
static inline void cpostgresql_silence_notices(PGconn *connection) {
    cpostgresql_api.setNoticeProcessor(connection, cpostgresql_ignore_notice, 0);
}

#endif
