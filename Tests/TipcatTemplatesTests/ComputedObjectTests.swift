import Synchronization
import Testing
import TipcatTemplates

/// `TemplateValue.computed`: objects whose fields are computed on lookup behave like dictionaries.
@Suite struct ComputedObjectTests {
    /// Counts lookups so the tests can see that fields are computed only when read.
    final class Person: TemplateObject {
        let lookups = Mutex<[String]>([])

        func value(forKey key: String) -> TemplateValue? {
            lookups.withLock { $0.append(key) }
            return switch key {
            case "name": "Ada"
            case "address": .computed(Address())
            case "languages": ["Swift", "C"]
            case "nothing": .null
            default: nil
            }
        }
    }

    final class Address: TemplateObject {
        func value(forKey key: String) -> TemplateValue? { key == "city" ? "London" : nil }
    }

    @Test func fieldsDottedNamesAndSections() throws {
        let template = try Template("{{name}} of {{address.city}}{{#address}} ({{city}}){{/address}}: {{#languages}}{{.}} {{/languages}}")
        #expect(try template.render(.computed(Person())) == "Ada of London (London): Swift C ")
    }

    @Test func aMissingFieldFallsThroughToLowerFrames() throws {
        let template = try Template("{{#person}}{{name}} {{greeting}}{{/person}}")
        let data: TemplateValue = ["person": .computed(Person()), "greeting": "hello", "name": "outer"]
        #expect(try template.render(data) == "Ada hello")
    }

    @Test func aNullFieldIsFoundAndStopsTheLookup() throws {
        let template = try Template("{{#person}}[{{nothing}}]{{/person}}")
        let data: TemplateValue = ["person": .computed(Person()), "nothing": "outer"]
        #expect(try template.render(data) == "[]")
    }

    @Test func aDottedNameDoesNotFallThroughOnceItsFirstPartIsFound() throws {
        // Spec: the remaining parts are looked up in the found value only.
        let template = try Template("[{{address.street}}]")
        #expect(try template.render(.computed(Person())) == "[]")
    }

    @Test func onlyTheFieldsTheTemplateReadsAreComputed() throws {
        let person = Person()
        _ = try Template("{{name}}").render(.computed(person))
        #expect(person.lookups.withLock { $0 } == ["name"])
    }

    @Test func anObjectIsTruthyPrintsNothingAndEqualsOnlyItself() throws {
        let person = Person()
        #expect(TemplateValue.computed(person).isTruthy)
        #expect(TemplateValue.computed(person).interpolationText == "")
        #expect(TemplateValue.computed(person) == .computed(person))
        #expect(TemplateValue.computed(person) != .computed(Person()))
        #expect(TemplateValue.computed(person)["name"] == "Ada")
        #expect(try Template("<{{.}}>").render(.computed(person)) == "<>")
    }
}
