/// Numbers: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as text plus decoded values.
extension JSONParser {
    /// Reads the number at `position` (a `-` or a digit); leaves `position` after it.
    mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
        let start = position
        var index = start
        guard index < end else { throw found(context.expectation, at: index) }
        let negative = base[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < end, Self.isDigit(base[index]) else {
            throw found("expected a digit after '-'", at: index)
        }
        var value = 0
        var overflow = false
        if base[index] == UInt8(ascii: "0") {
            index += 1
            if index < end, Self.isDigit(base[index]) {
                throw JSONSyntaxError("leading zeros are not allowed in numbers", at: index - 1)
            }
        } else {
            while index < end, Self.isDigit(base[index]) {
                if !overflow {
                    let digit = Int(base[index] &- UInt8(ascii: "0"))
                    let (scaled, scaleOverflow) = value.multipliedReportingOverflow(by: 10)
                    let (sum, sumOverflow) = negative
                        ? scaled.subtractingReportingOverflow(digit)
                        : scaled.addingReportingOverflow(digit)
                    if scaleOverflow || sumOverflow { overflow = true } else { value = sum }
                }
                index += 1
            }
        }
        var isInteger = true
        if index < end, base[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < end, Self.isDigit(base[index]) else {
                throw found("expected a digit after '.'", at: index)
            }
            while index < end, Self.isDigit(base[index]) { index += 1 }
        }
        if index < end, base[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if index < end, base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-") { index += 1 }
            guard index < end, Self.isDigit(base[index]) else {
                throw found("expected a digit in the exponent", at: index)
            }
            while index < end, Self.isDigit(base[index]) { index += 1 }
        }
        position = index
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
        let intValue = isInteger && !overflow ? value : nil
        let doubleValue: Double
        if let intValue, intValue.magnitude <= 1 << 53, !(negative && intValue == 0) {
            doubleValue = Double(intValue)  // exact
        } else {
            // Correctly rounded by the standard library; out-of-range exponents give ±infinity or ±0.
            doubleValue = Double(text) ?? (negative ? -.infinity : .infinity)
        }
        return JSONNumber(text: text, isInteger: isInteger, intValue: intValue, doubleValue: doubleValue)
    }
}
