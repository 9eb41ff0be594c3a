import TipcatCatalog
import TipcatText
import TipcatTemplates

/// The context fields that are the same for every tip a renderer renders.
struct SharedContext: Sendable {
    let width: TemplateValue
    let color: TemplateValue
    let style: TemplateValue
    let wrap: TemplateValue
    let card: TemplateValue
    let role: TemplateValue
}

/// What a template sees for one tip: the resolved tip's fields, escaped by the style's escaper as they are read,
/// plus the renderer's shared fields (width, colour, style name, layout lambdas).
///
/// Fields are computed on lookup rather than gathered in a dictionary first: a render reads each field once or
/// twice, and most templates read only some of them.
final class TipContext: TemplateObject {
    let tip: ResolvedTip
    let shared: SharedContext
    let escape: @Sendable (String) -> String
    let inline: InlineRendering

    init(tip: ResolvedTip, shared: SharedContext, escape: @escaping @Sendable (String) -> String, inline: InlineRendering) {
        self.tip = tip
        self.shared = shared
        self.escape = escape
        self.inline = inline
    }

    /// A text of the tip (its inline Markdown) as the style shows it. Given the markup alone: a caller passes a
    /// text's field, not a copy of the whole text (which retains each of its parts).
    func render(_ markup: InlineMarkup) -> String {
        if markup.nodes.count <= 1, case .text(let plain)? = markup.nodes.first ?? .text("") { return escape(plain) }
        return inline.render(markup)
    }

    func value(forKey key: String) -> TemplateValue? {
        // The commonest reads first: a switch over strings compares them in order.
        switch key {
        case "wrap": shared.wrap
        case "title": .string(render(tip.title.inline))
        case "role": shared.role
        case "hasImage": .bool(tip.image != nil)
        case "image": .string(escape(tip.image ?? ""))
        case "hasMessage": .bool(!(tip.message?.text.isEmpty ?? true))
        case "message": .string((tip.message?.inline).map(render) ?? "")
        case "hasActions": .bool(!tip.actions.isEmpty)
        case "actions": .array(tip.actions.indices.map { .computed(ActionContext(tip: self, index: $0)) })
        case "card": shared.card
        case "id": .string(escape(tip.tipID.rawValue))
        case "instanceID": .string(escape(tip.instanceID))
        case "locale": .string(tip.locale.identifier)
        case "dir": .string(tip.locale.isRightToLeft ? "rtl" : "ltr")
        case "titleLocale": .string(tip.title.locale.identifier)
        case "parameters": .object(tip.parameters.mapValues { TipRenderer.templateValue($0, escape: escape) })
        case "width": shared.width
        case "color": shared.color
        case "style": shared.style
        default: nil
        }
    }
}

/// One entry of `actions`: `id`, `title`, `index` (from 1), `first`, `last`.
final class ActionContext: TemplateObject {
    let tip: TipContext
    let index: Int

    init(tip: TipContext, index: Int) {
        self.tip = tip
        self.index = index
    }

    func value(forKey key: String) -> TemplateValue? {
        // The action's fields are read in place: copying the action out of the array retains each of its parts.
        switch key {
        case "title": .string(tip.render(tip.tip.actions[index].title.inline))
        case "last": .bool(index == tip.tip.actions.count - 1)
        case "first": .bool(index == 0)
        case "id": .string(tip.escape(tip.tip.actions[index].id))
        case "index": .int(index + 1)
        default: nil
        }
    }
}
