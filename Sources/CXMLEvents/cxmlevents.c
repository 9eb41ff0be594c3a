// Written for this project: libxml2's SAX interface, loaded with dlopen() on first use (see cxmlevents.h).
#include "cxmlevents.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>

// The libxml2 functions used, resolved once.
static struct {
    void (*initParser)(void);
    xmlParserCtxtPtr (*createPush)(xmlSAXHandlerPtr, void *, const char *, int, const char *);
    int (*useOptions)(xmlParserCtxtPtr, int);
    int (*parseChunk)(xmlParserCtxtPtr, const char *, int, int);
    void (*stop)(xmlParserCtxtPtr);
    void (*freeContext)(xmlParserCtxtPtr);
    xmlErrorPtr (*lastError)(void *);
    int (*line)(void *);
    int (*column)(void *);
} api;

static const char *load_error = NULL;

static void load_once(void) {
    const char *names[] = {"libxml2.so.2", "libxml2.so", "libxml2.2.dylib", "libxml2.dylib"};
    void *library = NULL;
    for (size_t index = 0; index < sizeof(names) / sizeof(names[0]) && library == NULL; index++) {
        library = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) {
        load_error = "the XML library (libxml2.so.2) is not installed: apt-get install libxml2";
        return;
    }
#define CXML_RESOLVE(field, symbol) \
    *(void **)(&api.field) = dlsym(library, #symbol); \
    if (api.field == NULL) { load_error = "libxml2 has no " #symbol " (too old a libxml2)"; return; }
    CXML_RESOLVE(initParser, xmlInitParser)
    CXML_RESOLVE(createPush, xmlCreatePushParserCtxt)
    CXML_RESOLVE(useOptions, xmlCtxtUseOptions)
    CXML_RESOLVE(parseChunk, xmlParseChunk)
    CXML_RESOLVE(stop, xmlStopParser)
    CXML_RESOLVE(freeContext, xmlFreeParserCtxt)
    CXML_RESOLVE(lastError, xmlCtxtGetLastError)
    CXML_RESOLVE(line, xmlSAX2GetLineNumber)
    CXML_RESOLVE(column, xmlSAX2GetColumnNumber)
#undef CXML_RESOLVE
    api.initParser();
}

/// One parse: the reader's callbacks, libxml2's parser, and whether a callback stopped it.
typedef struct {
    const cxml_events *events;
    xmlParserCtxtPtr parser;
    int stopped;
    /// Memory ran out while the attributes were copied: the parse stopped without the reader's verdict.
    int failed;
} session;

static void stop_if(session *s, int verdict) {
    if (verdict != 0 && !s->stopped) {
        s->stopped = 1;
        api.stop(s->parser);
    }
}

#define CXML_LINE(s) api.line((s)->parser)
#define CXML_COLUMN(s) api.column((s)->parser)

/// `prefix:local` in a new allocation, or NULL when out of memory.
static char *joined(const xmlChar *prefix, const xmlChar *local) {
    size_t prefix_length = strlen((const char *)prefix), local_length = strlen((const char *)local);
    char *name = malloc(prefix_length + local_length + 2);
    if (name == NULL) return NULL;
    memcpy(name, prefix, prefix_length);
    name[prefix_length] = ':';
    memcpy(name + prefix_length + 1, local, local_length + 1);
    return name;
}

static void out_of_memory(session *s) {
    s->failed = 1;
    stop_if(s, 1);
}

// Elements and attributes by their qualified names (namespaces are not processed: declarations are dropped).
static void on_start(void *context, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri, int namespace_count,
                     const xmlChar **namespaces, int attribute_count, int defaulted_count, const xmlChar **attributes) {
    (void)uri;
    (void)namespace_count;
    (void)namespaces;
    (void)defaulted_count;
    session *s = context;
    if (s->stopped) return;
    int count = attribute_count > 0 ? attribute_count : 0;
    // Name, value pairs ending with NULL, and what was allocated for them (each value; prefixed names).
    const char **pairs = malloc(sizeof(char *) * (2 * (size_t)count + 1));
    char **owned = malloc(sizeof(char *) * (2 * (size_t)count + 1));
    char *name = prefix != NULL ? joined(prefix, local) : NULL;
    if (pairs == NULL || owned == NULL || (prefix != NULL && name == NULL)) {
        free(pairs);
        free(owned);
        free(name);
        out_of_memory(s);
        return;
    }
    int made = 0, allocations = 0;
    for (int index = 0; index < count; index++) {
        // Each attribute is (local, prefix, URI, value start, value end); the value is not terminated.
        const xmlChar *const *attribute = attributes + 5 * index;
        size_t length = (size_t)(attribute[4] - attribute[3]);
        char *value = malloc(length + 1);
        char *attribute_name = attribute[1] != NULL ? joined(attribute[1], attribute[0]) : NULL;
        if (value == NULL || (attribute[1] != NULL && attribute_name == NULL)) {
            free(value);
            free(attribute_name);
            s->failed = 1;
            break;
        }
        memcpy(value, attribute[3], length);
        value[length] = 0;
        owned[allocations++] = value;
        if (attribute_name != NULL) owned[allocations++] = attribute_name;
        pairs[2 * made] = attribute_name != NULL ? attribute_name : (const char *)attribute[0];
        pairs[2 * made + 1] = value;
        made++;
    }
    pairs[2 * made] = NULL;
    int verdict = s->failed ? 1
        : s->events->start(s->events->context, name != NULL ? name : (const char *)local, pairs, CXML_LINE(s), CXML_COLUMN(s));
    for (int index = 0; index < allocations; index++) free(owned[index]);
    free(owned);
    free(pairs);
    free(name);
    stop_if(s, verdict);
}

static void on_end(void *context, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri) {
    (void)uri;
    session *s = context;
    if (s->stopped) return;
    char *name = prefix != NULL ? joined(prefix, local) : NULL;
    if (prefix != NULL && name == NULL) {
        out_of_memory(s);
        return;
    }
    stop_if(s, s->events->end(s->events->context, name != NULL ? name : (const char *)local, CXML_LINE(s), CXML_COLUMN(s)));
    free(name);
}

static void on_text(void *context, const xmlChar *bytes, int length) {
    session *s = context;
    if (s->stopped) return;
    stop_if(s, s->events->text(s->events->context, (const char *)bytes, length, CXML_LINE(s), CXML_COLUMN(s)));
}

static void refuse(session *s, cxml_refusal what, const xmlChar *name) {
    if (s->stopped) return;
    stop_if(s, s->events->refused(s->events->context, what, name != NULL ? (const char *)name : "", CXML_LINE(s), CXML_COLUMN(s)));
    // Whatever the reader says, a declaration is never let through.
    stop_if(s, 1);
}

static void on_doctype(void *context, const xmlChar *name, const xmlChar *external, const xmlChar *system) {
    (void)external;
    (void)system;
    refuse(context, cxml_doctype, name);
}

static void on_entity_declaration(void *context, const xmlChar *name, int type, const xmlChar *public_id, const xmlChar *system_id,
                                  xmlChar *content) {
    (void)type;
    (void)public_id;
    (void)system_id;
    (void)content;
    refuse(context, cxml_entity_declaration, name);
}

static void on_notation(void *context, const xmlChar *name, const xmlChar *public_id, const xmlChar *system_id) {
    (void)public_id;
    (void)system_id;
    refuse(context, cxml_notation_declaration, name);
}

static void on_unparsed_entity(void *context, const xmlChar *name, const xmlChar *public_id, const xmlChar *system_id,
                               const xmlChar *notation) {
    (void)public_id;
    (void)system_id;
    (void)notation;
    refuse(context, cxml_entity_declaration, name);
}

static void on_element_declaration(void *context, const xmlChar *name, int type, xmlElementContentPtr content) {
    (void)type;
    (void)content;
    refuse(context, cxml_element_declaration, name);
}

// Asked for every entity reference other than the five XML predefines: none is ever defined.
static xmlEntityPtr on_entity_reference(void *context, const xmlChar *name) {
    refuse(context, cxml_entity_reference, name);
    return NULL;
}

// libxml2 would print its messages on stderr: they are read from the parser once it is done instead.
static void quiet(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

static void quiet_structured(void *context, xmlErrorPtr error) {
    (void)context;
    (void)error;
}

static void set_message(cxml_result *result, const char *message) {
    snprintf(result->message, sizeof(result->message), "%s", message != NULL ? message : "");
    size_t length = strlen(result->message);
    while (length > 0 && (result->message[length - 1] == '\n' || result->message[length - 1] == ' ')) {
        result->message[--length] = 0;
    }
}

void cxml_parse(const char *bytes, int length, const cxml_events *events, cxml_result *result) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, load_once);
    memset(result, 0, sizeof(*result));
    if (load_error != NULL) {
        result->outcome = 3;
        set_message(result, load_error);
        return;
    }
    // SAX2 callbacks only: nothing is built, and libxml2 reports errors through `serror` rather than printing them.
    xmlSAXHandler handler;
    memset(&handler, 0, sizeof(handler));
    handler.initialized = XML_SAX2_MAGIC;
    handler.startElementNs = on_start;
    handler.endElementNs = on_end;
    handler.characters = on_text;
    handler.ignorableWhitespace = on_text;
    handler.cdataBlock = on_text;
    handler.internalSubset = on_doctype;
    handler.externalSubset = on_doctype;
    handler.entityDecl = on_entity_declaration;
    handler.notationDecl = on_notation;
    handler.unparsedEntityDecl = on_unparsed_entity;
    handler.elementDecl = on_element_declaration;
    handler.getEntity = on_entity_reference;
    handler.getParameterEntity = on_entity_reference;
    handler.warning = quiet;
    handler.error = quiet;
    handler.fatalError = quiet;
    handler.serror = quiet_structured;

    session s = {events, NULL, 0, 0};
    s.parser = api.createPush(&handler, &s, NULL, 0, NULL);
    if (s.parser == NULL) {
        result->outcome = 3;
        set_message(result, "libxml2 could not make a parser");
        return;
    }
    // XML_PARSE_NOENT has the five predefined entities replaced in attribute values too (else `&amp;` would come
    // as `&#38;`); no other entity can be defined, since every declaration and unknown reference stops the parse.
    api.useOptions(s.parser, XML_PARSE_NOENT | XML_PARSE_NONET | XML_PARSE_NOWARNING | XML_PARSE_NOERROR);
    api.parseChunk(s.parser, bytes, length, 1);
    if (s.failed) {
        result->outcome = 3;
        set_message(result, "out of memory while reading the XML");
    } else if (s.stopped) {
        result->outcome = 1;
    } else if (!s.parser->wellFormed) {
        result->outcome = 2;
        xmlErrorPtr error = api.lastError(s.parser);
        if (error != NULL) {
            result->line = error->line;
            result->column = error->int2;
            set_message(result, error->message);
        } else {
            result->line = api.line(s.parser);
            result->column = api.column(s.parser);
        }
    }
    api.freeContext(s.parser);
}
