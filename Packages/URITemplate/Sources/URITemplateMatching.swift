extension URITemplate {
    /// The variable values that expanding this template would turn into `uri`, or `nil` when
    /// `uri` does not fit the template or the answer would be a guess.
    ///
    /// Works for level 1–3 templates (no `:N` or `*` modifiers). Unambiguous means: two
    /// expressions are separated by literal text or by the second one's leading operator
    /// character, and a reserved (`+`, `#`) expression with several variables is not followed
    /// by values that could contain its separator. A value with `,` in a simple expression of
    /// one variable comes back as a list, since a string's comma would have been encoded.
    /// In reserved expressions an escape of a character that expansion writes literally
    /// (`%2F` for `/`) stays as written, since it must have been in the value.
    ///
    /// ```swift
    /// let values = try URITemplate("/users/{id}{?fields}").match("/users/42?fields=name,email")
    /// // ["id": "42", "fields": ["name", "email"]]
    /// ```
    public func match(_ uri: String) -> [String: Value]? {
        if variables.contains(where: { $0.prefix != nil || $0.explode }) { return nil }
        var values: [String: Value] = [:]
        let input = Array(uri.utf8)
        var position = 0
        for (index, part) in parts.enumerated() {
            switch part {
            case .literal(let range):
                let literal = literalBytes[range]
                guard input.count - position >= literal.count,
                    input[position..<position + literal.count].elementsEqual(literal)
                else { return nil }
                position += literal.count
            case .expression(let expression):
                guard let end = extentEnd(after: index, from: position, in: input),
                    expression.match(input[position..<end], variables: variables[expression.variables], into: &values)
                else { return nil }
                position = end
            }
        }
        // Only values that give back exactly `uri` are an answer: this rejects a variable read
        // two ways where it appears twice, and text the template could not have produced.
        guard position == input.count, (try? expand(values)) == uri else { return nil }
        return values
    }

    /// Where the expression at `index` ends: at the next literal, at the next expression's
    /// leading character, or at the end of the input.
    private func extentEnd(after index: Int, from position: Int, in input: [UInt8]) -> Int? {
        guard index + 1 < parts.count else { return input.count }
        switch parts[index + 1] {
        case .literal(let range):
            let literal = literalBytes[range]
            guard let first = literal.first else { return nil }
            var candidate = position
            while candidate + literal.count <= input.count {
                if input[candidate] == first, input[candidate..<candidate + literal.count].elementsEqual(literal) {
                    return candidate
                }
                candidate += 1
            }
            return nil
        case .expression(let next):
            guard let leading = next.operation.first, case .expression(let current) = parts[index] else { return nil }
            // Look past this expression's own leading character.
            let searchStart = current.operation.first != nil && position < input.count ? position + 1 : position
            guard current.operation.named, current.operation.separator == leading, next.operation.named else {
                return input[searchStart...].firstIndex(of: leading) ?? input.count
            }
            // `{?x,y}{&z}`: the `&` that starts `z=` ends the first expression, not the one
            // between `x` and `y`.
            var candidate = searchStart
            while let found = input[candidate...].firstIndex(of: leading) {
                let name = input[(found + 1)...].prefix { $0 != .equals && $0 != leading }
                if variables[next.variables].contains(where: { $0.name.utf8.elementsEqual(name) }) { return found }
                candidate = found + 1
            }
            return input.count
        }
    }
}

extension URITemplate.Expression {
    /// Reads this expression's variables back from its expanded text.
    func match(
        _ text: ArraySlice<UInt8>, variables: ArraySlice<URITemplate.VariableSpec>, into values: inout [String: URITemplate.Value]
    ) -> Bool {
        var text = text
        if let first = operation.first {
            guard let leading = text.first else { return true }  // every variable undefined
            guard leading == first else { return false }
            text = text.dropFirst()
        }
        if text.isEmpty, operation.first == nil { return true }
        let fields = text.split(separator: operation.separator, omittingEmptySubsequences: false)
        if operation.named {
            for field in fields {
                let name = field.prefix { $0 != .equals }
                guard let variable = variables.first(where: { $0.name.utf8.elementsEqual(name) }) else { return false }
                let raw = field.count > name.count ? field.dropFirst(name.count + 1) : []
                guard let value = decodedValue(raw, allowsList: true) else { return false }
                values[variable.name] = value
            }
            return true
        }
        if variables.count == 1, let variable = variables.first {
            let whole = operation.separator == .comma ? [text] : fields
            guard whole.count == 1 || operation.separator != .comma else { return false }
            if whole.count == 1 {
                guard let value = decodedValue(whole[0], allowsList: true) else { return false }
                values[variable.name] = value
            } else {
                var items: [String] = []
                for field in whole {
                    guard case .string(let item)? = decodedValue(field, allowsList: false) else { return false }
                    items.append(item)
                }
                values[variable.name] = .list(items)
            }
            return true
        }
        // Several variables: one field each, in order; reserved expansion may hide separators.
        guard !operation.allowsReserved || !fields.isEmpty, fields.count <= variables.count else { return false }
        if operation.allowsReserved, fields.count != variables.count { return false }
        for (variable, field) in zip(variables, fields) {
            guard case .string(let value)? = decodedValue(field, allowsList: false) else { return false }
            values[variable.name] = .string(value)
        }
        return true
    }

    /// One field's value: percent-decoded, except in reserved expansion, which keeps `%XX` as
    /// written (so the raw text is what expands back to itself); a comma-separated field
    /// becomes a list when allowed.
    private func decodedValue(_ raw: ArraySlice<UInt8>, allowsList: Bool) -> URITemplate.Value? {
        let keepsReserved = operation.allowsReserved
        if allowsList, !keepsReserved, raw.contains(.comma) {
            var items: [String] = []
            for item in raw.split(separator: .comma, omittingEmptySubsequences: false) {
                guard let decoded = Self.percentDecoded(item, keepingReservedEscapes: false) else { return nil }
                items.append(decoded)
            }
            return .list(items)
        }
        return Self.percentDecoded(raw, keepingReservedEscapes: keepsReserved).map { .string($0) }
    }

    /// Decodes `%XX` escapes. With `keepingReservedEscapes` (reserved expansion), an escape of a
    /// byte that expansion writes literally stays as written: it must have been in the value.
    private static func percentDecoded(_ raw: ArraySlice<UInt8>, keepingReservedEscapes: Bool) -> String? {
        var output: [UInt8] = []
        output.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            if raw[index] == .percent {
                guard index + 2 < raw.endIndex, let high = URIEncoding.hexValue(raw[index + 1]), let low = URIEncoding.hexValue(raw[index + 2]) else {
                    return nil
                }
                let byte = high << 4 | low
                if keepingReservedEscapes, URIEncoding.isUnreservedOrReserved(byte) {
                    output.append(contentsOf: raw[index...index + 2])
                } else {
                    output.append(byte)
                }
                index += 3
            } else {
                output.append(raw[index])
                index += 1
            }
        }
        return String(validating: output, as: UTF8.self)
    }
}
