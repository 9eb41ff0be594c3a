public import TipcatCore

extension TemplateValue {
    /// Converts a catalog ``Value``: dates become ISO 8601 strings, sets lists, records objects.
    public init(_ value: TipcatCore.Value) {
        switch value {
        case .string(let text): self = .string(text)
        case .int(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .bool(let flag): self = .bool(flag)
        case .date(let timestamp): self = .string(timestamp.iso8601)
        case .list(let values), .set(let values): self = .array(values.map(TemplateValue.init))
        case .record(let fields): self = .object(fields.mapValues(TemplateValue.init))
        }
    }
}
