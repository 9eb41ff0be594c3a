// An XML document read as a stream of events by the system's libxml2, loaded on first use. Written for this
// project.
//
// tipcat links no libxml2: only `tipcat strings import` of an XLIFF file reads XML, and libxml2 brings ICU, zlib
// and liblzma, which every process would otherwise load and relocate at start-up (about 2 ms a command). The
// first document dlopen()s libxml2.so.2; its declarations come from libxml2-dev's headers, used by
// cxmlevents.c alone.
#ifndef CXMLEVENTS_H
#define CXMLEVENTS_H

#include <stddef.h>

/// What the parser met that the reader refuses.
typedef enum {
    cxml_doctype,
    cxml_element_declaration,
    cxml_entity_declaration,
    cxml_notation_declaration,
    /// A reference to an entity other than XML's five (none is ever defined).
    cxml_entity_reference,
} cxml_refusal;

/// What the reader is told, in document order. `context` is the reader's own. A callback returning non-zero
/// stops the parse (the reader has found what it refuses).
typedef struct {
    void *context;
    /// An element starts: its qualified name and its attributes as name, value pairs ending with a NULL name;
    /// `line` and `column` are where the parser is (just past the start tag).
    int (*start)(void *context, const char *name, const char *const *attributes, int line, int column);
    int (*end)(void *context, const char *name, int line, int column);
    /// Character data (entities and character references replaced) or a CDATA section's bytes, UTF-8.
    int (*text)(void *context, const char *bytes, int length, int line, int column);
    /// A DOCTYPE, an element, entity or notation declaration, or an entity reference the document does not
    /// define: `what` says which (the reader refuses them all).
    int (*refused)(void *context, cxml_refusal what, const char *name, int line, int column);
} cxml_events;

/// How a parse ended.
typedef struct {
    /// 0: the document was read to its end and is well-formed. 1: a callback stopped it. 2: the document is
    /// not well-formed (`message`, `line`, `column` say where and why). 3: libxml2 could not be loaded or the
    /// parser not made (`message` says why).
    int outcome;
    int line;
    int column;
    /// libxml2's message (or the loading error), without its trailing newline; empty when there is none.
    char message[512];
} cxml_result;

/// Reads `bytes[0..<length]` (UTF-8) as an XML document, calling `events` as it goes. Entities are never
/// loaded or substituted from a DTD and the network is never used.
void cxml_parse(const char *bytes, int length, const cxml_events *events, cxml_result *result);

#endif
