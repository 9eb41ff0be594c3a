// Placeholder: replaced by `make schemas` once Catalog/schemas exists.
/// The JSON Schemas of the catalog files, embedded so `tipcat init` can write them.
public enum CatalogSchemas {
    public static let files: [String: String] = [:]
}
