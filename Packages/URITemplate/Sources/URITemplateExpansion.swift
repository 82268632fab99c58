extension URITemplate.Expression {
    /// Expands one expression, whose variables are `variables`, as RFC 6570 Appendix A describes.
    func expand(
        _ variables: ArraySlice<URITemplate.VariableSpec>, into output: inout [UInt8], lookup: (String) -> URITemplate.Value?
    ) throws(URITemplateError) {
        let operation = self.operation
        var isFirst = true
        for variable in variables {
            guard let value = lookup(variable.name), !value.isUndefined else { continue }
            if !isFirst {
                output.append(operation.separator)
            } else if let first = operation.first {
                output.append(first)
            }
            isFirst = false
            switch value {
            case .string(let string):
                if operation.named {
                    output.append(contentsOf: variable.name.utf8)
                    if string.isEmpty {
                        if let ifEmpty = operation.ifEmpty { output.append(ifEmpty) }
                        continue
                    }
                    output.append(.equals)
                }
                URIEncoding.append(string, allowsReserved: operation.allowsReserved, prefix: variable.prefix, to: &output)
            case .list(let items):
                guard variable.prefix == nil else { throw .prefixOnCompositeValue(variable: variable.name) }
                if variable.explode {
                    for (position, item) in items.enumerated() {
                        if position > 0 { output.append(operation.separator) }
                        if operation.named { appendName(variable.name, emptyValue: item.isEmpty, to: &output) }
                        URIEncoding.append(item, allowsReserved: operation.allowsReserved, prefix: nil, to: &output)
                    }
                } else {
                    appendUnexplodedName(of: variable, operation, to: &output)
                    for (position, item) in items.enumerated() {
                        if position > 0 { output.append(.comma) }
                        URIEncoding.append(item, allowsReserved: operation.allowsReserved, prefix: nil, to: &output)
                    }
                }
            case .associative(let pairs):
                guard variable.prefix == nil else { throw .prefixOnCompositeValue(variable: variable.name) }
                if variable.explode {
                    for (position, pair) in pairs.enumerated() {
                        if position > 0 { output.append(operation.separator) }
                        URIEncoding.append(pair.key, allowsReserved: operation.allowsReserved, prefix: nil, to: &output)
                        if operation.named, pair.value.isEmpty {
                            if let ifEmpty = operation.ifEmpty { output.append(ifEmpty) }
                            continue
                        }
                        output.append(.equals)
                        URIEncoding.append(pair.value, allowsReserved: operation.allowsReserved, prefix: nil, to: &output)
                    }
                } else {
                    appendUnexplodedName(of: variable, operation, to: &output)
                    for (position, pair) in pairs.enumerated() {
                        if position > 0 { output.append(.comma) }
                        URIEncoding.append(pair.key, allowsReserved: operation.allowsReserved, prefix: nil, to: &output)
                        output.append(.comma)
                        URIEncoding.append(pair.value, allowsReserved: operation.allowsReserved, prefix: nil, to: &output)
                    }
                }
            }
        }
    }

    /// An unexploded list's or map's `name=`, for the operators that name their variables
    /// (`;`, `?`, `&`): the members follow, joined by commas.
    private func appendUnexplodedName(of variable: URITemplate.VariableSpec, _ operation: URITemplate.Operator, to output: inout [UInt8]) {
        guard operation.named else { return }
        output.append(contentsOf: variable.name.utf8)
        output.append(.equals)
    }

    /// A named, exploded list member's `name=` (or `name` plus ifemp for an empty member).
    private func appendName(_ name: String, emptyValue: Bool, to output: inout [UInt8]) {
        output.append(contentsOf: name.utf8)
        if emptyValue {
            if let ifEmpty = operation.ifEmpty { output.append(ifEmpty) }
        } else {
            output.append(.equals)
        }
    }
}
