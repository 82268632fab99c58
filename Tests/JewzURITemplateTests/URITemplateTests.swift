import JewzTestSupport
import JewzURITemplate
import Testing

@Suite struct URITemplateTests {
    @Test func associativeArraysKeepTheCallersOrder() throws {
        let keys: URITemplate.Value = ["semi": ";", "dot": ".", "comma": ","]
        #expect(try URITemplate("{?keys*}").expand(["keys": keys]) == "?semi=%3B&dot=.&comma=%2C")
        #expect(try URITemplate("{keys}").expand(["keys": keys]) == "semi,%3B,dot,.,comma,%2C")
        let pairs = URITemplate.Value([("z", "1"), ("a", "2")])
        #expect(try URITemplate("{;pairs*}").expand(["pairs": pairs]) == ";z=1;a=2")
    }

    @Test func literalsOfEveryKindReadNaturally() throws {
        let template = try URITemplate("/search{?q,page,exact,ratio,tags*}")
        let expansion = try template.expand(["q": "cats & dogs", "page": 2, "exact": true, "ratio": 0.5, "tags": ["a", "b"]])
        #expect(expansion == "/search?q=cats%20%26%20dogs&page=2&exact=true&ratio=0.5&tags=a&tags=b")
    }

    @Test func prefixesCountCodePointsAndNeverSplitTriplets() throws {
        #expect(try URITemplate("{v:2}").expand(["v": "éàü"]) == "%C3%A9%C3%A0")
        #expect(try URITemplate("{v:1}").expand(["v": "👍🏽x"]) == "%F0%9F%91%8D")
        #expect(try URITemplate("{+v:2}").expand(["v": "%2Fab"]) == "%2Fa")
        #expect(try URITemplate("{v:2}").expand(["v": "%2Fab"]) == "%252")
        #expect(throws: URITemplateError.prefixOnCompositeValue(variable: "list")) {
            try URITemplate("{list:1}").expand(["list": ["a"]])
        }
    }

    @Test func undefinedAndEmptyValues() throws {
        let template = try URITemplate("X{;a,b,c}{?d,e}{/f}{.g}")
        let empties: [String: URITemplate.Value] = ["a": "", "b": [], "c": [:], "d": "", "f": "", "g": ""]
        #expect(try template.expand(empties) == "X;a?d=/.")
        #expect(try template.expand([:]) == "X")
    }

    @Test func variableNamesInOrderWithoutRepeats() throws {
        #expect(try URITemplate("{a}/{b,a}{?c*,b}{#d:3}").variableNames == ["a", "b", "c", "d"])
        #expect(try URITemplate("no-expressions").variableNames.isEmpty)
    }

    @Test(arguments: [
        ("{a", URITemplateError.unclosedExpression(offset: 0)),
        ("x{a,b", .unclosedExpression(offset: 1)),
        ("ab}", .unexpectedClosingBrace(offset: 2)),
        ("é{}", .emptyExpression(offset: 1)),
        ("{!a}", .reservedOperator("!", offset: 1)),
        ("{a b}", .invalidVariableName("a b", offset: 1)),
        ("{.a..b}", .invalidVariableName("a..b", offset: 2)),
        ("{a:0}", .invalidPrefix(":0", offset: 2)),
        ("{a:10000}", .invalidPrefix(":10000", offset: 2)),
        ("{a:3*}", .invalidPrefix(":3*", offset: 2)),
        ("{a%2}", .malformedPercentEncoding(offset: 2)),
        ("50%", .malformedPercentEncoding(offset: 2)),
        ("a b", .invalidLiteral(" ", offset: 1)),
        ("ü<x", .invalidLiteral("<", offset: 1)),
    ])
    func parseErrorsAreTypedWithTheirOffset(_ template: String, _ error: URITemplateError) {
        #expect(throws: error) { try URITemplate(template) }
        #expect(error.offset != nil)
        #expect(!error.description.isEmpty)
    }

    /// Any text parses or is refused with an offset inside it; a template that parses expands
    /// or is refused with a typed error; a template without expressions expands to itself.
    @Test func arbitraryInputIsParsedOrRefusedWhereItFails() {
        var generator = SeededGenerator()
        let alphabet = Array("{}+#./;?&=,!@|:*%0123456789abcAZ_- é\u{0}\"'<>\\^`~")
        for _ in 0..<5000 {
            let length = Int.random(in: 0...24, using: &generator)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
            let template: URITemplate
            do {
                template = try URITemplate(text)
            } catch {
                let offset = error.offset ?? -1
                #expect((0..<max(text.count, 1)).contains(offset), "\(text.debugDescription): \(error), \(generator)")
                continue
            }
            // Expansion throws only URITemplateError (typed); a template without expressions
            // expands to what matches it with no values.
            guard let expanded = try? template.expand(["a": "x", "b": ["1", "2"], "c": ["k": "v"]]) else { continue }
            if !text.contains("{") {
                #expect(template.match(expanded) == [:], "\(text.debugDescription) → \(expanded), \(generator)")
            }
        }
    }

    @Test func matchReadsValuesBack() throws {
        let template = try URITemplate("/users/{id}/repos{/repo}{?sort,fields}")
        let values = try #require(template.match("/users/42/repos/jewz%20ruxin?sort=updated&fields=name,stars"))
        #expect(values["id"] == "42")
        #expect(values["repo"] == "jewz ruxin")
        #expect(values["sort"] == "updated")
        #expect(values["fields"] == ["name", "stars"])
        #expect(template.match("/users/42/repos")?["id"] == "42")
        #expect(template.match("/people/42") == nil)
    }

    @Test func matchRoundTripsWhatExpandProduces() throws {
        let cases: [(String, [String: URITemplate.Value])] = [
            ("{var}", ["var": "value"]),
            ("{x,y}", ["x": "1024", "y": "768"]),
            ("{+path}/here", ["path": "/foo/bar"]),
            ("X{.x,y}", ["x": "1024", "y": "768"]),
            ("{/var,x}/here", ["var": "value", "x": "1024"]),
            ("{;x,y,empty}", ["x": "1024", "y": "768", "empty": ""]),
            ("{?x,y}{&z}", ["x": "1024", "y": "ü ß", "z": "3"]),
            ("{#hello}", ["hello": "Hello World!"]),
        ]
        for (text, variables) in cases {
            let template = try URITemplate(text)
            let expansion = try template.expand(variables)
            #expect(template.match(expansion) == variables, "\(text) → \(expansion)")
        }
    }

    @Test func reservedValuesMatchAsWrittenSoTheyExpandBackUnchanged() throws {
        // Found by the fuzzer: decoding %2F here would re-expand as a bare '/'.
        let template = try URITemplate("x{+v}/{;b,c}")
        let expansion = try template.expand(["v": "%2Fa'", "b": "%", "c": ["%2F", "y"]])
        #expect(expansion == "x%2Fa'/;b=%25;c=%252F,y")
        let values = try #require(template.match(expansion))
        #expect(values["v"] == "%2Fa'")
        #expect(try template.expand(values) == expansion)
    }

    @Test func aRepeatedVariableMustMatchTheSameValue() throws {
        // Found by the fuzzer: the first {/a} must not read its own '/' as the next one's.
        let template = try URITemplate("{/a}{/a}")
        #expect(template.match("/x/x") == ["a": "x"])
        #expect(template.match("/x/y") == nil)
        #expect(template.match("/x") == nil)
    }

    @Test func matchRejectsTextTheTemplateCannotProduce() throws {
        #expect(try URITemplate("{v}").match("a%7Eb") == nil)  // expansion writes '~' literally
        #expect(try URITemplate("{v}").match("a~b") == ["v": "a~b"])
    }

    @Test func matchRefusesToGuess() throws {
        #expect(try URITemplate("{a}{b}").match("xy") == nil)
        #expect(try URITemplate("{+a,b}").match("x,y,z") == nil)
        #expect(try URITemplate("{a*}").match("x") == nil)
        #expect(try URITemplate("{a:2}").match("xy") == nil)
    }

    @Test func namesOutsideTheVariableCharactersAreSpelledPercentEncoded() throws {
        #expect(URITemplate.variableName(for: "limit") == "limit")
        #expect(URITemplate.variableName(for: "filter.name") == "filter.name")
        #expect(URITemplate.variableName(for: "page-size") == "page%2Dsize")
        #expect(URITemplate.variableName(for: ".a..b.") == "%2Ea.%2Eb%2E")
        #expect(URITemplate.variableName(for: "prénom") == "pr%C3%A9nom")
        for name in ["page-size", ".a..b.", "prénom", "$top", "a b"] {
            let template = try URITemplate("{?\(URITemplate.variableName(for: name))}")
            #expect(template.variableNames == [URITemplate.variableName(for: name)])
        }
    }
}
