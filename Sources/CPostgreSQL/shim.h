// The system PostgreSQL client library (libpq-dev), plus the few helpers Swift cannot import directly.
#ifndef TIPCAT_CPOSTGRESQL_SHIM_H
#define TIPCAT_CPOSTGRESQL_SHIM_H

// pkg-config's libpq adds /usr/include/postgresql; without pkg-config, Debian's path is used directly.
#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#else
#include <postgresql/libpq-fe.h>
#endif

// The error field codes are character-literal macros, which Swift does not import.
static const int cpostgresql_diag_sqlstate = PG_DIAG_SQLSTATE;
static const int cpostgresql_diag_message_primary = PG_DIAG_MESSAGE_PRIMARY;
static const int cpostgresql_diag_message_detail = PG_DIAG_MESSAGE_DETAIL;

static void cpostgresql_ignore_notice(void *argument, const char *message) {
    (void)argument;
    (void)message;
}

// By default libpq prints the server's notices (`relation already exists, skipping`) on stderr: drop them.
static inline void cpostgresql_silence_notices(PGconn *connection) {
    PQsetNoticeProcessor(connection, cpostgresql_ignore_notice, 0);
}

#endif
