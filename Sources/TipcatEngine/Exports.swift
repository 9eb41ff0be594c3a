// An app that imports TipcatEngine can name everything the engine's API uses — values, times, identifiers,
// the catalog — without importing the modules that define them.
@_exported public import TipcatCatalog
@_exported public import TipcatCore
